#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-repros.sh: `make repro`, every reproduction (the names given: make
# passes each repro-NAME.sh's NAME), each into its
# Documentation/results/NAME/, then Documentation/results/README.rst: one
# table, each paper's headline figure beside ours and a verdict.
#
#   tools/edge-sim/run-repros.sh edge lax srtf claius mgb
#
# The reproductions run at once: each is a few CPU-bound simulations with
# serial parts (awk, plots) between them, so one at a time left a core
# idle at every such part.  Together the two cores stay busy until the
# end, and the set takes its CPU time over two.  Their outputs are their
# own (each writes only its folder; logs in build/repro/NAME.*), and the
# results do not depend on what else runs, so they are the same.
#
# Prints, in the order given, repro_NAME_seconds (that reproduction's
# wall time, start to end: beside the others, so longer than alone) and
# repro_NAME_cpu_seconds (its CPU time, user + system, children
# included: what it costs, whatever else runs), then repro_cpu_seconds
# (their sum) and repro_seconds, the set's wall time.  None of them is written into the README, which stays
# the same from run to run when the results do.  REPRO_SERIAL=1 runs them
# one at a time, as before: then each repro_NAME_seconds is its own.
#
# Environment: EDGE_SIM (default: built here), JOBS, PLOTS (passed on),
# REPRO_SERIAL.
# Not named repro-*.sh: that pattern is a reproduction of its own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
if [[ -z ${EDGE_SIM:-} ]]; then
	make -s -C "$here" O="$top/build/host" >&2
	EDGE_SIM=$top/build/host/edge-sim
fi
export EDGE_SIM
log=$top/build/repro
mkdir -p "$log"

# now: the time, into $now (bash's clock: no date process, no subshell).
now() { now=${EPOCHREALTIME/[!0-9]/.}; }
since() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# one NAME: a reproduction, its output into build/repro/NAME.*, then its
# wall time (start and end in NAME.time) and its children's CPU time
# (bash's times: the second line, user and system).
one() {
	local r=$1 rc=0 t

	now
	t=$now
	"$here/repro-$r.sh" >"$log/$r.out" 2>"$log/$r.err" || rc=$?
	# Not in a pipe: there times runs in a fresh subshell and says 0.
	times >"$log/$r.cpu"
	now
	awk -v a="$t" -v b="$now" -v rc="$rc" '
		function sec(x,   m) {
			m = x; sub(/m.*/, "", m)
			sub(/^[0-9]+m/, "", x); sub(/s$/, "", x)
			return m * 60 + x
		}
		NR == 2 { printf "%s %s %.2f %d\n", a, b, sec($1) + sec($2), rc }' \
		"$log/$r.cpu" >"$log/$r.time"
}

now
t0=$now
pids=()
for r in "$@"; do
	rm -f "$log/$r.time"
	if [[ ${REPRO_SERIAL:-0} != 0 ]]; then
		(one "$r")
	else
		one "$r" &
		pids+=($!)
	fi
