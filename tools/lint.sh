#!/bin/bash
# `make lint`: checkpatch --strict (from linux-source-6.1) over our kernel
# C and headers, sparse over the module build, and docutils over
# Documentation/ (tools/rst-check.py).  Prints TAP, one test per tool;
# exits non-zero when any complains.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=$top/.cache
# shellcheck source=/dev/null
. "$cache/kernel.env"
cd "$top" || exit 1
fail=0
echo "TAP version 13"
echo "1..3"

files=$(git ls-files --cached --others --exclude-standard 'drv/*.[ch]' 'emul/*.[ch]' 'emul/*/*.[ch]' 'uapi/*.h' 2>/dev/null)
[[ -n $files ]] || files=$(ls drv/*.[ch] emul/*.[ch] emul/*/*.[ch] uapi/linux/*.h)
# shellcheck disable=SC2086
out=$(perl "$cache/checkpatch/checkpatch.pl" --no-tree --strict --terse \
	--show-types -f $files 2>&1 | grep -v '^total:')
if [[ -z $out ]]; then
	echo "ok 1 lint.checkpatch_strict"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 lint.checkpatch_strict"
	fail=1
fi

# Rebuild every object under sparse (C=2 checks even up-to-date ones).
out=$(make -s -C "$KDIR" M="$top" C=2 modules 2>&1 |
	grep -v -e 'Skipping BTF' -e '^ *CHECK ' -e '^make' || true)
if [[ -z $out ]]; then
	echo "ok 2 lint.sparse"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 2 lint.sparse"
	fail=1
fi

# Debian's python3-docutils (make deps) is /usr/bin/python3's; prefer the
# python3 on PATH when it has docutils of its own.
py=python3
python3 -c 'import docutils' 2>/dev/null || py=/usr/bin/python3
if out=$("$py" tools/rst-check.py 2>&1); then
	echo "ok 3 lint.rst"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 3 lint.rst"
	fail=1
fi
exit $fail
