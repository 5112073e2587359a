#!/bin/bash
# Build edge.ko against the debug kernel (build.sh) without touching the
# stock build in the tree: the Kbuild sources are mirrored into OUTDIR/src
# (mtimes kept, so an unchanged file is not rebuilt) and built there with
# M=.  Result: OUTDIR/src/edge.ko and OUTDIR/src/edge_nicsim.ko.
# With the tracepoints, as on the stock kernel: edge_fault_test's insmod
# loop starts after the loader's trace-event registration (one build,
# make check's time budget).
#
# Usage: module.sh SRC_TOP OUTDIR   (after build.sh; reads its env file)
# SRC_TOP: a tree with Kbuild, drv/, emul/, uapi/ (this one, or a scratch
# copy with a planted bug, tools/vm/plant-bug.sh).
set -euo pipefail
top=${1:?usage: module.sh SRC_TOP OUTDIR} out=${2:?usage: module.sh SRC_TOP OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)   # Kbuild wants an absolute M=
here=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=/dev/null
. "${CACHE:-$here/.cache}/debug-kernel.env"
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
make -s -C "$DEBUG_KDIR" M="$src" modules >"$out/build.log" 2>&1 || rc=$?
grep -v 'Skipping BTF' "$out/build.log" >&2 || true
[[ $rc == 0 && -f $src/edge.ko && -f $src/edge_nicsim.ko && -f $src/edge_netrx.ko &&
	-f $src/edge_router.ko ]] || {
	echo "debug-kernel: edge.ko, edge_nicsim.ko, edge_netrx.ko or edge_router.ko did not build in $src" >&2
	exit 1
}
