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
