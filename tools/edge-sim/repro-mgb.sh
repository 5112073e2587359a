#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# repro-mgb.sh: the MGB reproduction (Chen, Porter, Pande: Figs. 4-5,
# Tables II-IV) on edge-sim mgb: Table I's eight Rodinia-like workloads on
# 2 x P100 and 4 x V100, under SA (one worker per GPU), CG swept over
# Table II's worker counts, MGB's Alg. 2 and Alg. 3 (10 workers on the
# P100s, 16 on the V100s) and ours, mgb-live (Alg. 3 on the live view).
#
#   tools/edge-sim/repro-mgb.sh          (or: make repro-mgb)
#
# Environment: EDGE_SIM, RESULTS (default Documentation/results/mgb),
# JOBS (default 2), PLOTS=0, REPRO_SMOKE=1 (W1 and W5 only, into
# build/repro-smoke/mgb) -- see lib-repro.sh.
#
# Writes runs.csv (one row per machine x workload x policy x workers),
# jobs-p100.csv and jobs-v100.csv (each job alone), throughput.csv,
# table2.csv, table3.csv, table4.csv, summary.csv (every figure beside
# the paper's), throughput.png and headline.txt.  Its standard output
# ENDS with the headline name=value lines (Documentation/results/mgb/
# README.rst defines each).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib-repro.sh"
repro_init mgb
WL=$here/workloads/mgb
# Two pieces of four workloads per machine (comma lists for -w).
# shellcheck disable=SC2054
SETS=(W1,W2,W3,W4 W5,W6,W7,W8)
if ((SMOKE)); then SETS=(W1 W5); fi

