#!/bin/bash
# Fetch one of Debian's stock kernels (image + headers + kbuild) into a
# cache folder without installing it, and extract a bootable ELF vmlinux.
#
# Usage: fetch-kernel.sh CACHE_DIR [SERIES]
#   SERIES: 6.1 (Debian 12's own) or 6.12 (Debian 12's security archive,
#   Debian 13's LTS); default 6.12.
# Writes CACHE_DIR/kernel-SERIES.env with KV=, KDIR=, VMLINUX=, the paths
# relative to CACHE_DIR (tools/vm/kernel-env.sh makes them absolute), and
# the headers' Makefile includes its -common part by a relative path: a
# copied or moved cache keeps building against its own headers.
# The image's package is unpacked once, for ./boot and the guest modules
# of tools/vm/fetch-netmods.sh (CACHE_DIR/netmods/KV/).
# Instant when the env file points at existing files; delete it to refetch.
set -euo pipefail

if (($# < 1 || $# > 2)); then
	echo "usage: $0 CACHE_DIR [6.1|6.12]" >&2
	exit 2
fi
series=${2:-6.12}
case $series in
6.1 | 6.12) ;;
*)
	echo "fetch-kernel.sh: unknown kernel series '$series' (6.1 or 6.12)" >&2
	exit 2
	;;
esac
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
here=$(cd "$(dirname "$0")" && pwd)
envfile=$cache/kernel-$series.env

stamp_ok() {
	[[ -s $envfile ]] || return 1
	local KV='' KDIR='' VMLINUX=''
	# shellcheck disable=SC1090
	. "$envfile"
	[[ -n $KV && -f $cache/$KDIR/Makefile && -f $cache/$VMLINUX ]]
}
stamp_ok && exit 0

# Serialise concurrent callers sharing one cache; re-check once we hold it.
exec 9>"$cache/.kernel-$series.lock"
flock 9
stamp_ok && exit 0

log() { echo "fetch-kernel: $*" >&2; }
t0=$SECONDS

# The ABI (6.1.0-NN, 6.12.NN+deb12) moves with security updates: ask the
# series' meta-package, never hard-code.  6.1 is bookworm's default
# kernel, whose meta-package has no series in its name.
abi_from_apt() {
	local meta out
	for meta in "linux-image-$series-amd64" linux-image-amd64; do
		out=$(apt-cache depends "$meta" 2>/dev/null) || continue
		sed -n 's/^ *Depends: linux-image-\([0-9][0-9.+a-z0-9-]*-amd64\)$/\1/p' <<<"$out" |
			grep -m1 -F "$series." || true
	done | sed -n 1p
}
KV=$(abi_from_apt)
if [[ -z $KV ]]; then
	# Fresh machine: no package lists yet.
	apt-get update -q >&2
	KV=$(abi_from_apt)
fi
[[ -n $KV ]] || { log "cannot find Debian's $series kernel via apt-cache"; exit 1; }

candidate() { apt-cache policy "$1" | awk '/Candidate:/ {print $2}'; }
ver=$(candidate "linux-headers-$KV")
[[ -n $ver && $ver != "(none)" ]] || { log "no candidate for linux-headers-$KV"; exit 1; }
img_ver=$(candidate "linux-image-$KV")
# The -common headers and linux-kbuild by the headers' own dependencies
# (6.1: linux-kbuild-6.1, 6.12: linux-kbuild-6.12.NN+deb12), each at
# exactly the headers' version.
deps=$(apt-cache depends "linux-headers-$KV" |
	sed -n 's/^ *|\{0,1\}Depends: \(linux-\(headers-.*-common\|kbuild-.*\)\)$/\1/p')
