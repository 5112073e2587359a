#!/bin/bash
# Sum up TAP/KTAP results over one or more files, and refuse to report a
# pass that did not happen.
#
# Usage: tap-summary.sh [--since STAMP] [--allow LIST] [--failed-stage NAME]...
#                       FILE...
#   --since STAMP        a file made when the run began: a FILE older than
#                        it is stale (left by an earlier run) and counts as
#                        a failure, its results unread;
#   --allow LIST         the skip allow-list (default: skip-allow.txt beside
#                        this script);
#   --failed-stage NAME  a stage of the run that exited non-zero: one
#                        failure, whatever its TAP says.
#
# A result is a line that starts with "ok N" or "not ok N" at the left
# margin.  Lines behind a "# " prefix are diagnostics (a kselftest runner
# echoing a sub-test's own TAP: counting those would count every test
# twice), and indented lines are KTAP subtests, whose verdict is their
# parent's line.  "# XFAIL" makes a result a pass, "Bail out!" a failure.
#
# A file holds one or more streams, each one program's TAP: a stream
# begins at "TAP version", or at a line "edge-suite: NAME" (tools/vm/guest.sh
# prints one before each kselftest binary, and "edge-suite-exit: NAME RC"
# after it, RC "missing" for a binary the payload lacks).  Each stream
# must have a plan "1..N" and exactly N results: a binary that died after
# 6 of 7 tests is a failure.  A suite that exited with another status than
# 0 (or 1 after a failed result, or 4 after an allowed "1..0 # SKIP") is a
# failure, and so is one with no exit line (the guest died in it).
#
# A skip ("# SKIP") is a failure unless it names its test and its reason
# is on the allow-list.  The name is the result's description; the
# kselftest harness prints none on a skip, so for it the name is the one
# on the harness's "#  RUN  NAME ..." line just before; for "1..0 # SKIP"
# (the whole program skipped) it is the suite's.  A list line is
# "NAME-GLOB REASON": the name matches the glob (* for any run of
# characters) and the skip's reason begins with REASON.
#
# Prints each failure, then one last line "N passed, N failed" (plus
# ", N skipped" when some were allowed).  Exits 1 when anything failed,
# else 0.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
since='' allow=$here/skip-allow.txt
stages=()
while (($#)); do
	case $1 in
	--since) since=${2:?}; shift 2 ;;
	--allow) allow=${2:?}; shift 2 ;;
	--failed-stage) stages+=("${2:?}"); shift 2 ;;
	--) shift; break ;;
	-*) echo "tap-summary: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
