#!/bin/bash
# The self-test of tools/vm/tap-summary.sh, a stage of make check: crafted
# TAP inputs, each with the verdict and the last line the summary must
# give.  What must fail: a binary that died after 6 of its 7 tests, a
# guest suite that was killed, is missing or never exited, a file left by
# an earlier run (older than the run-start stamp), a missing file, a
# skip that is not on the allow-list or names no test, a suite that
# exits 4 without an allowed whole-program skip, a stream with no plan,
# "Bail out!", a stage that exited non-zero.  What must pass: complete
# streams, allowed skips.  Prints TAP, one result per case.
#
# Usage: tap-summary-test.sh [TAP_SUMMARY]  (default: the one beside it)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sum=${1:-$here/tap-summary.sh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/allow" <<'EOF'
# test list
edge_fault_test no fault injection in this kernel
fx.needs_* the debug kernel has it
EOF
# The run began here; every file below is newer except stale.tap.
touch -d '-1 hour' "$tmp/stale.tap"
touch "$tmp/stamp"
sleep 0.01

# A kselftest-harness program's TAP: NAME PLAN then result lines.
harness() {
	local plan=$1
	shift
	echo "TAP version 13"
	echo "1..$plan"
	echo "# Starting $plan tests from 1 test cases."
	printf '%s\n' "$@"
}

harness 2 '#  RUN           fx.a ...' '#            OK  fx.a' 'ok 1 fx.a' \
	'#  RUN           fx.b ...' 'ok 2 fx.b' >"$tmp/pass.tap"
harness 7 'ok 1 t1' 'ok 2 t2' 'ok 3 t3' 'ok 4 t4' 'ok 5 t5' 'ok 6 t6' \
	>"$tmp/dead.tap"
cp "$tmp/pass.tap" "$tmp/stale.tap"
touch -d '-1 hour' "$tmp/stale.tap"
harness 2 'ok 1 fx.a' '#  RUN           fx.odd ...' \
	'#      SKIP      no reason anyone listed' 'ok 2 # SKIP no reason anyone listed' \
	>"$tmp/skip-unlisted.tap"
harness 2 'ok 1 fx.a' '#  RUN           fx.needs_uffd ...' \
	'ok 2 # SKIP the debug kernel has it (CONFIG_X)' >"$tmp/skip-listed.tap"
harness 2 'ok 1 fx.a' 'ok 2 # SKIP the debug kernel has it' \
	>"$tmp/skip-nameless.tap"
harness 2 'ok 1 fx.a' 'ok 2 fx.needs_x # SKIP something else' \
	>"$tmp/skip-wrong-reason.tap"
{
	echo "edge-suite: edge_a_test"
	harness 1 'ok 1 a.one'
	echo "edge-suite-exit: edge_a_test 0"
	echo "edge-suite: edge_fault_test"
	echo "TAP version 13"
	echo "1..0 # SKIP no fault injection in this kernel (the debug kernel has it)"
	echo "edge-suite-exit: edge_fault_test 4"
	echo "guest_fuzz_calls=12"
} >"$tmp/guest-pass.tap"
{
	echo "edge-suite: edge_a_test"
	harness 3 'ok 1 a.one' 'ok 2 a.two'
	echo "edge-suite-exit: edge_a_test 139"
} >"$tmp/guest-killed.tap"
{
	echo "edge-suite: edge_a_test"
	harness 1 'ok 1 a.one'
	echo "edge-suite-exit: edge_a_test 0"
	echo "edge-suite: edge_b_test"
	echo "edge-suite-exit: edge_b_test missing"
} >"$tmp/guest-missing.tap"
{
	echo "edge-suite: edge_a_test"
	harness 2 'ok 1 a.one'
} >"$tmp/guest-noexit.tap"
{
	echo "edge-suite: edge_b_test"
	echo "TAP version 13"
	echo "1..0 # SKIP nobody listed this"
	echo "edge-suite-exit: edge_b_test 4"
} >"$tmp/guest-skip4.tap"
{
	echo "edge-suite: edge_a_test"
	harness 1 'ok 1 a.one'
	echo "edge-suite-exit: edge_a_test 4"
} >"$tmp/guest-rc4.tap"
{
	echo "edge-suite: edge_a_test"
	harness 2 'ok 1 a.one' 'not ok 2 a.two'
	echo "edge-suite-exit: edge_a_test 1"
} >"$tmp/guest-fail.tap"
printf 'TAP version 13\nok 1 x\nok 2 y\n' >"$tmp/noplan.tap"
harness 3 'ok 1 x' 'Bail out! out of memory' >"$tmp/bail.tap"
printf 'TAP version 13\nok 1 x\nok 2 y\n1..2\n' >"$tmp/plan-last.tap"
harness 1 'ok 1 x' 'ok 2 y' >"$tmp/extra.tap"
harness 1 'ok 1 x' '    ok 1 sub' '    not ok 2 sub' >"$tmp/indented.tap"
: >"$tmp/empty.tap"

