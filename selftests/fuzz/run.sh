#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run each fuzz target for a fixed number of executions (make check) or
# for a time (long campaigns), and print TAP:
#
#   ok N fuzz.<target> # runs=R
#   not ok N fuzz.<target> # <why>      (crash, sanitizer report, leak,
#                                       time-out, no "Done R runs" line,
#                                       fewer runs than asked), then
#                                       "# replay:" the input it wrote,
#                                       "# rerun:" the run, by its seed
#   ok N fuzz.replay.<file>             (each reproducer in crashes/,
#   not ok N fuzz.replay.<file> # <why>  named <target>-<what>, run once
#                                       by its target: a regression corpus)
#   fuzz_calls=<total runs>  (FUZZ_CALLS_NAME: another name, sim_fuzz_calls)
#
# Usage: run.sh BUILD_DIR -runs TARGET=RUNS...
#        run.sh BUILD_DIR -seconds TARGET=SECONDS...
# -runs passes libFuzzer -runs=RUNS: the same work on a loaded machine as
# on an idle one, only slower (a run that starts from more corpus than
# RUNS executes all of it, so R may exceed RUNS).  -seconds passes
# -max_total_time=SECONDS: as much as the time allows.
# The corpus a run by time grows is kept in BUILD_DIR/corpus/<target>/; a
# run by runs starts from an empty BUILD_DIR/corpus-runs/<target>/ (the
# committed seeds in corpus/<target>/ are read by both, never written).
# The log is BUILD_DIR/<target>.log, a crashing input goes to
# BUILD_DIR/artifacts/; libFuzzer's random seed is printed, to replay a
# run (-seed=S -runs=R with the same seeds).
# FUZZ_JOBS (default: the number of CPUs) targets run at once.
set -u

build=$1
mode=$2
shift 2
case $mode in
-runs) flag=-runs ;;
-seconds) flag=-max_total_time ;;
*)
	echo "usage: run.sh BUILD_DIR -runs|-seconds TARGET=N..." >&2
	exit 2
	;;
esac
# By runs, each run starts again from the committed seeds (a corpus kept
# from run to run would be replayed whole first, so the work would grow
# with it); by time, the corpus grows from campaign to campaign.
corpus=$build/corpus
if [ "$mode" = -runs ]; then
	corpus=$build/corpus-runs
	rm -rf "$corpus"
fi
targets=()
declare -A limit=()
for a in "$@"; do
	t=${a%%=*}
	n=${a#*=}
	if [[ $a != *=* || ! $n =~ ^[0-9]+$ ]]; then
		echo "run.sh: '$a' is not TARGET=N" >&2
		exit 2
	fi
	targets+=("$t")
	limit[$t]=$n
done
here=$(cd "$(dirname "$0")" && pwd)

# Sanitizer settings; the caller's own come last, so they win.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# A target's -max_len: a page-sized struct and a script for
# fuzz_register, whole files for edge-sim's readers (as the repository's
# seeds are), else up to ~256 operations.
max_len_of() {
	case $1 in
	fuzz_register) echo 4352 ;;
	fuzz_sim_*) echo 8192 ;;
	*) echo 640 ;;
	esac
}

# One target: its log, and its exit code in <target>.rc.
run_one() {
	local t=$1 bin=$build/$1 log=$build/$1.log max_len
	max_len=$(max_len_of "$t")
	mkdir -p "$corpus/$t" "$build/artifacts"
	# -timeout: one input running 20 s is a hang, reported as a crash.
	"$bin" "$flag=${limit[$t]}" -print_final_stats=1 -timeout=20 \
		-rss_limit_mb=4096 -max_len=$max_len \
		-artifact_prefix="$build/artifacts/$t-" \
		"$corpus/$t" "$here/corpus/$t" >"$log" 2>&1
	echo $? >"$build/$t.rc"
}

# FUZZ_JOBS targets at once (default: one per CPU); each is one process.
jobs_max=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs_max" -ge 1 ] 2>/dev/null || jobs_max=1
for t in "${targets[@]}"; do
	rm -f "$build/$t.rc"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
	done
	run_one "$t" &
