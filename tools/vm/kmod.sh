#!/bin/bash
# Build edge.ko, edge_nicsim.ko, edge_netrx.ko and edge_router.ko against
# one stock kernel (tools/vm/fetch-kernel.sh) without touching the tree's
# own build: the Kbuild sources are mirrored into OUTDIR/src (mtimes
# kept, so an unchanged file is not rebuilt) and built there with M=.
# make check builds one per kernel, side by side (build/kmod-6.1, build/kmod-6.12).
# Any compiler or modpost warning fails the build: make shows none.
#
# Usage: kmod.sh SERIES OUTDIR   (SERIES 6.1 or 6.12)
# KMOD_SPARSE=1: sparse on each file as it is compiled (make C=1), its
# warnings failures like the compiler's (only on a fresh OUTDIR: tools/lint.sh,
# make check's stock stage); OUTDIR/.sparse-clean when they were none.
# Result: OUTDIR/src/edge.ko, edge_nicsim.ko, edge_netrx.ko; OUTDIR/build.log;
# OUTDIR/oot/edge_oot_sample.ko (samples/edge_oot, built as its author would).
set -euo pipefail
series=${1:?usage: kmod.sh SERIES OUTDIR} out=${2:?usage: kmod.sh SERIES OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CACHE:-$top/.cache}
"$top/tools/vm/fetch-kernel.sh" "$cache" "$series"
# shellcheck source=tools/vm/kernel-env.sh
. "$top/tools/vm/kernel-env.sh"
kernel_env "$cache" "$series"
mkdir -p "$out"
out=$(cd "$out" && pwd) # Kbuild wants an absolute M=
src=$out/src
mkdir -p "$src/drv/nicsim" "$src/drv/netrx" "$src/drv/router" "$src/drv/test" \
	"$src/uapi/linux"
cp -p "$top/Kbuild" "$src/"
cp -p "$top"/drv/*.[ch] "$src/drv/"
cp -p "$top"/drv/nicsim/*.[ch] "$src/drv/nicsim/"
cp -p "$top"/drv/netrx/*.[ch] "$src/drv/netrx/"
cp -p "$top"/drv/router/*.[ch] "$src/drv/router/"
cp -p "$top"/drv/test/*.[ch] "$src/drv/test/"
(cd "$top" && cp -p --parents emul/*.[ch] emul/*/*.[ch] "$src/")
cp -p "$top"/uapi/linux/*.h "$src/uapi/linux/"
rc=0
# .sparse-clean: a C=1 build of a fresh folder (every file compiled, so
# every file checked) in which nothing warned.  tools/lint.sh trusts it
# while no source is newer than it, so make check's stock stage, which
# builds the fresh folder first, spares lint a second sparse pass.  A
# later build without sparse leaves it: a file it compiled is newer.
[[ -z ${KMOD_SPARSE:-} ]] || rm -f "$out/.sparse-clean"
make -s -j"$(nproc)" -C "$KDIR" M="$src" ${KMOD_SPARSE:+C=1} modules >"$out/build.log" 2>&1 || rc=$?
# 6.1's modpost says it skips BTF (its headers have no vmlinux): not ours.
warn=$(grep -v -e 'Skipping BTF' "$out/build.log" || true)
if [[ -n $warn ]]; then
	echo "$warn" >&2
	rc=1
fi
# edge_nfhook.ko: the stock kernels have netfilter (Kbuild).
for ko in edge.ko edge_nicsim.ko edge_netrx.ko edge_router.ko edge_nfhook.ko; do
	[[ -f $src/$ko && $(modinfo -F vermagic "$src/$ko") == "$KV "* ]] || rc=1
done
if ((rc)); then
	echo "kmod.sh: the modules did not build cleanly against $KV ($out/build.log)" >&2
	exit 1
fi
[[ -z ${KMOD_SPARSE:-} ]] || touch "$out/.sparse-clean"
# The out-of-tree sample for this kernel, built as its author would
# (samples/edge_oot/Makefile, Documentation/driver-api.rst): KDIR, and
# EDGE the tree just built, whose Module.symvers resolves edge's symbols.
mkdir -p "$out/oot"
cp -p "$top/samples/edge_oot/edge_oot_sample.c" "$top/samples/edge_oot/Makefile" "$out/oot/"
if ! make -s -C "$out/oot" KDIR="$KDIR" EDGE="$src" >"$out/oot/build.log" 2>&1 ||
	grep -v -e 'Skipping BTF' "$out/oot/build.log" >&2 ||
	[[ ! -f $out/oot/edge_oot_sample.ko ]]; then
	echo "kmod.sh: the out-of-tree sample did not build cleanly against $KV ($out/oot/build.log)" >&2
	exit 1
fi
