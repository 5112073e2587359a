#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# repro-srtf.sh: the reproduction of Pai et al. (SRTF with the structural
# runtime predictor: Tables 5 and 6, Fig. 14, the predictor's error after
# one TB, the worst ANTT per policy) on edge-sim pairs: the eight ERCBench
# kernels of scenarios/srtf/ercbench.kernels, all 56 ordered pairs, under
# every thread-block policy, staggered by up to 100 cycles and at 25 % and
# 50 % of the first kernel's isolated runtime.
#
#   tools/edge-sim/repro-srtf.sh         (or: make repro-srtf)
#
# Environment: EDGE_SIM, RESULTS (default Documentation/results/srtf),
# PLOTS=0, REPRO_SMOKE=1 (the whole set takes under a second, so the
# smoke run is the full run, into build/repro-smoke/srtf).
#
# Writes alone.csv (each kernel alone against Tables 2 and 3, and the
# predictor after one TB), pairs-{0,25,50}.csv (one row per workload and
# policy), table5.csv, table6.csv, fig14.csv and .png, headline.txt.
# Standard output ENDS with the headline name=value lines
# (Documentation/results/srtf/README.rst defines each).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib-repro.sh"
repro_init srtf
K=$here/scenarios/srtf/ercbench.kernels
POLS=default,mpmax,srtf,srtf-adaptive,sjf-oracle,srtf-preempt

start=${EPOCHREALTIME/[!0-9]/.}
"$SIM" pairs alone "$K" >"$RESULTS/alone.csv"
"$SIM" pairs run -P "$POLS" "$K" >"$RESULTS/pairs-0.csv"
for o in 25 50; do
	"$SIM" pairs run -o $o -P "${POLS/,sjf-oracle/}" "$K" >"$RESULTS/pairs-$o.csv"
done
end=${EPOCHREALTIME/[!0-9]/.}
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')

# geomeans FILE: policy,stp,antt,fairness,worst_antt,workloads
geomeans() {
	awk -F, -v pols="$POLS" '
	NR > 1 {
		n[$2]++; s[$2] += log($9); a[$2] += log($10); f[$2] += log($11)
		if ($10 > w[$2]) w[$2] = $10
	}
	END {
		np = split(pols, p, ",")
		for (i = 1; i <= np; i++) {
			k = p[i]
			if (!n[k]) continue
			printf "%s,%.2f,%.2f,%.2f,%.2f,%d\n", k, exp(s[k] / n[k]),
				exp(a[k] / n[k]), exp(f[k] / n[k]), w[k], n[k]
		}
	}' "$1"
}

# Table 5 beside the paper's (Table 5; worst ANTT from Section 6.2.3).
{
	echo "policy,stp,antt,fairness,worst_antt,paper_stp,paper_antt,paper_fairness,paper_worst_antt"
	geomeans "$RESULTS/pairs-0.csv" | awk -F, '
	BEGIN {
		p["default"] = "1.35,3.66,0.19,425.45"; p["mpmax"] = "1.37,2.15,0.36,10.08"
		p["srtf"] = "1.59,1.63,0.52,37.77"; p["srtf-adaptive"] = "1.51,1.64,0.56,30.95"
		p["sjf-oracle"] = "1.82,1.13,0.80,NaN"; p["srtf-preempt"] = "NaN,NaN,NaN,NaN"
	}
	{ printf "%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $5, p[$1] }'
} >"$RESULTS/table5.csv"

# Table 6: 25 % and 50 % offsets, beside the paper's.
{
	echo "policy,stp25,antt25,fair25,stp50,antt50,fair50,paper_stp25,paper_antt25,paper_fair25,paper_stp50,paper_antt50,paper_fair50"
	join -t, <(geomeans "$RESULTS/pairs-25.csv" | cut -d, -f1-4 | sort) \
		<(geomeans "$RESULTS/pairs-50.csv" | cut -d, -f1-4 | sort) | awk -F, '
	BEGIN {
		p["default"] = "1.44,2.74,0.27,1.48,2.36,0.32"
		p["mpmax"] = "1.45,2.05,0.38,1.49,1.93,0.40"
		p["srtf"] = "1.62,1.60,0.53,1.63,1.56,0.55"
		p["srtf-adaptive"] = "1.56,1.65,0.56,1.59,1.58,0.59"
		p["srtf-preempt"] = "NaN,NaN,NaN,NaN,NaN,NaN"
	}
	{ print $0 "," p[$1] }'
} >"$RESULTS/table6.csv"

# Fig. 14: STP per workload, one column per policy (lib-repro.sh).
awk -F, 'NR > 1 { print $3 "+" $4 "," $2 "," $9 }' "$RESULTS/pairs-0.csv" |
	repro_table "$POLS" >"$RESULTS/fig14.csv"

if [[ $PLOTS != 0 ]] && ! command -v gnuplot >/dev/null; then
	echo "repro-srtf: no gnuplot (Debian gnuplot-nox): no plots" >&2
elif [[ $PLOTS != 0 ]]; then
	gnuplot -e "in='$RESULTS/fig14.csv'; out='$RESULTS/fig14.png'; ncol=7" \
		"$here/plots/srtf-fig14.gp"
fi

echo "== Isolated runtimes (Tables 2-3; model vs paper, cycles) and the predictor after one TB"
column -t -s, "$RESULTS/alone.csv"
echo "== Table 5 analogue (geomean over 56 workloads, stagger <= 100 cycles)"
column -t -s, "$RESULTS/table5.csv"
echo "== Table 6 analogue (second kernel at 25 % / 50 % of the first's runtime)"
column -t -s, "$RESULTS/table6.csv"

{
	awk -F, 'NR > 1 { n++; if ($5 <= 10 && $5 >= -10) ok++ }
		END { printf "isolated_within_10pct=%d\nkernels=%d\n", ok, n }' "$RESULTS/alone.csv"
	awk -F, '
	NR > 1 { stp[$1] = $2; antt[$1] = $3; fair[$1] = $4 }
	END {
		printf "srtf_vs_fifo_stp=%.2f\n", stp["srtf"] / stp["default"]
		printf "srtf_vs_fifo_antt=%.2f\n", antt["default"] / antt["srtf"]
		printf "srtf_vs_mpmax_stp=%.2f\n", stp["srtf"] / stp["mpmax"]
		printf "srtf_vs_mpmax_antt=%.2f\n", antt["mpmax"] / antt["srtf"]
		printf "adaptive_vs_fifo_fairness=%.2f\n", fair["srtf-adaptive"] / fair["default"]
		printf "ours_vs_srtf_antt=%.2f\n", antt["srtf"] / antt["srtf-preempt"]
		gap = antt["srtf"] - antt["sjf-oracle"]
		printf "ours_gap_closed_pct=%.0f\n", 100 * (antt["srtf"] - antt["srtf-preempt"]) / gap
	}' "$RESULTS/table5.csv"
	awk -F, '$2 == "srtf-adaptive" && $13 { n++ }
		END { printf "adaptive_shared_workloads=%d\n", n }' "$RESULTS/pairs-0.csv"
	echo "srtf_table_seconds=$seconds"
} >"$tmp/headline"

# srtf_table_seconds is a wall time: keep it out of the compared file.
grep -v '^srtf_table_seconds=' "$tmp/headline" >"$RESULTS/headline.txt"
cat "$tmp/headline"