n=0
bad=0
# check NAME WANT_RC WANT_LAST ARGS...: run the summary, compare.
check() {
	local name=$1 want_rc=$2 want=$3 out rc last
	shift 3
	n=$((n + 1))
	out=$(cd "$tmp" && "$sum" --allow "$tmp/allow" "$@" 2>&1)
	rc=$?
	last=$(echo "$out" | tail -n 1)
	if [[ $rc == "$want_rc" && $last == "$want" ]]; then
		echo "ok $n tap_summary.$name"
	else
		echo "not ok $n tap_summary.$name"
		echo "# want exit $want_rc, '$want'; got exit $rc:"
		echo "$out" | sed 's/^/#   /'
		bad=1
	fi
}

echo "TAP version 13"
echo "1..23"
check pass 0 "2 passed, 0 failed" --since stamp pass.tap
check dead_binary 1 "6 passed, 1 failed" dead.tap
check stale_file 1 "2 passed, 1 failed" --since stamp pass.tap stale.tap
check missing_file 1 "2 passed, 1 failed" pass.tap nosuch.tap
check empty_file 1 "2 passed, 1 failed" pass.tap empty.tap
check skip_unlisted 1 "1 passed, 1 failed" skip-unlisted.tap
check skip_listed 0 "1 passed, 0 failed, 1 skipped" skip-listed.tap
check skip_nameless 1 "1 passed, 1 failed" skip-nameless.tap
check skip_wrong_reason 1 "1 passed, 1 failed" skip-wrong-reason.tap
check guest_pass 0 "1 passed, 0 failed, 1 skipped" guest-pass.tap
check guest_killed 1 "2 passed, 2 failed" guest-killed.tap
check guest_missing 1 "1 passed, 1 failed" guest-missing.tap
check guest_no_exit 1 "1 passed, 2 failed" guest-noexit.tap
check guest_skip_unlisted 1 "0 passed, 3 failed" guest-skip4.tap
check guest_exit4_no_skip 1 "1 passed, 1 failed" guest-rc4.tap
check guest_failed_test 1 "1 passed, 1 failed" guest-fail.tap
check no_plan 1 "2 passed, 1 failed" noplan.tap
check bail_out 1 "1 passed, 1 failed" bail.tap
check plan_at_end 0 "2 passed, 0 failed" plan-last.tap
check more_than_planned 1 "2 passed, 1 failed" extra.tap
check subtests_not_counted 0 "1 passed, 0 failed" indented.tap
check failed_stage 1 "2 passed, 1 failed" --failed-stage host-tests pass.tap
check all_at_once 1 "18 passed, 11 failed, 2 skipped" --since stamp \
	--failed-stage lint pass.tap dead.tap stale.tap skip-unlisted.tap \
	skip-listed.tap guest-pass.tap guest-killed.tap guest-missing.tap \
	guest-noexit.tap noplan.tap bail.tap
exit $bad
