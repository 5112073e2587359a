#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's regression test of the reproductions: `make repro-NAME`
# in full for every NAME that `make print-repros` lists (one per
# tools/edge-sim/repro-NAME.sh, run through tools/edge-sim's Makefile),
# each into BUILD_DIR/repro-check/NAME (never Documentation/), and its
# results compared with the committed ones in Documentation/results/NAME/.
# TAP, one test per reproduction:
#
#   ok N repro.NAME # S s, F files identical, H headline values, P plots
#   not ok N repro.NAME # <why>
#
# then "repro_csv_identical=I/N": the reproductions whose every committed
# CSV and headline.txt came out byte-identical.
#
# A reproduction fails when
#   - make fails, or its standard output does not end with name=value
#     lines, or a name of the committed headline.txt is missing there, is
#     not a number or differs from the committed value;
#   - a committed *.csv or headline.txt is not written, or differs from
#     the committed one beyond the tolerance below, or the run writes a
#     CSV that is not committed;
#   - a plot committed there (*.png) is not drawn (PLOTS=0: not drawn,
#     not checked);
#   - the run changed anything under Documentation/results/.
#
# The tolerance, REPRO_TOL (default 1): a file that is not byte-identical
# still passes when it has the same lines and fields (split at "," and
# "="), every field that is not a decimal fraction is the same text, and
# every decimal fraction (a number with a ".") is within REPRO_TOL units
# of its last printed digit of the committed value (1: 2.69 may be 2.68
# or 2.70, never 2.71; counts, which are integers, must be equal).  It is
# for floating point that rounds the other way under another compiler or
# libm; such a pass is reported ("# within REPRO_TOL=1: ...") and is not
# counted in repro_csv_identical.  REPRO_TOL=0: byte-identical or fail.
#
# Measured on 2 shared cores: the five take 32 s with PLOTS=0 (srtf 1.3,
# edge 4.4, mgb 4.9, lax 10.7, claius 11.0) and 58 s with the plots
# under a load of 6 (srtf 3.0, edge 7.9, lax 12.8, mgb 10.3, claius
# 23.8); edge-sim's LTO build adds about 25 s when emul/ changed.  A
# change that moves a result must re-commit the results (make repro) in
# the same commit, with the reason.
#
# Environment: REPRO_TOL, PLOTS, REPRO_ONLY="NAME ..." (only these, in
# this order), REPRO_STOP_FIRST=1 (stop at the first failing one: make
# mutate), REPRO_QUIET=1 (no stderr tail on failure).
#
# Usage: repro-check.sh BUILD_DIR
set -uo pipefail
build=$(mkdir -p "$1" && cd "$1" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
docs=$top/Documentation/results
tol=${REPRO_TOL:-1}
if ! [[ $tol =~ ^[0-9]+$ ]]; then
	echo "repro-check: REPRO_TOL=$tol: not a count" >&2
	exit 2
fi

# Everything under Documentation/results/, to show a run wrote none.
fingerprint() {
	(cd "$docs" && find . -type f -print0 | sort -z | xargs -0 md5sum) | md5sum
}

# within COMMITTED GOT: exit 0 when GOT is within the tolerance of
# COMMITTED (see above); prints how many values differ, or the first
# difference beyond it.
within() {
	awk -v tol="$tol" -v f1="$1" -v f2="$2" '
	function isfrac(x) { return x ~ /^-?[0-9]+\.[0-9]+$/ }
	function decs(x) { return length(x) - index(x, ".") }
	BEGIN {
		n = 0; off = 0
		while ((r1 = getline a < f1) > 0) {
			n++
			if ((getline b < f2) <= 0) { printf "line %d: missing\n", n; exit 1 }
			if (a == b) continue
			na = split(a, A, /[,=]/); nb = split(b, B, /[,=]/)
			if (na != nb) { printf "line %d: %d fields, not %d\n", n, nb, na; exit 1 }
			for (i = 1; i <= na; i++) {
				if (A[i] == B[i]) continue
				if (!isfrac(A[i]) || !isfrac(B[i])) {
					printf "line %d field %d: %s, not %s\n", n, i, B[i], A[i]; exit 1
				}
				d = decs(A[i]) > decs(B[i]) ? decs(A[i]) : decs(B[i])
				diff = A[i] - B[i]; if (diff < 0) diff = -diff
				if (diff > tol * 10 ^ -d + 1e-12) {
					printf "line %d field %d: %s, not %s\n", n, i, B[i], A[i]; exit 1
				}
				off++
			}
		}
		if ((getline b < f2) > 0) { printf "line %d: extra\n", n + 1; exit 1 }
		printf "%d values off", off
	}'
}

if [[ -n ${REPRO_ONLY:-} ]]; then
	read -ra repros <<<"$REPRO_ONLY"
else
	# make print-repros's list, without the top Makefile (which would
	# fetch the kernel first when .cache/ has none).
	repros=()
	for f in "$top"/tools/edge-sim/repro-*.sh; do
		[[ -e $f ]] || continue
		f=${f##*/repro-}
		repros+=("${f%.sh}")
	done
fi
echo "TAP version 13"
echo "1..${#repros[@]}"
n=0
fail=0
identical=0
for r in "${repros[@]}"; do
	n=$((n + 1))
	out=$build/repro-check/$r
	rm -rf "$out"
	mkdir -p "$out"
	before=$(fingerprint)
	t0=$(date +%s%N)
	# edge-sim's Makefile: builds edge-sim into build/host, runs it.
	make -s -C "$top/tools/edge-sim" --no-print-directory \
		O="$top/build/host" "repro-$r" RESULTS="$out" \
		>"$out.stdout" 2>"$out.stderr"
	rc=$?
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')

	why=()
	tolnote=()
	((rc == 0)) || why+=("make repro-$r exited $rc")
	# The headline: the name=value lines that end standard output.
	head=$(tac "$out.stdout" | awk '!/^[a-z0-9_]+=/ { exit } { print }')
	nhead=$(grep -c . <<<"$head")
	if [[ -z $head ]]; then
		why+=("no name=value lines at the end of its output")
	elif [[ -r $docs/$r/headline.txt ]]; then
		while IFS='=' read -r name want; do
			[[ $name =~ ^[a-z0-9_]+$ ]] || continue
			v=$(sed -n "s/^$name=//p" <<<"$head")
			if ! [[ $v =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then
				why+=("headline $name='$v'")
			elif [[ $v != "$want" ]]; then
				# Judged with the file below; named here.
				[[ $tol != 0 ]] || why+=("headline $name=$v, committed $want")
			fi
		done <"$docs/$r/headline.txt"
	fi

	# The committed CSVs and headline, against this run's.
	nsame=0
	nfiles=0
	for f in "$docs/$r"/*.csv "$docs/$r/headline.txt"; do
		[[ -e $f ]] || continue
		b=${f##*/}
		nfiles=$((nfiles + 1))
		if [[ ! -e $out/$b ]]; then
			why+=("no $b")
		elif cmp -s "$f" "$out/$b"; then
			nsame=$((nsame + 1))
		elif ((tol == 0)); then
			why+=("$b differs: $(diff "$f" "$out/$b" | sed -n 2p | cut -c1-80)")
		elif note=$(within "$f" "$out/$b"); then
			tolnote+=("$b: $note")
		else
			why+=("$b differs beyond REPRO_TOL=$tol: $note")
		fi
	done
	for f in "$out"/*.csv; do
		[[ -e $f ]] || continue
		[[ -e $docs/$r/${f##*/} ]] || why+=("${f##*/} is not committed")
	done
	((nfiles > 0)) || why+=("nothing committed in Documentation/results/$r")

	nplots=0
	if [[ ${PLOTS:-1} != 0 ]]; then
		for png in "$docs/$r"/*.png; do
			[[ -e $png ]] || continue
			if [[ -s $out/${png##*/} ]]; then
				nplots=$((nplots + 1))
			else
				why+=("no ${png##*/}")
			fi
		done
	fi
	[[ $(fingerprint) == "$before" ]] || why+=("it changed Documentation/results/")

	if ((${#why[@]} == 0)); then
		if ((${#tolnote[@]} == 0)); then
			identical=$((identical + 1))
			note="$nfiles files identical"
		else
			note=$(printf '%s; ' "${tolnote[@]}")
			note="$nsame of $nfiles files identical, within REPRO_TOL=$tol: ${note%; }"
		fi
		echo "ok $n repro.$r # $secs s, $note, $nhead headline values, $nplots plots"
	else
		fail=$((fail + 1))
		reasons=$(printf '%s; ' "${why[@]}")
		echo "not ok $n repro.$r # ${reasons%; }"
		[[ ${REPRO_QUIET:-0} != 0 ]] || tail -n 5 "$out.stderr" | sed 's/^/# /'
		[[ ${REPRO_STOP_FIRST:-0} == 0 ]] || break
	fi
done
echo "repro_csv_identical=$identical/${#repros[@]}"
((fail == 0))
