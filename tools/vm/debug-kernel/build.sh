#!/bin/bash
# Build the debug kernel for the test guest: Debian's linux-source-6.1,
# `make tinyconfig` plus the fragment `config` beside this script (KASAN,
# lockdep, kmemleak, fault injection, ...). Results:
#   CACHE_DIR/debug-kernel/src        the built tree; build external modules
#                                     with make -C .../src M=DIR modules
#   CACHE_DIR/debug-kernel.env        DEBUG_KDIR, DEBUG_BZIMAGE, DEBUG_VMLINUX,
#                                     DEBUG_KV (shell syntax, also make syntax)
# Boot DEBUG_BZIMAGE (not vmlinux: KASAN faults early when booted as PVH).
#
# Usage: build.sh CACHE_DIR
# Instant when the fragment is unchanged since the last build; a changed
# fragment rebuilds incrementally. Delete CACHE_DIR/debug-kernel to start over.
# Needs: flex bison bc libelf-dev (objtool), gcc make xz-utils.
set -euo pipefail

if (($# != 1)); then
	echo "usage: $0 CACHE_DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd -P)
frag=$here/config
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
dk=$cache/debug-kernel
src=$dk/src
envf=$cache/debug-kernel.env
built=$dk/.built          # fragment hash of the last good build
unpacked=$dk/.unpacked    # package and version of the unpacked source
pkg=linux-source-6.1

log() { echo "debug-kernel: $*" >&2; }
koff=$here/kasan-off
hash=$(cat "$frag" "$koff" | sha256sum | cut -c1-16)

# vmlinux.o is checked too: `make -C KDIR M=DIR clean` on a DIR that contains
# this tree deletes every *.o and .*.cmd in it.
built_ok() {
	[[ -f $built && $(<"$built") == "$hash" && -f $envf &&
		-f $src/arch/x86/boot/bzImage && -f $src/vmlinux.o &&
		$src/Module.symvers -nt $src/vmlinux.symvers && -f $src/scripts/mod/modpost ]]
}
built_ok && exit 0

mkdir -p "$dk"
exec 9>"$dk/.lock"
flock 9
built_ok && exit 0
t0=$SECONDS

for tool in flex bison bc gcc make xz; do
	command -v "$tool" >/dev/null || { log "missing $tool (apt-get install flex bison bc gcc make xz-utils)"; exit 1; }
done
[[ -f /usr/include/gelf.h ]] || { log "missing libelf-dev (objtool needs it)"; exit 1; }

# --- source: unpacked once ---------------------------------------------------
if [[ ! -f $unpacked || ! -f $src/Makefile ]]; then
	rm -rf "$src" "$dk"/.dl.* "$dk"/.src.*
	dl=$(mktemp -d "$dk/.dl.XXXXXX")
	work=$(mktemp -d "$dk/.src.XXXXXX")
	trap 'rm -rf "$dl" "$work"' EXIT
	download() { (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "$pkg") >&2; }
	download || { apt-get update -q >&2 && download; }
	deb=$(echo "$dl"/"$pkg"_*.deb)
	[[ -f $deb ]] || { log "download of $pkg failed"; exit 1; }
	ver=$(dpkg-deb -f "$deb" Version)
	log "unpacking $pkg $ver"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$pkg.tar.xz" |
		xz -dc -T2 |
		tar -x -C "$work" --strip-components=1
	[[ -f $work/Makefile ]] || { log "unexpected tarball layout"; exit 1; }
	mv "$work" "$src"
	rm -rf "$dl"
	trap - EXIT
	echo "$pkg $ver" >"$unpacked"
fi

# --- config --------------------------------------------------------------------
cd "$src"
rm -f "$built"
# KASAN off in the folders kasan-off lists (why: there), and back on in
# any an earlier list named: each folder's Makefile carries the line
# under a mark (a line of its own: make keeps the blank before a trailing
# comment in a value, and "n " would not read as n), so the step is
# idempotent and undoes itself.
mark='# edge: tools/vm/debug-kernel/kasan-off'
{ grep -rlF --include=Makefile -- "$mark" arch drivers fs kernel lib || true; } |
	xargs -r sed -i "\|^$mark\$|{N;d}"
while read -r dir _; do
	[[ -z $dir || $dir == \#* ]] && continue
	[[ -f $dir/Makefile ]] || { log "kasan-off: no $dir/Makefile"; exit 1; }
	printf '%s\nKASAN_SANITIZE := n\n' "$mark" >>"$dir/Makefile"
done <"$koff"
# Nor FORTIFY_SOURCE's build-time self-test of the compiler (22 compiles
# of lib/test_fortify/, ~30 CPU s); FORTIFY_SOURCE itself stays on.
printf '%s\nalways-y :=\n' "$mark" >>lib/test_fortify/Makefile
blog=$dk/build.log
: >"$blog"
run() {
	if ! "$@" >>"$blog" 2>&1; then
		log "failed: $* (last lines of $blog:)"
		tail -n 30 "$blog" >&2
		exit 1
	fi
}
run make tinyconfig
run scripts/kconfig/merge_config.sh -m .config "$frag"
run make olddefconfig

# Every option the fragment names must have stuck: Kconfig silently drops
# one whose dependencies are missing.
bad=()
while IFS= read -r line; do
	if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
		grep -qxF -- "$line" .config || bad+=("${BASH_REMATCH[1]} (wanted ${BASH_REMATCH[2]}, got $(grep -m1 -E "^(# )?${BASH_REMATCH[1]}[= ]" .config || echo unset))")
	elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
		! grep -qE "^${BASH_REMATCH[1]}=" .config || bad+=("${BASH_REMATCH[1]} (wanted unset, got $(grep -m1 -E "^${BASH_REMATCH[1]}=" .config))")
	fi
done <"$frag"
if ((${#bad[@]})); then
	log "options in $frag that did not stick (missing dependency?):"
	printf '  %s\n' "${bad[@]}" >&2
	exit 1
fi

# --- build ---------------------------------------------------------------------
jobs=$(nproc)
log "building bzImage with -j$jobs (log: $blog)"
# `modules` (there are none in the tree) does modules_prepare and writes
# Module.symvers from vmlinux.symvers: modpost needs it for external modules,
# and a stale one makes them fail with e.g. "__fentry__ undefined".
# A rebuild that relinks vmlinux but finds nothing new for `modules`
# would leave Module.symvers older than vmlinux.symvers: remove it, so
# that modpost writes it again.
rm -f Module.symvers
run make -j"$jobs" bzImage modules
[[ Module.symvers -nt vmlinux.symvers ]] || { log "Module.symvers is older than vmlinux.symvers"; exit 1; }

kv=$(make -s kernelrelease)
cat >"$envf" <<EOF
DEBUG_KV=$kv
DEBUG_KDIR=$src
DEBUG_BZIMAGE=$src/arch/x86/boot/bzImage
DEBUG_VMLINUX=$src/vmlinux
EOF
echo "$hash" >"$built"
log "$kv built in $((SECONDS - t0)) s"