done
wait

# The reproducers of bugs found before (crashes/<target>-<what>): each
# must pass now, in the strict build as in the default one.
replays=()
for f in "$here"/crashes/*; do
	[ -f "$f" ] || continue
	t=${f##*/}
	t=${t%%-*}
	[[ -n ${limit[$t]:-} ]] && replays+=("$f")
done
if [ "${FUZZ_STRICT:-1}" = 1 ] && [ ${#replays[@]} = 0 ] &&
	[[ ${targets[0]} != fuzz_sim_* ]]; then
	echo "run.sh: no reproducer in $here/crashes/ for these targets" >&2
fi

echo "TAP version 13"
echo "1..$((${#targets[@]} + ${#replays[@]}))"
n=0
fail=0
total=0
for t in "${targets[@]}"; do
	n=$((n + 1))
	log=$build/$t.log
	rc=$(cat "$build/$t.rc" 2>/dev/null || echo 255)
	runs=$(sed -n 's/^Done \([0-9][0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
	secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
	cov=$(sed -n 's/.*DONE *cov: \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
	seed=$(sed -n 's/^INFO: Seed: \([0-9]*\).*/\1/p' "$log" | head -n 1)
	short=0
	[ "$mode" = -runs ] && [ -n "$runs" ] && [ "$runs" -lt "${limit[$t]}" ] && short=1
	if [ "$rc" -eq 0 ] && [ -n "$runs" ] && [ $short = 0 ]; then
		echo "ok $n fuzz.$t # runs=$runs"
		echo "# fuzz.$t cov=${cov:-?} seconds=${secs:-?} seed=${seed:-?}"
		total=$((total + runs))
	else
		fail=$((fail + 1))
		why="exit $rc"
		[ $short = 1 ] && why="$runs runs of ${limit[$t]}"
		grep -q '^==[0-9]*==ERROR' "$log" && why="sanitizer report"
		grep -q 'FUZZ ASSERT' "$log" && why="assertion"
		grep -q 'ERROR: libFuzzer: timeout' "$log" && why="time-out"
		echo "not ok $n fuzz.$t # $why, see $log (seed ${seed:-?})"
		# The reason and the reproducer, as TAP diagnostics.
		grep -E 'FUZZ ASSERT|^==[0-9]+==ERROR|SUMMARY|runtime error|Test unit written|Assertion' \
			"$log" | head -n 8 | sed 's/^/# /'
		# How to replay it: the input it wrote, else the whole run
		# (by runs, the same seed from an empty corpus does the same).
		art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
		[ -n "$art" ] && echo "# replay: $build/$t -timeout=20 $art"
		[ -n "$seed" ] && [ "$mode" = -runs ] &&
			echo "# rerun: $build/$t -seed=$seed -runs=${limit[$t]}" \
				"-max_len=$(max_len_of "$t") -timeout=20" \
				"\$(mktemp -d) $here/corpus/$t"
		[ -n "$runs" ] && total=$((total + runs))
	fi
done
for f in "${replays[@]}"; do
	n=$((n + 1))
	r=${f##*/}
	t=${r%%-*}
	log=$build/replay-$r.log
	# One input, run once; -timeout: a hang is a failure (bug 3 was one).
	"$build/$t" -timeout=20 -rss_limit_mb=4096 "$f" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q "^Executed .* in [0-9]* ms" "$log"; then
		echo "ok $n fuzz.replay.$r"
	else
		fail=$((fail + 1))
		why="exit $rc"
		grep -q '^==[0-9]*==ERROR' "$log" && why="sanitizer report"
		grep -q 'FUZZ ASSERT' "$log" && why="assertion"
		grep -q 'ERROR: libFuzzer: timeout' "$log" && why="time-out"
		echo "not ok $n fuzz.replay.$r # $why, see $log"
		grep -E 'FUZZ ASSERT|^==[0-9]+==ERROR|SUMMARY|runtime error|Assertion' \
			"$log" | head -n 8 | sed 's/^/# /'
	fi
done
echo "${FUZZ_CALLS_NAME:-fuzz_calls}=$total"
[ $fail -eq 0 ]