done
((${#pids[@]} == 0)) || wait "${pids[@]}"
now
total=$(since "$t0" "$now")

failed=0
cpus=()
for r in "$@"; do
	read -r a b cpu rc <"$log/$r.time" || { a=0 b=0 cpu=0 rc=1; }
	if ((rc)); then
		cat "$log/$r.err" >&2
		echo "run-repros: repro-$r failed (log in $log/$r.*)" >&2
		failed=1
		continue
	fi
	echo "repro_${r}_seconds=$(since "$a" "$b")"
	echo "repro_${r}_cpu_seconds=$cpu"
	cpus+=("$cpu")
done
((!failed)) || exit 1

# The headline figure of each paper: reproduction, name in its
# headline.txt, the paper's value, the paper, what the figure is, and its
# basis as the reproduction's README marks it (P predicted, P/f predicted
# given parameters fitted to another figure, C calibrated).
rows() {
	cat <<'EOF'
edge|fig12_preempt_vs_drain_avg|2.6|EDGE (Hetherington et al.)|event scheduling latency, draining over preemption (Fig. 12)|C
lax|lax_vs_rr_geomean_high|4.2|LAX (Iyer et al.)|deadlines met over RR, geomean, high rate|P/f
srtf|srtf_vs_fifo_antt|2.25|SRTF (Pai et al.)|ANTT, FIFO over SRTF (Table 5: 3.66 / 1.63)|P/f
claius|claius_vs_baymax_util|1.42|C-Laius (Zhang et al.)|batch utilisation, C-Laius over Baymax|P/f
claius|multi_claius_vs_static_util|1.36|C-Laius (Zhang et al.)|two services, batch utilisation over the static optimum (Fig. 19)|P/f
mgb|mgb_vs_sa_p100|2.2|MGB (Chen et al.)|throughput over SA, 2 x P100 (Fig. 5)|C
mgb|mgb_vs_sa_v100|2.0|MGB (Chen et al.)|throughput over SA, 4 x V100 (Fig. 5)|C
mgb|mgb_vs_cg_p100|1.64|MGB (Chen et al.)|throughput over CG, 2 x P100|C
mgb|mgb_vs_cg_v100|1.41|MGB (Chen et al.)|throughput over CG, 4 x V100|C
mgb|alg3_vs_alg2|1.21|MGB (Chen et al.)|throughput, Alg. 3 over Alg. 2 (Fig. 4)|C
mgb|cg_crash_pct_max|50|MGB (Chen et al.)|most CG jobs crashed on memory, % (Table II)|C
EOF
}

readme=$top/Documentation/results/README.rst
{
	cat <<'EOF'
.. SPDX-License-Identifier: GPL-2.0

===========================
The reproductions at a look
===========================

``make repro`` runs every reproduction (``tools/edge-sim/repro-*.sh``) and
writes this page from their ``headline.txt``: each paper's headline figure
beside ours.  Verdict: "reproduced" within 10 % of the paper, "within
30 %", "trend" when only the direction (above or below 1) agrees, "not
reproduced" otherwise.  Each reproduction's README says why it differs.
Basis, as each README's parameter table marks it: "P" predicted from the
paper's inputs alone, "P/f" predicted given parameters fitted to another
of the paper's figures (named in the README, and not one of these), "C"
calibrated: a parameter was fitted to this figure or moves it (MGB's
large-job memory, fitted to Table II; EDGE's workloads, fitted to Figs.
11 - 13).

EOF
	rows | awk -F'|' -v res="$top/Documentation/results" '
	function val(r, n,   f, line, v) {
		f = res "/" r "/headline.txt"; v = "NaN"
		while ((getline line < f) > 0)
			if (index(line, n "=") == 1) v = substr(line, length(n) + 2)
		close(f)
		return v
	}
	{
		ours = val($1, $2); p = $3 + 0
		if (ours == "NaN") verdict = "missing"
		else {
			q = (ours + 0) / p
			if (q >= 0.9 && q <= 1.1) verdict = "reproduced"
			else if (q >= 0.7 && q <= 1.3) verdict = sprintf("within 30 %% (%+d %%)", (q - 1) * 100)
			else if ((ours > 1) == (p > 1)) verdict = sprintf("trend (%+d %%)", (q - 1) * 100)
			else verdict = "not reproduced"
		}
		n++; P[n] = $4; F[n] = $5; Pv[n] = $3; O[n] = ours; V[n] = verdict; N[n] = $2; R[n] = $1; B[n] = $6
	}
	END {
		w1 = 28; w2 = 7; w3 = 7; w4 = 7; w5 = 24
		for (i = 1; i <= n; i++) {
			if (length(F[i]) > w2) w2 = length(F[i])
			if (length(N[i]) + length(R[i]) + 7 > w2) w2 = length(N[i]) + length(R[i]) + 7
		}
		sep = sprintf("%s  %s  %s  %s  %s  %s", rep(w1), rep(w2), rep(w3), rep(w4), rep(5), rep(w5))
		print sep
		printf "%-" w1 "s  %-" w2 "s  %-" w3 "s  %-" w4 "s  %-5s  %s\n", "paper", "figure (headline name)", "paper", "ours", "basis", "verdict"
		print sep
		for (i = 1; i <= n; i++) {
			printf "%-" w1 "s  %-" w2 "s  %-" w3 "s  %-" w4 "s  %-5s  %s\n", P[i], F[i], Pv[i], O[i], B[i], V[i]
			printf "%-" w1 "s  %s\n", "", "``" N[i] "`` (" R[i] ")"
		}
		print sep
	}
	function rep(k,   s) { s = ""; while (k-- > 0) s = s "="; return s }'
	cat <<'EOF'

The figures are each reproduction's own: ``results/edge/README``,
``results/lax/README``, ``results/srtf/README``, ``results/claius/README``,
``results/mgb/README``.

Hold-out workloads, not the papers': C-Laius's 15 two-service groups
beside a compute-bound batch application (HS) as well as BFS
(``multi_claius_vs_static_util_hs`` in ``results/claius/headline.txt``),
and the eight generated service/batch mixes of
``selftests/emul/claius_mono_test.c`` (a looser target never adds a
violation); ``results/claius/README`` says what each shows.
EOF
} >"$readme"
echo "repro_cpu_seconds=$(printf '%s\n' "${cpus[@]}" | awk '{ s += $1 } END { printf "%.2f", s }')"
echo "repro_seconds=$total"
