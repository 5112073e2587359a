#!/bin/bash
# Fetch Debian's current stock kernel (image + headers + kbuild) into a cache
# folder without installing it, and extract a bootable ELF vmlinux.
#
# Usage: fetch-kernel.sh CACHE_DIR
# Writes CACHE_DIR/kernel.env with KV=, KDIR=, VMLINUX= (absolute paths).
# Instant when kernel.env already points at existing files; delete it to refetch.
set -euo pipefail

if (($# != 1)); then
	echo "usage: $0 CACHE_DIR" >&2
	exit 2
fi
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
envfile=$cache/kernel.env

stamp_ok() {
	[[ -s $envfile ]] || return 1
	local KV='' KDIR='' VMLINUX=''
	# shellcheck disable=SC1090
	. "$envfile"
	[[ -n $KV && -f $KDIR/Makefile && -f $VMLINUX ]]
}
stamp_ok && exit 0

# Serialise concurrent callers sharing one cache; re-check once we hold it.
exec 9>"$cache/.kernel.lock"
flock 9
stamp_ok && exit 0

log() { echo "fetch-kernel: $*" >&2; }
t0=$SECONDS

# The ABI (6.1.0-NN) moves with security updates: ask apt, never hard-code.
abi_from_apt() {
	local out
	out=$(apt-cache depends linux-image-amd64 2>/dev/null) || return 0
	sed -n 's/^ *Depends: linux-image-\(6\.[0-9.]*-[0-9]*-amd64\)$/\1/p' <<<"$out" | sed -n 1p
}
KV=$(abi_from_apt)
if [[ -z $KV ]]; then
	# Fresh machine: no package lists yet.
	apt-get update -q >&2
	KV=$(abi_from_apt)
fi
[[ -n $KV ]] || { log "cannot find linux-image-*-amd64 via apt-cache"; exit 1; }
abi=${KV%-amd64}                     # 6.1.0-NN
series=$(echo "$KV" | cut -d. -f1,2) # 6.1

candidate() { apt-cache policy "$1" | awk '/Candidate:/ {print $2}'; }
ver=$(candidate "linux-headers-$KV")
[[ -n $ver && $ver != "(none)" ]] || { log "no candidate for linux-headers-$KV"; exit 1; }
img_ver=$(candidate "linux-image-$KV")
log "kernel $KV (headers $ver, image $img_ver)"

dl='' hello=''
trap 'rm -rf "$dl" "$hello"' EXIT
dl=$(mktemp -d "$cache/.dl.XXXXXX")
pkgs=(
	"linux-image-$KV=$img_ver"
	"linux-headers-$KV=$ver"
	"linux-headers-$abi-common=$ver"
	"linux-kbuild-$series=$ver" # must match the headers exactly
)
download() { (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "${pkgs[@]}") >&2; }
# Stale lists point at files the mirror has dropped: refresh once and retry.
download || { apt-get update -q >&2 && download; }

kroot=$cache/kernel
rm -rf "$kroot"
mkdir -p "$kroot"
for deb in "$dl"/*.deb; do
	case $(basename "$deb") in
	linux-image-*)
		# Only ./boot: skipping the modules saves ~400 MB.
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$kroot" ./boot
		;;
	*) dpkg-deb -x "$deb" "$kroot" ;;
	esac
done
rm -rf "$dl"

KDIR=$kroot/usr/src/linux-headers-$KV
# The arch Makefile includes the -common one by an absolute /usr/src path.
sed -i "s|^include /usr/src/|include $kroot/usr/src/|" "$KDIR/Makefile"
grep -q "^include $kroot/" "$KDIR/Makefile" || { log "unexpected $KDIR/Makefile"; exit 1; }

# Boot an ELF vmlinux directly (PVH): decompressing vmlinuz in the guest
# under TCG costs ~3 s. --single-stream ignores the data after the xz stream.
vmlinuz=$kroot/boot/vmlinuz-$KV
VMLINUX=$kroot/boot/vmlinux-$KV
# (No pipes into xz here: it stops reading early and pipefail sees SIGPIPE.)
offs=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$vmlinuz" | cut -d: -f1 || true)
off=${offs%%$'\n'*}
[[ -n $off ]] || { log "no xz stream in $vmlinuz"; exit 1; }
tail -c +"$((off + 1))" "$vmlinuz" >"$VMLINUX.xz"
xz -dc --single-stream "$VMLINUX.xz" >"$VMLINUX.tmp"
rm -f "$VMLINUX.xz"
[[ $(head -c4 "$VMLINUX.tmp" | od -An -tx1 | tr -d ' \n') == 7f454c46 ]] ||
	{ log "decompressed image is not ELF"; exit 1; }
mv "$VMLINUX.tmp" "$VMLINUX"

# Prove the headers work before declaring the cache good.
hello=$(mktemp -d)
cat >"$hello/hello.c" <<'EOF'
#include <linux/module.h>
static int __init hello_init(void) { return 0; }
static void __exit hello_exit(void) { }
module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := hello.o' >"$hello/Makefile"
if ! make -C "$KDIR" M="$hello" modules >"$hello/log" 2>&1 || [[ ! -f $hello/hello.ko ]]; then
	cat "$hello/log" >&2
	log "test module build failed"
	exit 1
fi

printf 'KV=%s\nKDIR=%s\nVMLINUX=%s\n' "$KV" "$KDIR" "$VMLINUX" >"$envfile.tmp"
mv "$envfile.tmp" "$envfile"
log "done in $((SECONDS - t0)) s: $envfile"
