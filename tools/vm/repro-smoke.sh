#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's smoke run of the reproductions: `make repro-NAME
# REPRO_SMOKE=1` for every NAME that `make print-repros` lists (one per
# tools/edge-sim/repro-NAME.sh), each a few seconds, into
# BUILD_DIR/repro-smoke/NAME.  TAP, one test per reproduction:
#
#   ok N repro.NAME # S s, H headline values, P plots
#   not ok N repro.NAME # <why>
#
# A reproduction fails when make fails, when its standard output does not
# end with name=value lines, when a name of the committed headline
# (Documentation/results/NAME/headline.txt) is missing or not a number,
# when a plot committed there (*.png) is not drawn, or when the run
# changed anything under Documentation/results/.  The numbers themselves
# are not checked: a smoke run is too short to mean anything.
#
# Usage: repro-smoke.sh BUILD_DIR
set -uo pipefail
build=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
docs=$top/Documentation/results

# Everything under Documentation/results/, to show a smoke run wrote none.
fingerprint() {
	(cd "$docs" && find . -type f -print0 | sort -z | xargs -0 md5sum) | md5sum
}

read -ra repros < <(make -s -C "$top" --no-print-directory print-repros)
echo "TAP version 13"
echo "1..${#repros[@]}"
n=0
fail=0
for r in "${repros[@]}"; do
	n=$((n + 1))
	out=$build/repro-smoke/$r
	rm -rf "$out"
	mkdir -p "$out"
	before=$(fingerprint)
	t0=$(date +%s%N)
	make -s -C "$top" --no-print-directory "repro-$r" REPRO_SMOKE=1 \
		RESULTS="$out" >"$out.stdout" 2>"$out.stderr"
	rc=$?
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')

	why=()
	((rc == 0)) || why+=("make repro-$r exited $rc")
	# The headline: the name=value lines that end standard output.
	head=$(tac "$out.stdout" | awk '!/^[a-z0-9_]+=/ { exit } { print }')
	nhead=$(grep -c . <<<"$head")
	if [[ -z $head ]]; then
		why+=("no name=value lines at the end of its output")
	elif [[ -r $docs/$r/headline.txt ]]; then
		while IFS='=' read -r name _; do
			[[ $name =~ ^[a-z0-9_]+$ ]] || continue
			v=$(sed -n "s/^$name=//p" <<<"$head")
			[[ $v =~ ^-?[0-9]+(\.[0-9]+)?$ ]] ||
				why+=("headline $name='$v'")
		done <"$docs/$r/headline.txt"
	fi
	nplots=0
	for png in "$docs/$r"/*.png; do
		[[ -e $png ]] || continue
		if [[ -s $out/${png##*/} ]]; then
			nplots=$((nplots + 1))
		else
			why+=("no ${png##*/}")
		fi
	done
	[[ $(fingerprint) == "$before" ]] || why+=("it changed Documentation/results/")

	if ((${#why[@]} == 0)); then
		echo "ok $n repro.$r # $secs s, $nhead headline values, $nplots plots"
	else
		fail=$((fail + 1))
		reasons=$(printf '%s; ' "${why[@]}")
		echo "not ok $n repro.$r # ${reasons%; }"
		tail -n 5 "$out.stderr" | sed 's/^/# /'
	fi
done
((fail == 0))
