#!/bin/bash
# make shell's non-interactive form, in one short boot: the command's
# output comes back (edgectl sees edge0; the three modules are loaded, the
# tools on PATH), and so does its exit status (3 here: make fails, the
# guest's status is 3).  TAP on stdout.
# Usage: shell-test.sh [MAKE ARGS...]   (e.g. CACHE=/path/.cache)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
t0=$EPOCHREALTIME
make -s -C "$top" "$@" shell \
	CMD='edgectl dev show && cut -d" " -f1 /proc/modules && exit 3' >"$out" 2>&1
rc=$?
secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
status=$(sed -n 's/^.*EDGE-GUEST-EXIT=\([0-9]*\).*$/\1/p' "$top/build/shell.console.log" | tail -n1)
n=0 fail=0
check() {
	n=$((n + 1))
	if (($2)); then echo "ok $n shell.$1"; else echo "not ok $n shell.$1"; fail=1; fi
}
has() { grep -q -x -e "$1" "$out" && echo 1 || echo 0; }
echo "TAP version 13"
echo "1..4"
check cmd_output "$(grep -q 'edge0' "$out" && echo 1 || echo 0)"
check modules_loaded "$(has edge) && $(has edge_nicsim) && $(has edge_netrx)"
check make_fails "$rc != 0"
check status_passed "${status:-0} == 3"
((fail)) && sed 's/^/# /' "$out"
echo "shell_cmd_seconds=$secs"
exit $fail