pkgs=("linux-image-$KV=$img_ver" "linux-headers-$KV=$ver")
for p in $deps; do pkgs+=("$p=$ver"); done
((${#pkgs[@]} == 4)) || { log "unexpected dependencies of linux-headers-$KV: $deps"; exit 1; }
log "kernel $KV (headers $ver, image $img_ver)"

dl='' hello=''
trap 'rm -rf "$dl" "$hello"' EXIT
dl=$(mktemp -d "$cache/.dl.XXXXXX")
# One apt-get for all four: it fetches them over one connection at the
# mirror's speed, where each apt-get of its own costs seconds of reading
# the package lists on a busy machine.
download() { (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "${pkgs[@]}") >&2; }
# Stale lists point at files the mirror has dropped: refresh once and retry.
download || { apt-get update -q >&2 && download; }
log "downloaded in $((SECONDS - t0)) s"

kroot=$cache/kernel-$series
rm -rf "$kroot"
mkdir -p "$kroot"
KDIR=$kroot/usr/src/linux-headers-$KV
VMLINUX=$kroot/boot/vmlinux-$KV
# image: ./boot and the guest's few modules only (skipping the module tree
# saves ~400 MB), then the ELF vmlinux.  In the background, beside the
# headers' unpacking and their test build: each is mostly one core's work.
image() {
	local deb=$1
	"$here/fetch-netmods.sh" --from-deb "$deb" "$cache" "$KV" "$kroot" ./boot
	# Boot an ELF vmlinux directly (PVH): decompressing vmlinuz in the guest
	# under TCG costs ~3 s.  The bzImage's setup header says where its
	# compressed payload is (payload_offset, payload_length, after the setup
	# sectors); its last 4 bytes are the decompressed size, not the stream's.
	# 6.1 compresses with xz, 6.12 with zstd.
	local vmlinuz=$kroot/boot/vmlinuz-$KV
	local setup_sects start len
	le() { od -An -t"u$2" -j "$1" -N "$2" "$vmlinuz" | tr -d ' '; }
	setup_sects=$(le $((0x1f1)) 1)
	((setup_sects)) || setup_sects=4
	start=$(((setup_sects + 1) * 512 + $(le $((0x248)) 4)))
	len=$(($(le $((0x24c)) 4) - 4))
	dd if="$vmlinuz" of="$VMLINUX.z" iflag=skip_bytes,count_bytes skip="$start" count="$len" \
		bs=1M status=none
	case $(head -c4 "$VMLINUX.z" | od -An -tx1 | tr -d ' \n') in
	fd377a58) xz -dc "$VMLINUX.z" >"$VMLINUX.tmp" ;;
	28b52ffd) zstd -q -dc "$VMLINUX.z" >"$VMLINUX.tmp" ;;
	*) log "unknown compression of $vmlinuz's payload"; return 1 ;;
	esac
	rm -f "$VMLINUX.z"
	[[ $(head -c4 "$VMLINUX.tmp" | od -An -tx1 | tr -d ' \n') == 7f454c46 ]] ||
		{ log "decompressed image is not ELF"; return 1; }
	mv "$VMLINUX.tmp" "$VMLINUX"
}
pid=''
for deb in "$dl"/*.deb; do
	case $(basename "$deb") in
	linux-image-*) image "$deb" & pid=$! ;;
	*) dpkg-deb -x "$deb" "$kroot" ;;
	esac
done

# The arch Makefile includes the -common one by an absolute /usr/src path;
# make it relative to the Makefile itself (Kbuild reads it with make -C).
# shellcheck disable=SC2016 # make's $(...), not the shell's
sed -i 's|^include /usr/src/|include $(dir $(lastword $(MAKEFILE_LIST)))../|' "$KDIR/Makefile"
# shellcheck disable=SC2016
grep -q '^include $(dir ' "$KDIR/Makefile" || { log "unexpected $KDIR/Makefile"; exit 1; }

# Prove the headers work before declaring the cache good.
hello=$(mktemp -d)
cat >"$hello/hello.c" <<'EOF'
#include <linux/module.h>
static int __init hello_init(void) { return 0; }
static void __exit hello_exit(void) { }
module_init(hello_init);
module_exit(hello_exit);
MODULE_DESCRIPTION("fetch-kernel.sh's test of the headers");
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := hello.o' >"$hello/Makefile"
if ! make -C "$KDIR" M="$hello" modules >"$hello/log" 2>&1 || [[ ! -f $hello/hello.ko ]]; then
	cat "$hello/log" >&2
	log "test module build failed"
	exit 1
fi
if [[ -z $pid ]] || ! wait "$pid"; then
	log "no image, or its unpacking failed"
	exit 1
fi
rm -rf "$dl"

printf 'KV=%s\nKDIR=%s\nVMLINUX=%s\n' "$KV" "${KDIR#"$cache"/}" "${VMLINUX#"$cache"/}" \
	>"$envfile.tmp"
mv "$envfile.tmp" "$envfile"
log "done in $((SECONDS - t0)) s: $envfile"
