#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# repro-lax.sh: the LAX reproduction (Iyer et al.: Figs. 6 and 7, Table 5
# and Fig. 9) on edge-sim: the eight Table 4 workloads x the high, medium
# and low arrival rates x every policy of emul/cp/cp.c, 128 jobs per run,
# each row summed over the workload's runs (5 seeds).
#
#   tools/edge-sim/repro-lax.sh          (or: make repro-lax)
#
# Environment: EDGE_SIM (the binary; built with make when unset), RESULTS
# (default Documentation/results/lax), JOBS (parallel edge-sim processes,
# default 2), PLOTS=0 to skip gnuplot, REPRO_SMOKE=1 for make check's
# short run: one run per workload (edge-sim jobs -R 1) instead of the
# workload's runs, into build/repro-smoke/lax (lib-repro.sh).
#
# Writes lax.csv (one row per workload x rate x policy), the tables
# met-vs-rr-{high,medium,low}.csv (jobs that met their deadline over RR's,
# with GMEAN rows), table5-{throughput,p99}-high.csv,
# wasted-{high,medium,low}.csv, the plots and headline.txt.  Its standard
# output ENDS with the headline name=value lines
# (Documentation/results/lax/README.rst defines each).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib-repro.sh"
repro_init lax
SC=$here/scenarios/lax
WORKLOADS=(lstm gru van hybrid ipv6 cuckoo gmm stem)
# Workloads of our own, not the paper's: loose deadlines, a mix of two
# deadline classes, and a CP-bound stream of tiny kernels (ours.csv).
OURS=(loose mixed cpbound)
# edge-sim jobs options: the smoke run does one run per workload.
RUNS=()
((SMOKE)) && RUNS=(-R 1)
# Every workload file has these rates, in this order (checked below).
RATES=(high medium low)
# The simulations run as one piece per workload x rate (edge-sim jobs -r),
# the longest first (measured: HYBRID's 0.42 s of CPU a rate down to
# STEM's 0.01), so that the JOBS workers end within a short piece of each
# other; the rows are put back in the workload's order below, so the
# files do not depend on it.  A workload not listed here runs last.
LONGEST_FIRST=(hybrid loose lstm mixed gru van cpbound cuckoo ipv6 gmm stem)

