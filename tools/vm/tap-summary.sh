#!/bin/bash
# Sum up TAP/KTAP results over one or more files.
#
# Usage: tap-summary.sh FILE...
#
# A result is a line that starts (after optional whitespace) with "ok N" or
# "not ok N". Lines behind a "# " prefix are diagnostics (for instance a
# kselftest runner echoing a sub-test's own TAP): counting those too would
# count every test twice. "# SKIP" makes a result skipped, "# XFAIL" makes it
# a pass, and "Bail out!" counts as a failure.
#
# Prints failed test names, then one last line "N passed, N failed" (plus
# ", N skipped" when some were). Exits 1 when anything failed or a file holds
# no result at all, else 0.
set -euo pipefail

if (($# == 0)); then
	echo "usage: $0 FILE..." >&2
	exit 2
fi

files=()
missing=0
for f in "$@"; do
	if [[ -r $f && -f $f ]]; then
		files+=("$f")
	else
		echo "no such file: $f"
		missing=1
	fi
done

# awk with no file would read stdin: give it /dev/null instead.
((${#files[@]})) || files=(/dev/null)

awk -v missing="$missing" '
function directive(line) {
	# The TAP directive follows the first unescaped "#" after the description.
	if (match(line, /[^\\]#[ \t]*[A-Za-z]+/)) {
		d = toupper(substr(line, RSTART + 1, RLENGTH - 1))
		sub(/^#[ \t]*/, "", d)
		return d
	}
	return ""
}
FNR == 1 { seen[FILENAME] = 0 }
{
	sub(/\r$/, "")
	line = $0
	sub(/^[ \t]+/, "", line)
	if (line ~ /^Bail out!/) {
		failed++
		print "not ok: " FILENAME ": " line
		seen[FILENAME]++
		next
	}
	if (line !~ /^(not )?ok [0-9]+([ \t]|$)/)
		next
	seen[FILENAME]++
	notok = (line ~ /^not /)
	name = line
	sub(/^(not )?ok [0-9]+[ \t]*(- )?/, "", name)
	d = directive(" " name)
	if (d == "SKIP") {
		skipped++
	} else if (d == "XFAIL" || !notok) {
		passed++
	} else {
		failed++
		sub(/[ \t]*#.*$/, "", name)
		print "not ok: " FILENAME ": " (name == "" ? "(unnamed)" : name)
	}
}
END {
	bad = missing
	for (i = 1; i < ARGC; i++) {
		f = ARGV[i]
		if (f == "/dev/null" || f == "")
			continue
		if (!(f in seen) || seen[f] == 0) {
			print "no test results in " f
			bad = 1
		}
	}
	out = sprintf("%d passed, %d failed", passed, failed)
	if (skipped > 0)
		out = out sprintf(", %d skipped", skipped)
	print out
	exit (bad || failed > 0) ? 1 : 0
}
' "${files[@]}"