start=${EPOCHREALTIME/[!0-9]/.}
# piece NAME ARGS...: one edge-sim mgb run into $tmp/NAME.csv and .err, a
# line of edge-sim batch's input.
piece() {
	local name=$1

	shift
	echo "mgb $* $WL/rodinia.jobs $WL/table1.txt >$tmp/$name.csv 2>$tmp/$name.err"
}
{
	for s in "${SETS[@]}"; do
		piece "p100-$s" -m p100 -g 2 -W 10 -c 3,4,5,6 -w "$s"
		piece "v100-$s" -m v100 -g 4 -W 16 -c 6,8,10,12 -w "$s"
	done
	piece jobs-p100 -m p100 -T
	piece jobs-v100 -m v100 -T
} | "$SIM" batch -j "$JOBS" - || { cat "$tmp"/*.err >&2; exit 1; }
end=${EPOCHREALTIME/[!0-9]/.}
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')

{
	head -1 "$tmp/p100-${SETS[0]}.csv"
	for m in p100 v100; do
		for s in "${SETS[@]}"; do tail -n +2 "$tmp/$m-$s.csv"; done
	done
} >"$RESULTS/runs.csv"
cp "$tmp/jobs-p100.csv" "$RESULTS/jobs-p100.csv"
cp "$tmp/jobs-v100.csv" "$RESULTS/jobs-v100.csv"

# Throughput (jobs completed per second) normalised to SA, per workload.
# CG counts its best run that crashed no job; when every count of the
# sweep crashed one, CG at one worker per GPU, which is SA.
awk -F, 'NR == 1 { next }
	{
		k = $1 "," $3; tp = $8 / $10
		if (!(k in seen)) { seen[k] = 1; ord[++n] = k; mix[k] = $5; jobs[k] = $4 }
		if ($6 == "sa") sa[k] = tp
		else if ($6 == "cg") { if ($9 == 0 && tp > cg[k]) { cg[k] = tp; cgw[k] = $7 } }
		else v[k, $6] = tp
	}
	END {
		print "preset,workload,jobs,mix,sa,cg,cg_workers,mgb_alg2,mgb_alg3,mgb_live"
		for (i = 1; i <= n; i++) {
			k = ord[i]
			if (!(k in cg)) { cg[k] = sa[k]; cgw[k] = "sa" }
			printf "%s,%d,%s,1.00,%.2f,%s,%.2f,%.2f,%.2f\n", k, jobs[k], mix[k],
				cg[k] / sa[k], cgw[k], v[k, "mgb-alg2"] / sa[k],
				v[k, "mgb-alg3"] / sa[k], v[k, "mgb-live"] / sa[k]
		}
	}' "$RESULTS/runs.csv" >"$RESULTS/throughput.csv"

# Table II: % of CG's jobs that crashed, per machine, workers and mix
# (16- and 32-job workloads together), beside the paper's.
awk -F, 'BEGIN {
		split("0 3 8 0 14 6 6 9 13 13 20 22 16 17 16 16", pp, " ")
		split("0 6 17 0 13 19 25 13 15 25 20 25 33 29 38 50", pv, " ")
		split("1:1 2:1 3:1 5:1", mixes, " ")
		for (i = 1; i <= 4; i++) mi[mixes[i]] = i
		split("3 4 5 6", wp, " "); split("6 8 10 12", wv, " ")
		for (i = 1; i <= 4; i++) { ri["p100," wp[i]] = i; ri["v100," wv[i]] = i }
	}
	NR > 1 && $6 == "cg" { k = $1 "," $7 "," $5; c[k] += $9; t[k] += $4; if (!(k in seen)) { seen[k] = 1; o[++n] = k } }
	END {
		print "preset,workers,mix,crashed_pct,paper_pct"
		for (i = 1; i <= n; i++) {
			split(o[i], f, ",")
			r = ri[f[1] "," f[2]]; m = mi[f[3]]
			p = f[1] == "p100" ? pp[(r - 1) * 4 + m] : pv[(r - 1) * 4 + m]
			printf "%s,%.1f,%s\n", o[i], 100 * c[o[i]] / t[o[i]], p
		}
	}' "$RESULTS/runs.csv" >"$RESULTS/table2.csv"

# Table III: mean turnaround under SA over MGB (Alg. 3), beside the paper's.
awk -F, 'BEGIN {
		split("4.9 2.3 4.9 4.3 4.6 3.2 3.6 2.0", pp, " ")
		split("2.4 2.0 3.5 2.6 3.8 2.9 2.9 2.6", pv, " ")
	}
	NR > 1 && $6 == "sa" { sa[$1 "," $3] = $11 }
	NR > 1 && $6 == "mgb-alg3" { k = $1 "," $3; mg[k] = $11; o[++n] = k; mix[k] = $5; jobs[k] = $4 }
	END {
		print "preset,workload,jobs,mix,speedup,paper"
		for (i = 1; i <= n; i++) {
			k = o[i]; split(k, f, ","); w = substr(f[2], 2) + 0
			printf "%s,%d,%s,%.2f,%s\n", k, jobs[k], mix[k], sa[k] / mg[k],
				f[1] == "p100" ? pp[w] : pv[w]
		}
	}' "$RESULTS/runs.csv" >"$RESULTS/table3.csv"

# Table IV: kernel slowdown against SA, % (4 x V100), beside the paper's.
awk -F, 'BEGIN {
		split("-0.3 1.0 0.3 4.1 2.9 5.1 1.1 0.6", p2, " ")
		split("-0.7 0.8 7.0 3.1 2.2 4.1 0.4 2.9", p3, " ")
	}
	NR > 1 && $1 == "v100" && $6 == "mgb-alg2" { a2[$3] = $12; e2[$3] = $13; o[++n] = $3 }
	NR > 1 && $1 == "v100" && $6 == "mgb-alg3" { a3[$3] = $12; e3[$3] = $13 }
	NR > 1 && $1 == "p100" && $6 == "mgb-alg3" { b3[$3] = $12 }
	END {
		print "workload,alg2_pct,alg3_pct,paper_alg2_pct,paper_alg3_pct,alg2_exec_pct,alg3_exec_pct,p100_alg3_pct"
		for (i = 1; i <= n; i++) {
			w = o[i]; j = substr(w, 2) + 0
			printf "%s,%.1f,%.1f,%s,%s,%.1f,%.1f,%.1f\n", w, a2[w], a3[w], p2[j], p3[j],
				e2[w], e3[w], b3[w]
		}
	}' "$RESULTS/runs.csv" >"$RESULTS/table4.csv"

# Every figure beside the paper's; the headline comes from here.
{
	echo "figure,ours,paper"
	# throughput.csv: 5 sa (1), 6 cg, 8 alg2, 9 alg3, 10 live, over SA.
	awk -F, 'NR > 1 {
			k = $1; n[k]++; a3[k] += $9; cg[k] += $9 / $6; x[k] += $6
			a2[k] += $8; l[k] += $10 / $9
		}
		END {
			printf "mgb_vs_sa_p100,%.2f,2.2\n", a3["p100"] / n["p100"]
			printf "mgb_vs_sa_v100,%.2f,2.0\n", a3["v100"] / n["v100"]
			printf "mgb_vs_cg_p100,%.2f,1.64\n", cg["p100"] / n["p100"]
			printf "mgb_vs_cg_v100,%.2f,1.41\n", cg["v100"] / n["v100"]
			# The paper gives MGB over SA and over CG: CG over SA follows.
			printf "cg_vs_sa_p100,%.2f,1.34\n", x["p100"] / n["p100"]
			printf "cg_vs_sa_v100,%.2f,1.42\n", x["v100"] / n["v100"]
			printf "alg2_vs_sa_v100,%.2f,1.65\n", a2["v100"] / n["v100"]
			printf "live_vs_alg3_p100,%.3f,NaN\n", l["p100"] / n["p100"]
			printf "live_vs_alg3_v100,%.3f,NaN\n", l["v100"] / n["v100"]
		}' "$RESULTS/throughput.csv"
	awk -F, 'NR > 1 && $1 == "v100" { a2[$2] = $8; a3[$2] = $9; n++ }
		END { for (w in a2) s += a3[w] / a2[w]; printf "alg3_vs_alg2,%.2f,1.21\n", s / n }' "$RESULTS/throughput.csv"
	awk -F, 'NR > 1 { if ($4 > m) m = $4; if ($5 > pm) pm = $5 }
		END { printf "cg_crash_pct_max,%.1f,%s\n", m, pm }' "$RESULTS/table2.csv"
	awk -F, 'NR > 1 { s[$1] += $5; n[$1]++; if ($5 > m) m = $5 }
		END {
			printf "turnaround_p100,%.2f,3.7\n", s["p100"] / n["p100"]
			printf "turnaround_v100,%.2f,2.8\n", s["v100"] / n["v100"]
			printf "turnaround_max,%.2f,4.9\n", m
		}' "$RESULTS/table3.csv"
	awk -F, 'NR > 1 { a2 += $2; a3 += $3; e2 += $6; e3 += $7; n++ }
		END {
			printf "kslow_alg2_pct,%.1f,1.8\nkslow_alg3_pct,%.1f,2.5\n", a2 / n, a3 / n
			printf "kexec_alg2_pct,%.1f,1.8\nkexec_alg3_pct,%.1f,2.5\n", e2 / n, e3 / n
		}' "$RESULTS/table4.csv"
	awk -F, 'NR > 1 && $6 ~ /^mgb/ { c += $9 } END { printf "mgb_crashes,%d,0\n", c }' "$RESULTS/runs.csv"
	awk -F, 'NR > 1 && $6 == "sa" { s[$1] += $14; n[$1]++ }
		END { printf "sa_busy_p100_pct,%.1f,30\nsa_busy_v100_pct,%.1f,30\n", s["p100"] / n["p100"], s["v100"] / n["v100"] }' "$RESULTS/runs.csv"
} >"$RESULTS/summary.csv"

if [[ $PLOTS != 0 ]] && ! command -v gnuplot >/dev/null; then
	echo "repro-mgb: no gnuplot (Debian gnuplot-nox): no plots" >&2
elif [[ $PLOTS != 0 ]]; then
	gnuplot -e "in='$RESULTS/throughput.csv'; out='$RESULTS/throughput.png'" "$here/plots/mgb-throughput.gp"
fi

echo "== Throughput normalised to SA (Fig. 5; CG: its best run without a crash)"
column -t -s, "$RESULTS/throughput.csv"
echo "== Table II analogue: % of CG's jobs crashed on memory (paper's beside)"
column -t -s, "$RESULTS/table2.csv"
echo "== Table III analogue: mean turnaround, SA over MGB (Alg. 3)"
column -t -s, "$RESULTS/table3.csv"
echo "== Table IV analogue: kernel slowdown against SA, % (4 x V100)"
column -t -s, "$RESULTS/table4.csv"
echo "== Summary: ours beside the paper's"
column -t -s, "$RESULTS/summary.csv"

{
	for n in mgb_vs_sa_p100 mgb_vs_sa_v100 mgb_vs_cg_p100 mgb_vs_cg_v100 \
		alg3_vs_alg2 cg_crash_pct_max mgb_crashes; do
		awk -F, -v n="$n" '$1 == n { print n "=" $2 }' "$RESULTS/summary.csv"
	done
	echo "mgb_table_seconds=$seconds"
} >"$tmp/headline"

# mgb_table_seconds is a wall time: keep it out of the compared file.
grep -v '^mgb_table_seconds=' "$tmp/headline" >"$RESULTS/headline.txt"
cat "$tmp/headline"