# (one awk for all the files)
files=()
for w in "${WORKLOADS[@]}" "${OURS[@]}"; do files+=("$SC/$w.jobs"); done
bad=$(awk -v want="${RATES[*]} " '
	FNR == 1 && NR > 1 { if (got != want) print f ": rates '\''" got "'\''"; got = "" }
	FNR == 1 { f = FILENAME; sub(/.*\//, "", f) }
	$1 == "rate" { got = got $2 " " }
	END { if (got != want) print f ": rates '\''" got "'\''" }' "${files[@]}")
if [[ -n $bad ]]; then
	echo "repro-lax: $bad, not '${RATES[*]}'" >&2
	exit 1
fi

start=${EPOCHREALTIME/[!0-9]/.}
# One edge-sim batch (edge-sim.rst): a fork of it for each piece, not a
# shell and an exec.
for w in "${LONGEST_FIRST[@]}" "${WORKLOADS[@]}" "${OURS[@]}"; do
	for r in "${RATES[@]}"; do
		echo "jobs -n -r $r${RUNS[*]:+ }${RUNS[*]} $SC/$w.jobs >$tmp/$w-$r.csv"
	done
done | awk '!seen[$0]++' | "$SIM" batch -j "$JOBS" -
end=${EPOCHREALTIME/[!0-9]/.}
# rows WORKLOAD...: each workload's rows, rate by rate, as one edge-sim
# jobs run of the whole file prints them.
rows() {
	local w r f=()

	for w in "$@"; do
		for r in "${RATES[@]}"; do f+=("$tmp/$w-$r.csv"); done
	done
	cat "${f[@]}"
}
{
	"$SIM" jobs -H 2>/dev/null || true
	rows "${WORKLOADS[@]}"
} >"$RESULTS/lax.csv"
{
	"$SIM" jobs -H 2>/dev/null || true
	rows "${OURS[@]}"
} >"$RESULTS/ours.csv"
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')

# Every policy, in the policy table's order (emul/policy/table.c: no
# second list here), and the ones LAX is compared with: all but the LAX
# family (LAX Table 3's ten).
POLS=$("$SIM" policies | awk '$1 == "queue:" { $1 = ""; print substr($0, 2) }')
OTHERS=$(printf '%s\n' $POLS | grep -v '^lax' | xargs)

# table RATE COLUMN [mean | over rr]: a workload x policy table of
# lax.csv's COLUMN at RATE (repro_table, lib-repro.sh).  Met counts go
# over RR's as (met + 1) / (RR's met + 1), so a policy that meets none
# still gets a finite ratio, with a GMEAN row; mean: the value itself and
# a MEAN row; neither: the value, no summary.
table() {
	awk -F, -v rate="$1" -v c="$2" '$2 == rate { print $1 "," $4 "," $c }' \
		"$RESULTS/lax.csv" | repro_table "$POLS" "${@:3}"
}

for rate in high medium low; do
	table $rate 6 over rr >"$RESULTS/met-vs-rr-$rate.csv"
	table $rate 12 mean >"$RESULTS/wasted-$rate.csv"
done
table high 10 >"$RESULTS/table5-throughput-high.csv"
table high 11 >"$RESULTS/table5-p99-high.csv"

# The high-rate geomeans beside the paper's, from its Section 6.1 text
# (BAY "the same as RR", LAX-SW = LAX / 1.7, LAX-CPU = 1.5 x LAX-SW).
awk -F, '
BEGIN {
	split("rr:1.00 bat:0.77 bay:1.00 pro:1.02 mlfq:0.85 edf:1.5 sjf:2.46 " \
	      "ljf:1.24 srf:2.54 prema:2.2 lax-sw:2.47 lax-cpu:3.71 lax:4.2", kv, " ")
	for (i in kv) { split(kv[i], f, ":"); paper[f[1]] = f[2] }
	print "policy,edge-sim,paper"
}
NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i; next }
$1 == "GMEAN" {
	for (i = 2; i <= NF; i++)
		printf "%s,%s,%s\n", name[i], $i, (name[i] in paper) ? paper[name[i]] : "NaN"
}' "$RESULTS/met-vs-rr-high.csv" >"$RESULTS/geomean-vs-paper-high.csv"

if [[ $PLOTS != 0 ]] && ! command -v gnuplot >/dev/null; then
	echo "repro-lax: no gnuplot (Debian gnuplot-nox): no plots" >&2
elif [[ $PLOTS != 0 ]]; then
	bars=$here/plots/lax-bars.gp
	gp=()
	for rate in high medium low; do
		gp+=("in='$RESULTS/met-vs-rr-$rate.csv'; out='$RESULTS/met-vs-rr-$rate.png'; ttl='Jobs meeting their deadline, normalised to RR ($rate rate)'; ylab='x RR'" "$bars")
	done
	# Beside the headline's awk, on the other core: the plots were
	# the serial tail that ended make repro.
	repro_gnuplot "${gp[@]}" \
		"in='$RESULTS/wasted-high.csv'; out='$RESULTS/wasted-high.png'; ttl='Work-groups spent on jobs that missed (high rate)'; ylab='%'" "$bars" \
		"in='$RESULTS/geomean-vs-paper-high.csv'; out='$RESULTS/geomean-vs-paper-high.png'; ttl='Jobs meeting their deadline over RR, geomean of the 8 workloads, high rate: edge-sim and the paper'; ylab='x RR'; ncol=3" "$bars" &
	plots=$!
fi


# Headline.
{
	awk -F, -v others="$OTHERS" '
	NR == 1 { for (i = 2; i <= NF; i++) col[$i] = i; next }
	$1 == "GMEAN" {
		lax = $col["lax"]
		no = split(others, o, " ")
		best = 0
		for (i = 1; i <= no; i++) if ($col[o[i]] > best) best = $col[o[i]]
		printf "lax_vs_rr_geomean_high=%.2f\n", lax
		printf "lax_vs_best_other_geomean_high=%.2f\n", lax / best
	}' "$RESULTS/met-vs-rr-high.csv"
	awk -F, '
	{ met[$1, $2, $4] = $6; if ($4 == "lax") cells[$1 SUBSEP $2] = 1 }
	END {
		min = 1e9
		for (c in cells) {
			split(c, k, SUBSEP)
			r = (met[k[1], k[2], "lax-p"] + 1) / (met[k[1], k[2], "lax"] + 1)
			if (r < min) min = r
		}
		printf "laxp_vs_lax_stem_high=%.2f\n",
			(met["STEM", "high", "lax-p"] + 1) / (met["STEM", "high", "lax"] + 1)
		printf "laxp_min_vs_lax_any_workload=%.2f\n", min
		printf "prema_vs_lax_stem_high=%.2f\n",
			(met["STEM", "high", "prema"] + 1) / (met["STEM", "high", "lax"] + 1)
	}' "$RESULTS/lax.csv" "$RESULTS/ours.csv"
	awk -F, 'NR == 1 { for (i = 2; i <= NF; i++) col[$i] = i; next }
		$1 == "MEAN" { printf "lax_wasted_work_pct_high=%.1f\n", $col["lax"] }' \
		"$RESULTS/wasted-high.csv"
	# LAX's refusals at the rates where RR met every deadline; the best
	# policy's met over the worst's on the CP-bound workload, high rate,
	# among the six that a FIFO CP made identical (RR, EDF, SJF, SRF,
	# PREMA, LAX; the host-side ones differ by their host costs anyway).
	awk -F, '
	$1 == "LOOSE" && $4 == "rr" && $6 == $5 { allmet[$2] = 1 }
	$1 == "LOOSE" && $4 == "lax" { rej[$2] = $8 }
	$1 == "CPBOUND" && $2 == "high" && $4 ~ /^(rr|edf|sjf|srf|prema|lax)$/ {
		if (hi == "" || $6 > hi) hi = $6
		if (lo == "" || $6 < lo) lo = $6
	}
	END {
		for (r in allmet) { n += rej[r]; rates++ }
		printf "lax_loose_false_rejects=%d\n", rates ? n : -1
		printf "cp_bound_policy_spread=%.2f\n", (hi + 1) / (lo + 1)
	}' "$RESULTS/ours.csv"
	echo "policy_table_entries=$("$SIM" policies | awk '$1 == "queue:" { print NF - 1 }')"
	echo "lax_table_seconds=$seconds"
} >"$tmp/headline"

[[ -z ${plots:-} ]] || wait "$plots"

# lax_table_seconds is a wall time: keep it out of the compared file.
grep -v '^lax_table_seconds=' "$tmp/headline" >"$RESULTS/headline.txt"
cat "$tmp/headline"
