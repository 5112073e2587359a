#!/bin/bash
# Assemble a guest payload directory: edge.ko, edge_nicsim.ko, the static
# tools, the kselftest binaries and the guest-side scripts.
# Usage: payload.sh OUTDIR BUILD_DIR [KO_DIR]
# KO_DIR: another build of the modules (the debug kernel's), holding
# edge.ko and edge_nicsim.ko; default the tree's.
set -euo pipefail
out=${1:?} build=${2:?}
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
kodir=${3:-$top}
cp "$kodir/edge.ko" "$kodir/edge_nicsim.ko" "$build/guest/edge-demo" \
	"$build/guest/edge-bench" "$build/guest/edgectl" "$out/"
cp -r "$build/guest/selftests" "$out/selftests"
cp "$top/tools/vm/guest.sh" "$out/run.sh"
cp "$top/tools/vm/kapi-bench.sh" "$out/kapi-bench.sh"
# The debug kernel's build also has an edge.ko without tracepoints, for
# edge_fault_test's fail-nth insmod (tools/vm/debug-kernel/module.sh).
if [[ -f $kodir/edge-notp.ko ]]; then
	cp "$kodir/edge-notp.ko" "$out/"
fi
