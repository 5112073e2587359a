#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# repro-edge.sh: the EDGE reproduction set (Figs. 11, 12, 13 and draining
# on an h100-like GPU) on edge-sim, i.e. on emul/'s SIMT model.
#
#   tools/edge-sim/repro-edge.sh          (or: make -C tools/edge-sim repro-edge)
#
# Environment: EDGE_SIM (the binary; built with make when unset),
# RESULTS (output folder; default Documentation/results/edge), JOBS
# (parallel simulations; default 2), PLOTS=0 to skip gnuplot,
# REPRO_SMOKE=1 for make check's short run: Figs. 12 and 13 on two
# backgrounds (CONV, which every event can preempt, and BP) x two events
# (IPV4, MEMC) instead of 4 x 4, into build/repro-smoke/edge
# (lib-repro.sh).
#
# Writes into $RESULTS: the raw rows (fig11c.csv, fig12.csv, fig13.csv,
# h100-drain.csv, one edge-sim CSV row per simulation), the tables the
# plots are drawn from (*-summary.csv), the plots (*.png, with gnuplot;
# fig11c-timeline.png is one run's edge-sim -T trace) and headline.txt.  Its standard output ENDS with the headline ratios,
# one name=value per line (Documentation/edge-sim.rst defines each).
# Every simulation is deterministic: a rerun writes the same CSVs.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib-repro.sh"
repro_init edge
SC=$here/scenarios

BGS=(CONV MM BP BFS)
EVS=(IPV4 IPV6 MEMC IPSEC)
# The (background, event) pairs of Figs. 12 and 13.
PAIR_BGS=("${BGS[@]}")
if ((SMOKE)); then
	PAIR_BGS=(CONV BP)
	EVS=(IPV4 MEMC)
fi
FLUSHES=(none boost ibuf loads barrier all)
njob=0
# job FIGURE SCENARIO -s k=v ...: one simulation, one CSV row; a line of
# edge-sim batch's input (its arguments, no blanks inside one).
job() {
	local fig=$1 scen=$2
	shift 2
	printf -- '-n -o %s/%s.%05d.csv %s %s\n' "$tmp" "$fig" "$njob" "$*" \
		"$SC/$scen" >>"$tmp/jobs"
	njob=$((njob + 1))
}

# Fig. 11a-c: victim x flushing optimisation, IPV4 over each background.
# One seed per background, shared by every (victim, flush): paired.
for bi in "${!BGS[@]}"; do
	for v in oldest newest; do
		for f in "${FLUSHES[@]}"; do
			job fig11c fig11c.sim -s label=fig11c \
				-s background.kernel="${BGS[bi]}" -s victim=$v \
				-s flush="$f" -s seed=$((1000 + 100 * bi))
		done
	done
done

# Fig. 12: draining vs preemption, each (background, event) pair with its
# own seed, shared by the two policies.
for bi in "${!PAIR_BGS[@]}"; do
	for ei in "${!EVS[@]}"; do
		for s in drain preempt; do
			job fig12 fig12.sim -s label=fig12 \
				-s background.kernel="${PAIR_BGS[bi]}" \
				-s ev.kernel="${EVS[ei]}" -s sched=$s \
				-s seed=$((1000 + 100 * bi + 10 * ei))
		done
	done
done

# Fig. 13: draining, reservation, preemption at a low and a high rate.
# The EDGE artifact's timer periods (cycles) and in-flight limits:
# low 1015 (IPv4/IPv6) or 12000 (MemC/IPSec) with 2 in flight, high 150
# or 1500 with 32 or 16; a Poisson mean stands in for the period, and an
# arrival over the cap is dropped (the artifact skips the tick).
for bi in "${!PAIR_BGS[@]}"; do
	for ei in "${!EVS[@]}"; do
		ev=${EVS[ei]}
		case $ev in
		IPV4 | IPV6) lper=1015 hper=150 hcap=32 ;;
		*) lper=12000 hper=1500 hcap=16 ;;
		esac
		for ri in 0 1; do
			if ((ri == 0)); then
				rate=low cap=2 mean=$lper
			else
				rate=high cap=$hcap mean=$hper
			fi
			for s in drain reserve preempt; do
				job fig13 fig13.sim -s label=$rate \
					-s background.kernel="${PAIR_BGS[bi]}" \
					-s ev.kernel="$ev" -s sched=$s \
					-s ev.cap=$cap -s ev.mean=$mean \
					-s seed=$((2000 + 100 * bi + 10 * ei + ri))
			done
		done
	done
done

# Draining on the h100-like preset, the event above or equal to the
# background's priority.
job h100-drain h100-drain.sim -s label=higher-priority -s EV.prio=1
job h100-drain h100-drain.sim -s label=equal-priority -s EV.prio=0