if (($# == 0)); then
	echo "usage: $0 [--since STAMP] [--allow LIST] [--failed-stage NAME]... FILE..." >&2
	exit 2
fi
if [[ -n $since && ! -e $since ]]; then
	echo "tap-summary: no run-start stamp $since" >&2
	exit 2
fi
if [[ ! -r $allow ]]; then
	echo "tap-summary: no skip allow-list $allow" >&2
	exit 2
fi

files=()
pre=0
for f in "$@"; do
	if [[ ! -r $f || ! -f $f ]]; then
		echo "not ok: no such file: $f"
		pre=$((pre + 1))
	elif [[ -n $since && $f -ot $since ]]; then
		echo "not ok: stale (older than this run): $f"
		pre=$((pre + 1))
	else
		files+=("$f")
	fi
done
for s in "${stages[@]}"; do
	echo "not ok: stage exited non-zero: $s"
	pre=$((pre + 1))
done

# awk with no file would read stdin: give it /dev/null instead.
((${#files[@]})) || files=(/dev/null)

awk -v pre="$pre" -v allowfile="$allow" '
function directive(line) {
	# The TAP directive follows the first unescaped "#" after the description.
	if (match(line, /[^\\]#[ \t]*[A-Za-z]+/)) {
		d = toupper(substr(line, RSTART + 1, RLENGTH - 1))
		sub(/^#[ \t]*/, "", d)
		return d
	}
	return ""
}
function fail(what) {
	failed++
	print "not ok: " what
}
function glob_re(g,    r) {
	r = g
	gsub(/[.^$+?(){}|\[\]\\\/]/, "\\\\&", r)
	gsub(/\*/, ".*", r)
	return "^" r "$"
}
# A skip: allowed, or a failure.
function skip(name, reason, where,    i) {
	if (name == "") {
		fail(where ": a skip that names no test # SKIP " reason)
		return
	}
	for (i = 1; i <= nallow; i++) {
		if (name ~ allow_re[i] && index(reason, allow_why[i]) == 1 &&
		    allow_why[i] != "") {
			skipped++
			print "skipped (allowed): " where ": " name " # SKIP " reason
			return
		}
	}
	fail(where ": " name " # SKIP " reason " (not on " allowfile ")")
}
function stream_label() {
	if (sname != "")
		return sfile ": " sname
	return sfile ": stream " sidx (sfirst != "" ? " (" sfirst "...)" : "")
}
function new_stream(name) {
	end_stream()
	open_ = 1
	sfile = FILENAME
	sidx++
	sname = name
	splan = -1
	swhole = 0
	sres = 0
	sfails = 0
	sbail = 0
	sfirst = ""
	srun = ""
	src = ""
	ssuite = (name != "")
	stap = 0
}
function end_stream(   what) {
	if (!open_)
		return
	open_ = 0
	what = stream_label()
	if (ssuite && src == "") {
		fail(what ": no exit status (did the guest die in it?)")
	} else if (ssuite && src == "missing") {
		fail(what ": binary missing from the payload")
		return
	}
	if (splan < 0 && sres == 0 && !sbail) {
		if (ssuite)
			fail(what ": no TAP output")
		return
	}
	if (!sbail) {
		if (splan < 0)
			fail(what ": no plan (1..N)")
		else if (!swhole && splan != sres)
			fail(what ": planned " splan ", ran " sres)
	}
	if (ssuite && src != "" && src != "0") {
		if (src == "4" && swhole && swhole_ok)
			return
		if (src == "1" && sfails > 0)
			return
		fail(what ": exited " src)
	}
}
BEGIN {
	while ((getline l < allowfile) > 0) {
		sub(/\r$/, "", l)
		if (l ~ /^[ \t]*(#|$)/)
			continue
		n = split(l, w, /[ \t]+/)
		g = w[1]
		why = l
		sub(/^[^ \t]+[ \t]+/, "", why)
		sub(/[ \t]+$/, "", why)
		if (n < 2 || why == "") {
			print "tap-summary: " allowfile ": no reason on: " l > "/dev/stderr"
			continue
		}
		nallow++
		allow_re[nallow] = glob_re(g)
		allow_why[nallow] = why
	}
	close(allowfile)
	failed = pre
}
FNR == 1 {
	end_stream()
	sidx = 0
	fileres[FILENAME] = 0
}
{
	sub(/\r$/, "")
	line = $0
}
line ~ /^edge-suite: / {
	n = line
	sub(/^edge-suite: */, "", n)
	new_stream(n)
	next
}
line ~ /^edge-suite-exit: / {
	split(line, w, / +/)
	if (!open_ || !ssuite || w[2] != sname)
		fail(FILENAME ": exit line without its suite: " line)
	else
		src = w[3]
	end_stream()
	next
}
line ~ /^TAP version / {
	if (!open_ || !ssuite || stap || splan >= 0 || sres > 0)
		new_stream("")
	stap = 1
	next
}
line ~ /^#[ \t]+RUN[ \t]/ {
	# The kselftest harness, before each test: "#  RUN  NAME ...".
	n = line
	sub(/^#[ \t]+RUN[ \t]+/, "", n)
	sub(/[ \t]+\.\.\.[ \t]*$/, "", n)
	srun = n
	next
}
line ~ /^1\.\.[0-9]+/ {
	if (!open_ || splan >= 0)
		new_stream("")
	n = line
	sub(/^1\.\./, "", n)
	splan = n + 0
	if (splan == 0 && directive(" " line) == "SKIP") {
		why = line
		sub(/^[^#]*#[ \t]*[Ss][Kk][Ii][Pp][ \t]*/, "", why)
		swhole = 1
		f0 = failed
		skip(sname, why, stream_label())
		swhole_ok = (failed == f0)
	}
	next
}
line ~ /^Bail out!/ {
	if (!open_)
		new_stream("")
	sbail = 1
	fileres[FILENAME]++
	fail(stream_label() ": " line)
	next
}
line ~ /^(not )?ok [0-9]+([ \t]|$)/ {
	if (!open_)
		new_stream("")
	sres++
	fileres[FILENAME]++
	notok = (line ~ /^not /)
	name = line
	sub(/^(not )?ok [0-9]+[ \t]*(- )?/, "", name)
	d = directive(" " name)
	desc = name
	sub(/[ \t]*#.*$/, "", desc)
	if (sfirst == "")
		sfirst = desc
	if (d == "SKIP") {
		why = name
		sub(/^[^#]*#[ \t]*[Ss][Kk][Ii][Pp][ \t]*/, "", why)
		skip(desc != "" ? desc : srun, why, stream_label())
	} else if (d == "XFAIL" || !notok) {
		passed++
	} else {
		sfails++
		fail(stream_label() ": " (desc == "" ? (srun == "" ? "(unnamed)" : srun) : desc))
	}
	srun = ""
	next
}
END {
	end_stream()
	for (i = 1; i < ARGC; i++) {
		f = ARGV[i]
		if (f == "/dev/null" || f == "")
			continue
		if (!(f in fileres) || fileres[f] == 0)
			fail("no test results in " f)
	}
	out = sprintf("%d passed, %d failed", passed, failed)
	if (skipped > 0)
		out = out sprintf(", %d skipped", skipped)
	print out
	exit failed > 0 ? 1 : 0
}
' "${files[@]}"
