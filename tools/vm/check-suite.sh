#!/bin/bash
# make check T=NAME: only the kselftest suite NAME (a name in
# selftests/edge without its .c, e.g. edge_jobs_test, or a glob; "jobs"
# means edge_jobs_test; several, separated by spaces), in one guest on
# the stock kernel: no host stages, no debug kernel.  The payload holds
# only those suites' binaries.
# Ends with tap-summary.sh's "N passed, N failed"; exits non-zero on any
# failure, as make check.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build
vm=$top/tools/vm
want=${1:?usage: check-suite.sh 'NAME...'}
# The kernel KERNEL= picks (make's; default the newest), its modules and
# the out-of-tree sample built for it as make check builds them.
k=${KERNEL:-6.12}
cache=${CACHE:-$top/.cache}
# shellcheck source=tools/vm/kernel-env.sh
. "$vm/kernel-env.sh"
"$vm/kmod.sh" "$k" "$build/kmod-$k" || exit 1
kernel_env "$cache" "$k" || exit 1
"$vm/fetch-netmods.sh" "$cache" "$k" || exit 1
"$vm/fetch-iperf3.sh" "$cache" || exit 1
payload=$build/payload-suite
"$vm/payload.sh" "$payload" "$build" "$build/kmod-$k/src" || exit 1
names=()
set -f
while read -r name; do
	for w in $want; do
		# shellcheck disable=SC2053 # the glob is the point
		if [[ $name == $w || $name == edge_${w}_test || $name == ${w}.sh ]]; then
			names+=("$name")
			break
		fi
	done
done <"$payload/suites.list"
set +f
if ((${#names[@]} == 0)); then
	echo "check-suite: no suite matches '$want'; the suites:" >&2
	column -c 80 "$payload/suites.list" >&2
	exit 2
fi
printf '%s\n' "${names[@]}" >"$payload/suites.list"
# Only those binaries: a smaller initramfs boots faster.
for f in "$payload"/selftests/*_test; do
	[[ " ${names[*]} " == *" ${f##*/} "* ]] || rm -f "$f"
done
stamp=$build/.suite-start
rm -f "$build/suite.tap"
touch "$stamp"
echo "== guest: ${names[*]} on $(basename "$VMLINUX")"
stage=()
"$vm/run-guest.sh" --kernel "$VMLINUX" --payload "$payload" --mode check \
	--timeout "${GUEST_TIMEOUT:-900}" --out "$build/suite" --stream ||
	stage=(--failed-stage "guest run (see build/suite.console.log)")
"$vm/tap-summary.sh" --since "$stamp" "${stage[@]}" "$build/suite.tap"