t0=${EPOCHREALTIME/[!0-9]/.}
# One edge-sim forks each: a shell and an exec per simulation cost more
# than most of the simulations.
"$SIM" batch -j "$JOBS" "$tmp/jobs"
t1=${EPOCHREALTIME/[!0-9]/.}
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
echo "repro-edge: $njob simulations in $secs s with $JOBS jobs" >&2

# The header of each figure's scenario: its stream's columns (ev.sched_avg
# and the rest) with the others.
for fig in fig11c fig12 fig13 h100-drain; do
	{
		"$SIM" -H "$SC/$fig.sim"
		cat "$tmp/$fig".*.csv
	} >"$RESULTS/$fig.csv"
done

# ---------------------------------------------------------------- tables
# awk over a CSV by column name: col["sched_avg"] is that column's index.
# shellcheck disable=SC2016 # awk's $, not the shell's
AWKHDR='BEGIN { FS = OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } function v(name) { return $(col[name]) }'

# Fig. 11c: average preemption latency per (victim, flush), per background.
awk "$AWKHDR"'
	{ k = v("victim") SUBSEP v("flush"); lat[k, v("background")] = v("preempt_avg") }
	END {
		print "victim,flush,CONV,MM,BP,BFS,avg"
		nf = split("none boost ibuf loads barrier all", fl, " ")
		split("CONV MM BP BFS", bg, " ")
		for (vi = 1; vi <= 2; vi++) {
			vic = vi == 1 ? "oldest" : "newest"
			for (f = 1; f <= nf; f++) {
				s = 0; line = vic "," fl[f]
				for (b = 1; b <= 4; b++) {
					x = lat[vic SUBSEP fl[f], bg[b]]; s += x
					line = line "," x
				}
				printf "%s,%.0f\n", line, s / 4
			}
		}
	}' "$RESULTS/fig11c.csv" >"$RESULTS/fig11c-summary.csv"

# Fig. 11b (flush none): share of preemptions each stall reason held for,
# and the cycles it held for per preemption (reasons overlap).
awk "$AWKHDR"'
	v("flush") == "none" {
		n[v("victim")] += v("preemptions")
		split("pipeline scoreboard load icache barrier membar", r, " ")
		for (i = 1; i <= 6; i++) {
			c[v("victim"), r[i]] += v("stall_" r[i] "_n")
			y[v("victim"), r[i]] += v("stall_" r[i] "_cyc")
		}
	}
	END {
		print "reason,oldest_pct,newest_pct,oldest_cycles,newest_cycles"
		split("pipeline scoreboard load icache barrier membar", r, " ")
		for (i = 1; i <= 6; i++)
			printf "%s,%.1f,%.1f,%.0f,%.0f\n", r[i],
				100 * c["oldest", r[i]] / n["oldest"],
				100 * c["newest", r[i]] / n["newest"],
				y["oldest", r[i]] / n["oldest"], y["newest", r[i]] / n["newest"]
	}' "$RESULTS/fig11c.csv" >"$RESULTS/fig11b-summary.csv"

# Fig. 12: min/avg/max scheduling latency per pair and policy.
awk "$AWKHDR"'
	{
		k = v("background") "/" v("ev_kernel")
		if (!(k in seen)) { seen[k] = 1; order[++n] = k }
		m[k, v("sched")] = v("sched_min") "," v("sched_avg") "," v("sched_max")
	}
	END {
		print "pair,drain_min,drain_avg,drain_max,preempt_min,preempt_avg,preempt_max"
		for (i = 1; i <= n; i++)
			print order[i], m[order[i], "drain"], m[order[i], "preempt"]
	}' "$RESULTS/fig12.csv" >"$RESULTS/fig12-summary.csv"

# Fig. 13: per pair, rate and policy; then the averages over the pairs.
awk "$AWKHDR"'
	{
		k = v("background") "/" v("ev_kernel")
		if (!(k in seen)) { seen[k] = 1; order[++n] = k }
		ev[v("label"), k, v("sched")] = v("ev_slowdown")
		bg[v("label"), k, v("sched")] = v("bg_slowdown")
		at[v("label"), k, v("sched")] = v("antt")
	}
	END {
		print "rate,pair,ev_drain,ev_reserve,ev_preempt,bg_drain,bg_reserve,bg_preempt,antt_drain,antt_reserve,antt_preempt"
		split("low high", rt, " "); split("drain reserve preempt", sc, " ")
		for (r = 1; r <= 2; r++) {
			for (i = 1; i <= n + 1; i++) {
				k = i <= n ? order[i] : "AVG"
				line = rt[r] "," k
				for (t = 1; t <= 3; t++) {
					for (s = 1; s <= 3; s++) {
						if (k == "AVG") {
							sum = 0
							for (j = 1; j <= n; j++) {
								kk = rt[r] SUBSEP order[j] SUBSEP sc[s]
								sum += t == 1 ? ev[kk] : t == 2 ? bg[kk] : at[kk]
							}
							x = sum / n
						} else {
							kk = rt[r] SUBSEP k SUBSEP sc[s]
							x = t == 1 ? ev[kk] : t == 2 ? bg[kk] : at[kk]
						}
						line = line "," sprintf("%.3f", x)
					}
				}
				print line
			}
		}
	}' "$RESULTS/fig13.csv" >"$RESULTS/fig13-summary.csv"

