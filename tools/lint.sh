#!/bin/bash
# `make lint`: checkpatch --strict (from linux-source-6.1) over our kernel
# C and headers, the module build and sparse over it against each stock
# kernel's headers (6.1 and 6.12: tools/vm/kmod.sh's build/kmod-SERIES,
# where a compiler warning is a failure too), docutils over
# Documentation/ (tools/rst-check.py), the netlink spec against the
# kernel's own schema (linux-source-6.12's genetlink-legacy.yaml, the
# spec's protocol: prints spec_schema=ok) and uapi/linux/edge_netlink.h
# against what the kernel's YNL generator makes of the spec
# (tools/nlspec-gen.sh), and each op's policy in drv/netlink.c against
# its request in the spec.  Prints TAP, one test per tool and kernel;
# exits non-zero when any complains.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CACHE:-$top/.cache}
# shellcheck source=tools/vm/kernel-env.sh
. "$top/tools/vm/kernel-env.sh"
cd "$top" || exit 1
fail=0
echo "TAP version 13"
echo "1..$((5 + ${#KERNELS[@]}))"

files=$(git ls-files --cached --others --exclude-standard 'drv/*.[ch]' 'emul/*.[ch]' 'emul/*/*.[ch]' 'uapi/*.h' 2>/dev/null)
[[ -n $files ]] || files=$(ls drv/*.[ch] emul/*.[ch] emul/*/*.[ch] uapi/linux/*.h)
# drv/edge_kcompat.h is where the version checks belong, the one file
# where checkpatch's LINUX_VERSION_CODE warning (and its reading of
# LINUX_VERSION_CODE as a constant on the left) does not apply.
compat=drv/edge_kcompat.h
files=$(echo "$files" | grep -v -x -F "$compat")
cp=(perl "$cache/checkpatch/checkpatch.pl" --no-tree --strict --terse --show-types)
# shellcheck disable=SC2086
out=$({
	"${cp[@]}" -f $files
	"${cp[@]}" --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f "$compat"
} 2>&1 | grep -v '^total:')
if [[ -z $out ]]; then
	echo "ok 1 lint.checkpatch_strict"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 lint.checkpatch_strict"
	fail=1
fi

# Per kernel: the build (warnings fail it) and sparse.  On a fresh
# build/kmod-SERIES (a fresh clone: make check's case) sparse runs on each
# file as it is compiled (C=1), which sees every file once and spares a
# second pass of Kbuild (~20 CPU s a kernel); on an existing one, where
# make compiles only what changed, every object again (C=2 checks even
# up-to-date ones).  A C=1 build that failed leaves its folder, so the
# next run takes the C=2 path and sees the same warnings.
n=1
for k in "${KERNELS[@]}"; do
	n=$((n + 1))
	kmod=$top/build/kmod-$k
	fresh=
	[[ -e $kmod/src ]] || fresh=1
	if ! out=$(KMOD_SPARSE=$fresh "$top/tools/vm/kmod.sh" "$k" "$kmod" 2>&1) ||
		! kernel_env "$cache" "$k"; then
		echo "$out" | sed 's/^/# /'
		echo "not ok $n lint.sparse_$k"
		fail=1
		continue
	fi
	# A C=1 build of the whole folder that warned of nothing, with no
	# source changed since (tools/vm/kmod.sh's .sparse-clean: make
	# check's stock stage builds first), is the C=2 pass's answer.
	[[ -f $kmod/.sparse-clean &&
		-z $(find Kbuild drv emul uapi -newer "$kmod/.sparse-clean" \
			\( -name '*.[ch]' -o -name Kbuild \) -print -quit) ]] && fresh=1
	out=
	[[ -n $fresh ]] ||
		out=$(make -s -C "$KDIR" M="$kmod/src" C=2 modules 2>&1 |
			grep -v -e 'Skipping BTF' -e '^ *CHECK ' -e '^make' || true)
	if [[ -z $out ]]; then
		[[ -z $fresh ]] || echo "# $k: sparse ran with the build (C=1)"
		echo "ok $n lint.sparse_$k"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok $n lint.sparse_$k"
		fail=1
	fi
done

# Debian's python3-docutils, -yaml and -jsonschema (make deps) are
# /usr/bin/python3's; prefer the python3 on PATH when it has them too.
py=python3
python3 -c 'import docutils, yaml, jsonschema' 2>/dev/null || py=/usr/bin/python3
if out=$("$py" tools/rst-check.py 2>&1); then
	echo "ok $((n + 1)) lint.rst"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok $((n + 1)) lint.rst"
	fail=1
fi

# The spec as the kernel's YNL tools read it: its protocol's schema
# (Documentation/netlink/PROTOCOL.yaml: genetlink-legacy.yaml), and the
# uapi header the generator makes of it, byte for byte (make nlspec-gen rewrites it).
ynl=$cache/linux-source-6.12
spec=Documentation/netlink/specs/edge.yaml
if out=$("$py" tools/nlspec-check.py --schema "$ynl/Documentation/netlink" "$spec" 2>&1); then
	echo "ok $((n + 2)) lint.spec_schema"
	echo "spec_schema=ok"
else
	echo "$out" | sed 's/^# //; s/^/# /'
	echo "not ok $((n + 2)) lint.spec_schema"
	fail=1
fi
if out=$(PYTHON=$py tools/nlspec-gen.sh "$ynl" 2>&1 >"$top/build/edge_netlink.h") &&
	out=$(diff -u uapi/linux/edge_netlink.h "$top/build/edge_netlink.h" 2>&1); then
	echo "ok $((n + 3)) lint.spec_uapi_generated"
else
	echo "$out" | tail -n 30 | sed 's/^/# /'
	echo "# uapi/linux/edge_netlink.h is not what make nlspec-gen makes of $spec"
	echo "not ok $((n + 3)) lint.spec_uapi_generated"
	fail=1
fi
# Each op's policy against its request in the spec (tools/nlspec-check.py
# --policies): an attribute the spec does not list is refused.
if out=$("$py" tools/nlspec-check.py --policies "$spec" drv/netlink.c 2>&1); then
	echo "ok $((n + 4)) lint.spec_policies"
else
	echo "$out" | sed 's/^# //; s/^/# /'
	echo "not ok $((n + 4)) lint.spec_policies"
	fail=1
fi
exit $fail
