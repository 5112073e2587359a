#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mutate: how much of the model's behaviour the tests pin down.
# Each one-line mutant of tools/mutants.txt is applied, one at a time, to
# a scratch copy of the tree (never to the tree itself), and the copy
# runs the host unit tests (selftests/emul) and then the reproductions'
# comparison (tools/vm/repro-check.sh, REPRO_TOL=0: byte-identical).  A
# mutant is caught when either fails; the first failing check ends it.
#
#   tools/mutate.sh [NAME ...]     (or: make mutate [MUTANTS="NAME ..."])
#
# Prints one line per mutant
#
#   caught NAME: host FILE_test       (the first failing test binary)
#   caught NAME: repro.R              (the first differing reproduction)
#   SURVIVED NAME (FILE)
#
# and at the end "mutants_caught=N/M".  Exits non-zero when a mutant's
# pattern is not found exactly once in its file (the list is stale),
# when the unmutated copy fails a check, or when fewer than MUTATE_MIN_PCT
# (default 90) per cent are caught.
#
# For speed the copy is built once, unmutated, and then only the mutated
# file's objects are rebuilt (make -j2): the host tests without the
# sanitizers (make check runs them with ASan+UBSan; here only a changed
# result matters), edge-sim at -O2 without LTO (the unmutated copy's
# results are checked byte-identical first).  Each test binary and each
# reproduction has a time limit (MUTATE_TIMEOUT, default 120 s): a
# mutant that hangs is caught by it.
#
# tools/mutants.txt: one mutant a line, four fields separated by " @@ ":
#
#   NAME @@ FILE @@ TEXT @@ REPLACEMENT
#
# TEXT is a fixed string (no regular expression) that must occur exactly
# once in FILE; it is replaced by REPLACEMENT.  "#" lines and blank lines
# are ignored.  Environment: MUTATE_DIR (scratch; default a mktemp -d
# under /tmp, removed at the end), MUTATE_KEEP=1 (keep it), MUTATE_TIMEOUT,
# MUTATE_MIN_PCT, CACHE (for the kselftest headers, .cache/ksft).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
list=$top/tools/mutants.txt
ksft=${KSFT_DIR:-${CACHE:-$top/.cache}/ksft}
limit=${MUTATE_TIMEOUT:-120}
minpct=${MUTATE_MIN_PCT:-90}
[[ -r $ksft/kselftest_harness.h ]] || {
	echo "mutate: no $ksft/kselftest_harness.h (make ksft)" >&2
	exit 2
}

scratch=${MUTATE_DIR:-$(mktemp -d /tmp/edge-mutate.XXXXXX)}
case $(realpath -m "$scratch") in
"$top" | "$top"/*)
	echo "mutate: the scratch copy may not be inside the tree" >&2
	exit 2
	;;
esac
if [[ ${MUTATE_KEEP:-0} == 0 && -z ${MUTATE_DIR:-} ]]; then
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$scratch'" EXIT
fi

# The parts of the tree the checks read.
mkdir -p "$scratch"
(cd "$top" && tar cf - emul uapi selftests/emul tools/edge-sim \
	tools/vm/repro-check.sh Documentation/results) |
	(cd "$scratch" && tar xf -) || exit 2
bld=$scratch/build/host
sim=$bld/edge-sim

# edge-sim from objects, so a mutant recompiles one file; no LTO.
cat >"$scratch/sim.mk" <<'EOF'
SRCS := $(wildcard emul/*.c emul/*/*.c) \
	$(addprefix tools/edge-sim/,edge-sim.c simscen.c jobsim.c pairsim.c \
	claiusim.c claiusgrp.c mgbsim.c simtrace.c simutil.c)
OBJS := $(patsubst %.c,build/sim/%.o,$(SRCS))
build/host/edge-sim: $(OBJS)
	@mkdir -p $(@D)
	$(CC) -o $@ $(OBJS)
build/sim/%.o: %.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Iemul -Iuapi -MMD -MP -c -o $@ $<
-include $(OBJS:.o=.d)
EOF

build() {
	make -s -j2 -C "$scratch/selftests/emul" KSFT_DIR="$ksft" O="$bld" \
		SANITIZE= all >"$scratch/build.log" 2>&1 &&
		make -s -j2 -C "$scratch" -f sim.mk >>"$scratch/build.log" 2>&1
}

