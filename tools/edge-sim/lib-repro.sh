# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# lib-repro.sh: what every tools/edge-sim/repro-NAME.sh shares.  Source it,
# then call
#
#   repro_init NAME
#
# which sets here (tools/edge-sim), top (the tree), SIM (edge-sim; built
# with make when EDGE_SIM is unset), RESULTS, JOBS, PLOTS, SMOKE (0 or 1)
# and tmp (a scratch folder, removed on exit), from the environment:
#
#   EDGE_SIM     the binary
#   RESULTS      output folder; default Documentation/results/NAME
#   JOBS         parallel simulations; default 2
#   PLOTS=0      skip gnuplot
#   REPRO_SMOKE=1  a short run (fewer workloads, pairs or seeds: each script
#                says which) that exercises every step, plots included, for
#                make check (tools/vm/repro-smoke.sh).  Its numbers are not
#                the reproduction's, so its RESULTS default to
#                build/repro-smoke/NAME and may not be in Documentation/.
#
# It also has repro_table (below), for a workload x policy table, and
# repro_gnuplot, for a reproduction's plots in one gnuplot.
#
# A new reproduction is a new repro-NAME.sh that uses this: the Makefiles
# and make check find it by that name.

repro_init() {
	local name=$1 docs res

	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	top=$(cd "$here/../.." && pwd)
	SIM=${EDGE_SIM:-}
	JOBS=${JOBS:-2}
	PLOTS=${PLOTS:-1}
	SMOKE=0
	[[ ${REPRO_SMOKE:-0} == 0 ]] || SMOKE=1
	if ((SMOKE)); then
		RESULTS=${RESULTS:-$top/build/repro-smoke/$name}
		docs=$(realpath -m "$top/Documentation")
		res=$(realpath -m "$RESULTS")
		if [[ $res == "$docs" || $res == "$docs"/* ]]; then
			echo "repro-$name: REPRO_SMOKE=1 writes no results into $docs" >&2
			exit 1
		fi
	else
		RESULTS=${RESULTS:-$top/Documentation/results/$name}
	fi

	if [[ -z $SIM ]]; then
		make -s -C "$here" O="$top/build/host" >&2
		SIM=$top/build/host/edge-sim
	fi
	[[ -x $SIM ]] || { echo "repro-$name: no edge-sim at $SIM" >&2; exit 1; }
	mkdir -p "$RESULTS"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now: tmp is global and may change
	trap "rm -rf '$tmp'" EXIT
}

# repro_gnuplot VARS SCRIPT [VARS SCRIPT]...: each plot SCRIPT of plots/
# with its variables set by VARS (gnuplot statements), all in one gnuplot,
# each from a fresh session (reset session: no variable of the one before
# it).  One process: starting gnuplot and its cairo and fonts cost more
# than drawing one of these; the PNGs are the same to the byte.
repro_gnuplot() {
	local args=()

	while (($# >= 2)); do
		args+=(-e "reset session" -e "$1" "$2")
		shift 2
	done
	gnuplot "${args[@]}"
}

# repro_table POLICIES [mean | over BASE]: a workload x policy table, from
# "workload,policy,value" lines on stdin, to stdout: a header, then one row
# per workload in the order they first come, one column per policy of
# POLICIES (a space or comma list), in its order.  The values are
#   (neither)  as they are
#   mean       %.1f, and a MEAN row
#   over BASE  (value + 1) / (BASE's value + 1), %.2f, and a GMEAN row:
#              counts over a base policy's, finite when either is 0
repro_table() {
	awk -F, -v pols="$1" -v kind="${2:-raw}" -v base="${3:-}" '
	{ v[$1, $2] = $3; if (!seen[$1]++) wl[n++] = $1 }
	END {
		gsub(/,/, " ", pols)
		np = split(pols, p, " ")
		printf "workload"
		for (i = 1; i <= np; i++) printf ",%s", p[i]
		printf "\n"
		for (w = 0; w < n; w++) {
			printf "%s", wl[w]
			for (i = 1; i <= np; i++) {
				x = v[wl[w], p[i]]
				if (kind == "over") {
					x = (x + 1) / (v[wl[w], base] + 1)
					acc[i] += log(x)
					printf ",%.2f", x
				} else if (kind == "mean") {
					acc[i] += x
					printf ",%.1f", x
				} else {
					printf ",%s", x
				}
			}
			printf "\n"
		}
		if (kind == "raw")
			exit
		printf "%s", kind == "over" ? "GMEAN" : "MEAN"
		for (i = 1; i <= np; i++)
			printf kind == "over" ? ",%.2f" : ",%.1f",
				kind == "over" ? exp(acc[i] / n) : acc[i] / n
		printf "\n"
	}'
}
