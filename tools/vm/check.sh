#!/bin/bash
# `make check`: host unit tests of emul/, then the kselftests in the guest.
# Ends with one line "N passed, N failed"; exits non-zero on any failed
# test, a failed or silent suite, a guest panic, oops, WARN or time-out.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build
vm=$top/tools/vm
# shellcheck source=/dev/null
. "$top/.cache/kernel.env"
mkdir -p "$build"
status=0
taps=()

echo "== lint: checkpatch --strict, sparse"
if ! "$top/tools/lint.sh" >"$build/lint.tap" 2>&1; then
	status=1
fi
cat "$build/lint.tap"
taps+=("$build/lint.tap")

echo "== host: emul/ unit tests (ASan+UBSan)"
if ! make -s -C "$top" host-tests >"$build/host.tap" 2>"$build/host.err"; then
	status=1
fi
cat "$build/host.tap"
taps+=("$build/host.tap")

echo "== host: libFuzzer targets (validators, ring consumer, model knobs)"
if ! make -s -C "$top/selftests/fuzz" O="$build/host/fuzz" run \
	>"$build/fuzz.tap" 2>"$build/fuzz.err"; then
	status=1
fi
cat "$build/fuzz.tap"
taps+=("$build/fuzz.tap")

echo "== guest: kselftests on Debian $KV"
"$vm/payload.sh" "$build/payload-check" "$build"
if ! "$vm/run-guest.sh" --kernel "$VMLINUX" --payload "$build/payload-check" \
	--mode check --timeout "${GUEST_TIMEOUT:-900}" --out "$build/check"; then
	status=1
	guest_failed=1
fi
cat "$build/check.tap"
taps+=("$build/check.tap")

summary=$("$vm/tap-summary.sh" "${taps[@]}")
sum_status=$?
# The guest itself failing (panic, WARN, time-out) counts as a failed test.
if [[ ${guest_failed:-0} == 1 ]]; then
	echo "not ok - guest run (see build/check.console.log)"
	summary=$(echo "$summary" | awk '
		/^[0-9]+ passed, [0-9]+ failed/ { $3 = $3 + 1; print; next } { print }')
fi
echo "$summary"
[[ $status == 0 && $sum_status == 0 ]]
