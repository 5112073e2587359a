#!/bin/bash
# The modules of Debian's kernel that edge_netrx's guest network needs,
# and only those: veth.ko (a veth pair between two network namespaces).
# Everything else the tests use (network namespaces, AF_PACKET, IPv4) is
# built into Debian's kernel.  Only these files of the image's package
# are extracted, never the module tree (compressed ones, as 6.12's may
# be, are decompressed: the guest's insmod takes a plain .ko).
#
# Usage: fetch-netmods.sh CACHE_DIR [SERIES]   (after fetch-kernel.sh;
#          SERIES 6.1 or 6.12, default 6.12)
#        fetch-netmods.sh --from-deb IMAGE_DEB CACHE_DIR KV ROOT [PATH...]
#          fetch-kernel.sh's one pass over the image it downloaded: also
#          extracts PATHs (./boot) of it into ROOT.
# Writes CACHE_DIR/netmods/KV/*.ko; instant when they are there.
set -euo pipefail
log() { echo "fetch-netmods: $*" >&2; }
mods=(kernel/drivers/net/veth.ko)

# extract DEB KV ROOT [PATH...]: the modules into CACHE/netmods/KV, PATHs into ROOT.
extract() {
	local deb=$1 kv=$2 root=$3 m ko tmp paths=()
	shift 3
	tmp=$(mktemp -d "$cache/.netmods-x.XXXXXX")
	for m in "${mods[@]}"; do paths+=("./lib/modules/$kv/$m*"); done
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$tmp" --wildcards --no-wildcards-match-slash "$@" "${paths[@]}"
	local out=$cache/netmods/$kv
	mkdir -p "$out"
	for m in "${mods[@]}"; do
		ko=$tmp/lib/modules/$kv/$m
		if [[ -f $ko.xz ]]; then
			xz -d "$ko.xz"
		elif [[ -f $ko.zst ]]; then
			zstd -q -d --rm "$ko.zst"
		fi
		[[ -f $ko ]] || { log "$m not in $(basename "$deb")"; rm -rf "$tmp"; return 1; }
		# Each must load alone: insmod, no modprobe, no modules.dep.
		[[ -z $(modinfo -F depends "$ko") ]] ||
			{ log "$m depends on $(modinfo -F depends "$ko")"; rm -rf "$tmp"; return 1; }
		[[ $(modinfo -F vermagic "$ko") == "$kv "* ]] ||
			{ log "$m is not for $kv"; rm -rf "$tmp"; return 1; }
		cp "$ko" "$out/"
	done
	rm -rf "${tmp:?}/lib"
	if (($#)); then
		mkdir -p "$root"
		cp -a "$tmp/." "$root/"
	fi
	rm -rf "$tmp"
}

if [[ ${1:-} == --from-deb ]]; then
	(($# >= 5)) || { log "usage: $0 --from-deb IMAGE_DEB CACHE_DIR KV ROOT [PATH...]"; exit 2; }
	deb=$2 cache=$(cd "$3" && pwd -P) kv=$4 root=$5
	shift 5
	extract "$deb" "$kv" "$root" "$@"
	exit 0
fi

cache=$(cd "${1:?usage: fetch-netmods.sh CACHE_DIR [SERIES]}" && pwd -P)
series=${2:-6.12}
# shellcheck source=/dev/null
. "$cache/kernel-$series.env"
have() {
	local m
	for m in "${mods[@]}"; do [[ -f $cache/netmods/$KV/$(basename "$m") ]] || return 1; done
}
have && exit 0
exec 9>"$cache/.netmods.lock"
flock 9
have && exit 0
# A cache fetched before fetch-kernel.sh extracted the modules itself:
# the image's package once more.
ver=$(apt-cache policy "linux-image-$KV" | awk '/Candidate:/ {print $2}')
[[ -n $ver && $ver != "(none)" ]] || { log "no candidate for linux-image-$KV"; exit 1; }
dl=$(mktemp -d "$cache/.netmods.XXXXXX")
trap 'rm -rf "$dl"' EXIT
download() { (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "linux-image-$KV=$ver") >&2; }
download || { apt-get update -q >&2 && download; }
extract "$dl"/*.deb "$KV" "$dl/root"
log "${mods[*]} of linux-image-$KV $ver in $cache/netmods/$KV"