# h100-like draining, in units of a background TB and of the grid left.
awk "$AWKHDR"'
	NR == 2 { print "case,events,sched_avg,sched_max,tb_cycles,avg_tbs,max_tbs,remaining_bg_avg,avg_over_remaining" }
	{
		printf "%s,%d,%d,%d,%d,%.3f,%.3f,%d,%.3f\n", v("label"), v("sched_n"),
			v("sched_avg"), v("sched_max"), v("bg_tb_cycles"),
			v("sched_avg") / v("bg_tb_cycles"), v("sched_max") / v("bg_tb_cycles"),
			v("remaining_bg_avg"), v("sched_avg") / v("remaining_bg_avg")
	}' "$RESULTS/h100-drain.csv" >"$RESULTS/h100-drain-summary.csv"

# ---------------------------------------------------------------- plots
if [[ $PLOTS != 0 ]]; then
	if command -v gnuplot >/dev/null; then
		# Its own plots only: plots/ also holds the other reproductions'
		# scripts, which need variables only their own script sets.
		pairs=$((${#PAIR_BGS[@]} * ${#EVS[@]}))
		gp=()
		for f in fig11 fig12 fig13 h100; do
			gp+=("dir='$RESULTS'; pairs=$pairs" "$here/plots/$f.gp")
		done
		repro_gnuplot "${gp[@]}"
		# One fig11c run's timeline (edge-sim -T, Chrome's JSON trace
		# format): TBs per core lane, preemptions, kernels.
		(cd "$SC" && "$SIM" -s runs=1 -T "$RESULTS/fig11c-trace.json" \
			-o /dev/null fig11c.sim)
		# Debian's python3 (the standard library is all it needs)
		# when there is one: a version manager's shim before it in
		# PATH (pyenv's: 16 bash scripts) cost more than the drawing.
		py=python3
		[[ ! -x /usr/bin/python3 ]] || py=/usr/bin/python3
		"$py" "$here/plots/timeline.py" "$RESULTS/fig11c-trace.json" \
			"$RESULTS/fig11c-timeline.png" \
			'fig11c, one run: IPV4 events preempting CONV (edge-sim -T, edge preset)' \
			>/dev/null
		rm -f "$RESULTS/fig11c-trace.json"
	else
		echo "repro-edge: no gnuplot (Debian gnuplot-nox): no plots" >&2
	fi
fi

# ---------------------------------------------------------------- headline
{
	# Fig. 12: mean over the pairs of drain latency / the same for preempt
	# (avg: sched_avg; tail: sched_max), over all 16 pairs and over the
	# pairs whose background every event can preempt (CONV, MM).
	awk "$AWKHDR"'
		{
			x = v("sched") == "drain" ? 1 : 2
			a[x] += v("sched_avg"); t[x] += v("sched_max")
			if (v("background") == "CONV" || v("background") == "MM") {
				pa[x] += v("sched_avg"); pt[x] += v("sched_max")
			}
		}
		END {
			printf "fig12_preempt_vs_drain_avg=%.2f\n", a[1] / a[2]
			printf "fig12_preempt_vs_drain_tail=%.2f\n", t[1] / t[2]
			printf "fig12_preemptible_only_avg=%.2f\n", pa[1] / pa[2]
			printf "fig12_preemptible_only_tail=%.2f\n", pt[1] / pt[2]
		}' "$RESULTS/fig12.csv"
	# Fig. 11c: mean preemption latency over the backgrounds without any
	# flushing optimisation / with all four.
	awk "$AWKHDR"'
		v("flush") == "none" { base[v("victim")] += v("preempt_avg") }
		v("flush") == "all" { opt[v("victim")] += v("preempt_avg") }
		END {
			printf "fig11_flush_opt_gain_oldest=%.2f\n", base["oldest"] / opt["oldest"]
			printf "fig11_flush_opt_gain_newest=%.2f\n", base["newest"] / opt["newest"]
		}' "$RESULTS/fig11c.csv"
	# Fig. 13, high rate: mean ANTT over the pairs under draining (resp.
	# reservation) / under preemption.
	awk -F, '$1 == "high" && $2 == "AVG" {
			printf "fig13_event_antt_vs_drain_high=%.2f\n", $9 / $11
			printf "fig13_event_antt_vs_reserve_high=%.2f\n", $10 / $11
		}' "$RESULTS/fig13-summary.csv"
} >"$RESULTS/headline.txt"
cat "$RESULTS/headline.txt"