# The reproductions, the one most likely to notice a change in FILE
# first (the others after it, shortest first): only the order differs.
order() {
	local first
	case ${1:-} in
	*/srtf.c | */slicing.c | */share.c) first=srtf ;;
	*/claius.c | */baymax.c | */mps.c) first=claius ;;
	*/mgb.c | */mgblive.c) first=mgb ;;
	emul/cp/* | */lax.c | */simple.c | */host.c | */prema.c | */table.c) first=lax ;;
	*) first=edge ;;
	esac
	echo "$first" "$(printf '%s\n' srtf edge mgb lax claius |
		grep -vx "$first" | tr '\n' ' ')"
}

# check [FILE]: prints what caught it ("host X", "repro.R", "build"), or
# nothing; returns 0 when every check passed.
check() {
	local t out
	rm -f "$bld"/selftests/emul/*.ran
	if ! build; then
		echo "build"
		return 1
	fi
	# The order tests first: small and quick, and they catch the most.
	for t in "$bld"/selftests/emul/{qorder,tborder,deadline,place,srtf,cp,cp_lax}_test \
		"$bld"/selftests/emul/*_test; do
		[[ -x $t && ! -e $t.ran ]] || continue
		touch "$t.ran"
		if ! (cd "$scratch/selftests/emul" &&
			timeout "$limit" "$t" >"$t.out" 2>&1); then
			echo "host ${t##*/}"
			return 1
		fi
	done
	if ! out=$(cd "$scratch" && EDGE_SIM=$sim REPRO_TOL=0 PLOTS=0 \
		REPRO_STOP_FIRST=1 REPRO_QUIET=1 \
		REPRO_ONLY="$(order "${1:-}")" \
		timeout $((limit * 5)) tools/vm/repro-check.sh "$scratch/build"); then
		t=$(sed -n 's/^not ok [0-9]* \(repro\.[a-z0-9_]*\).*/\1/p' <<<"$out")
		echo "${t:-repro (time-out)}"
		return 1
	fi
	return 0
}

# The mutants: NAME, FILE, TEXT, REPLACEMENT.
names=() files=() texts=() repls=()
while IFS= read -r line; do
	[[ -z ${line// /} || $line == \#* ]] && continue
	rest=$line
	fld=()
	for _ in 1 2 3; do
		[[ $rest == *" @@ "* ]] || break
		fld+=("${rest%%" @@ "*}")
		rest=${rest#*" @@ "}
	done
	fld+=("$rest")
	if ((${#fld[@]} != 4)); then
		echo "mutate: $list: not NAME @@ FILE @@ TEXT @@ REPLACEMENT: $line" >&2
		exit 2
	fi
	names+=("${fld[0]}") files+=("${fld[1]}") texts+=("${fld[2]}")
	repls+=("${fld[3]}")
done <"$list"

# Only the names given, if any (MUTANTS in make mutate).
want=" $* "
bad=0
for i in "${!names[@]}"; do
	n=$(grep -cF -- "${texts[i]}" "$scratch/${files[i]}" 2>/dev/null)
	if [[ $n != 1 ]]; then
		echo "mutate: ${names[i]}: '${texts[i]}' is in ${files[i]} ${n:-0} times, not once" >&2
		bad=1
	fi
done
((bad == 0)) || exit 2

echo "mutate: ${#names[@]} mutants, scratch copy $scratch"
t0=$(date +%s)
if why=$(check); then
	echo "mutate: the unmutated copy passes every check ($(($(date +%s) - t0)) s)"
else
	echo "mutate: the unmutated copy fails: $why (see $scratch)" >&2
	tail -n 20 "$scratch/build.log" >&2
	exit 2
fi

caught=0
total=0
survivors=()
for i in "${!names[@]}"; do
	[[ $# == 0 || $want == *" ${names[i]} "* ]] || continue
	total=$((total + 1))
	f=$scratch/${files[i]}
	cp -p "$f" "$f.orig"
	TEXT=${texts[i]} REPL=${repls[i]} perl -0pi -e \
		's/\Q$ENV{TEXT}\E/$ENV{REPL}/' "$f"
	touch "$f"
	t1=$(date +%s)
	if why=$(check "${files[i]}"); then
		survivors+=("${names[i]}")
		echo "SURVIVED ${names[i]} (${files[i]}, $(($(date +%s) - t1)) s)"
	else
		caught=$((caught + 1))
		echo "caught ${names[i]}: $why ($(($(date +%s) - t1)) s)"
	fi
	mv "$f.orig" "$f"
	touch "$f"
done
echo "mutate: $(($(date +%s) - t0)) s"
((${#survivors[@]} == 0)) || echo "mutate: survived: ${survivors[*]}"
echo "mutants_caught=$caught/$total"
((total > 0 && caught * 100 >= total * minpct))
