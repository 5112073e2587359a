#!/bin/bash
# The modules of Debian's kernel that edge_netrx's guest network needs,
# and only those: veth.ko (a veth pair between two network namespaces).
# Everything else the tests use (network namespaces, AF_PACKET, IPv4) is
# built into Debian's kernel.  The image package is fetched again (the
# kernel cache kept only ./boot of it) and just these files are
# extracted, never the module tree.
#
# Usage: fetch-netmods.sh CACHE_DIR   (after fetch-kernel.sh)
# Writes CACHE_DIR/netmods/KV/*.ko; instant when they are there.
set -euo pipefail
cache=$(cd "${1:?usage: fetch-netmods.sh CACHE_DIR}" && pwd -P)
# shellcheck source=/dev/null
. "$cache/kernel.env"
mods=(kernel/drivers/net/veth.ko)
out=$cache/netmods/$KV
have() {
	local m
	for m in "${mods[@]}"; do [[ -f $out/$(basename "$m") ]] || return 1; done
}
have && exit 0
exec 9>"$cache/.netmods.lock"
flock 9
have && exit 0
log() { echo "fetch-netmods: $*" >&2; }
ver=$(apt-cache policy "linux-image-$KV" | awk '/Candidate:/ {print $2}')
[[ -n $ver && $ver != "(none)" ]] || { log "no candidate for linux-image-$KV"; exit 1; }
dl=$(mktemp -d "$cache/.netmods.XXXXXX")
trap 'rm -rf "$dl"' EXIT
download() { (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "linux-image-$KV=$ver") >&2; }
download || { apt-get update -q >&2 && download; }
paths=()
for m in "${mods[@]}"; do paths+=("./lib/modules/$KV/$m"); done
dpkg-deb --fsys-tarfile "$dl"/*.deb | tar -x -C "$dl" "${paths[@]}"
mkdir -p "$out"
for m in "${mods[@]}"; do
	ko=$dl/lib/modules/$KV/$m
	# Each must load alone: insmod, no modprobe, no modules.dep.
	[[ -z $(modinfo -F depends "$ko") ]] || { log "$m depends on $(modinfo -F depends "$ko")"; exit 1; }
	[[ $(modinfo -F vermagic "$ko") == "$KV "* ]] || { log "$m is not for $KV"; exit 1; }
	cp "$ko" "$out/"
done
log "${mods[*]} of linux-image-$KV $ver in $out"
