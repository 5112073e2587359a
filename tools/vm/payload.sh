#!/bin/bash
# Assemble a guest payload directory: edge.ko, the static tools, the
# kselftest binaries and the guest-side script.
# Usage: payload.sh OUTDIR BUILD_DIR [EDGE_KO]
# EDGE_KO: another build of the module (the debug kernel's); default the
# tree's edge.ko.
set -euo pipefail
out=${1:?} build=${2:?}
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
ko=${3:-$top/edge.ko}
cp "$ko" "$build/guest/edge-demo" "$build/guest/edge-bench" "$out/"
cp -r "$build/guest/selftests" "$out/selftests"
cp "$top/tools/vm/guest.sh" "$out/run.sh"
