#!/bin/bash
# Show that the debug-kernel part of `make check` catches a bug: apply
# tools/vm/planted/NAME.patch to a scratch copy of the module (never to
# the tree), build it for the debug kernel and run tools/vm/check-debug.sh
# with it.  That run must fail with the debug kernel's report.
#
# Usage: plant-bug.sh NAME [--suites 'GLOBS']   (NAME: oob-write, leak,
#        sleep-in-atomic; after `make all` and the debug kernel's build)
# Output in build/planted/NAME/; prints the reports found and exits 0 when
# the run failed with at least one, 1 when the bug went unnoticed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tools/vm
name=${1:?usage: plant-bug.sh NAME [--suites GLOBS]}
shift
patch=$vm/planted/$name.patch
[[ -f $patch ]] || { echo "plant-bug: no $patch" >&2; exit 2; }
out=$top/build/planted/$name
rm -rf "$out"
mkdir -p "$out/tree"
cp -a "$top/Kbuild" "$top/drv" "$top/emul" "$top/uapi" "$out/tree/"
patch -s -d "$out/tree" -p1 <"$patch" || exit 2
"$vm/debug-kernel/build.sh" "${CACHE:-$top/.cache}" || exit 2
"$vm/debug-kernel/module.sh" "$out/tree" "$out/module" || exit 2
"$vm/check-debug.sh" --ko "$out/module/src" "$@" "$out" >"$out/check.out"
rc=$?
# The reports, one line per distinct report with its count.
grep '^# report: ' "$out/check.out" | sed -E 's/0x[0-9a-f]+/0x.../g' |
	sort | uniq -c | sort -rn | head -n 10
grep -E '^debug_kernel_reports=|^not ok' "$out/check.out"
if ((rc == 0)); then
	echo "plant-bug: $name went unnoticed" >&2
	exit 1
fi
grep -q '^# report: ' "$out/check.out" || {
	echo "plant-bug: $name failed the run, but with no kernel report" >&2
	exit 1
}
echo "plant-bug: $name caught"
