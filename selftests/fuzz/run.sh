#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run each fuzz target for a bounded time and print TAP:
#
#   ok N fuzz.<target> # runs=R
#   not ok N fuzz.<target> # <why>      (crash, sanitizer report, leak,
#                                       time-out, no "Done R runs" line)
#   fuzz_calls=<total runs>
#
# Usage: run.sh BUILD_DIR SECONDS TARGET...
# The corpus each run grows is kept in BUILD_DIR/corpus/<target>/ (the
# committed seeds in corpus/<target>/ are read, never written), the log in
# BUILD_DIR/<target>.log, a crashing input in BUILD_DIR/artifacts/.
# FUZZ_JOBS (default: the number of CPUs) targets run at once, so the
# defaults (3 targets x 10 s) fit in about 25 s on 2 CPUs.
set -u

build=$1
secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)

# Sanitizer settings; the caller's own come last, so they win.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# One target: its log, and its exit code in <target>.rc.
run_one() {
	local t=$1 bin=$build/$1 log=$build/$1.log max_len=640
	# A page-sized struct and a script; else up to ~256 operations.
	[ "$t" = fuzz_register ] && max_len=4352
	mkdir -p "$build/corpus/$t" "$build/artifacts"
	# -timeout: one input running 20 s is a hang, reported as a crash.
	"$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=20 \
		-rss_limit_mb=4096 -max_len=$max_len \
		-artifact_prefix="$build/artifacts/$t-" \
		"$build/corpus/$t" "$here/corpus/$t" >"$log" 2>&1
	echo $? >"$build/$t.rc"
}

# FUZZ_JOBS targets at once (default: one per CPU); each is one process.
jobs_max=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs_max" -ge 1 ] 2>/dev/null || jobs_max=1
for t in "$@"; do
	rm -f "$build/$t.rc"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
	done
	run_one "$t" &
done
wait

echo "TAP version 13"
echo "1..$#"
n=0
fail=0
total=0
for t in "$@"; do
	n=$((n + 1))
	log=$build/$t.log
	rc=$(cat "$build/$t.rc" 2>/dev/null || echo 255)
	runs=$(sed -n 's/^Done \([0-9][0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
	cov=$(sed -n 's/.*DONE *cov: \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
		echo "ok $n fuzz.$t # runs=$runs"
		echo "# fuzz.$t cov=${cov:-?}"
		total=$((total + runs))
	else
		fail=$((fail + 1))
		why="exit $rc"
		grep -q '^==[0-9]*==ERROR' "$log" && why="sanitizer report"
		grep -q 'FUZZ ASSERT' "$log" && why="assertion"
		grep -q 'ERROR: libFuzzer: timeout' "$log" && why="time-out"
		echo "not ok $n fuzz.$t # $why, see $log"
		# The reason and the reproducer, as TAP diagnostics.
		grep -E 'FUZZ ASSERT|^==[0-9]+==ERROR|SUMMARY|runtime error|Test unit written|Assertion' \
			"$log" | head -n 8 | sed 's/^/# /'
		[ -n "$runs" ] && total=$((total + runs))
	fi
done
echo "fuzz_calls=$total"
[ $fail -eq 0 ]
