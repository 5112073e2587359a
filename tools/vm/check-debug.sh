#!/bin/bash
# The debug-kernel part of `make check`: build the debug kernel when it is
# not cached (tools/vm/debug-kernel/build.sh, ~12 min cold on 2 cores),
# build edge.ko against it, run the kselftests in a guest booting it
# (fault injection included: edge_fault_test only runs there), then count
# the kernel's reports in the console log (tools/vm/kernel-reports.sh).
#
# Usage: check-debug.sh [--ko EDGE_KO] [--suites 'GLOB...'] OUT_DIR
#   --ko      use the edge.ko and edge_nicsim.ko in this folder (built
#             for the debug kernel) instead of building the tree's
#             (planted-bug runs);
#   --suites  only these selftests (names under selftests/, globs).
# The guest binaries come from the tree's build/ (make all).  Writes
# OUT_DIR/debug.tap (the suites' TAP), OUT_DIR/debug-reports.tap (the
# reports and the guest run as two tests), OUT_DIR/debug.console.log;
# prints the TAP and
# "debug_kernel_reports=N".  Exits non-zero on any failure or report.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tools/vm
ko='' suites=''
while (($# > 1)); do
	case $1 in
	--ko) ko=${2:?}; shift 2 ;;
	--suites) suites=${2:?}; shift 2 ;;
	*) break ;;
	esac
done
build=${1:?usage: check-debug.sh [--ko KO] [--suites GLOBS] OUT_DIR}
mkdir -p "$build"
status=0
# An early exit below must leave no earlier run's results to be read.
rm -f "$build/debug.tap" "$build/debug-reports.tap"

# CACHE: make's (a private cache, e.g. one whose debug kernel has options
# the shared one lacks); default the tree's .cache.
cache=${CACHE:-$top/.cache}
"$vm/debug-kernel/build.sh" "$cache" || exit 1
# shellcheck source=/dev/null
. "$cache/debug-kernel.env"
if [[ -z $ko ]]; then
	"$vm/debug-kernel/module.sh" "$top" "$build/debug-module" || exit 1
	ko=$build/debug-module/src
fi

payload=$build/payload-debug
# edge_router_test.sh's iperf3 (instant when make check fetched it).
"$vm/fetch-iperf3.sh" "$cache" || exit 1
"$vm/payload.sh" "$payload" "$top/build" "$ko" || exit 1
# Without --suites: every suite but those tools/vm/debug-skip.txt names,
# each with the reason the debug kernel adds nothing to the stock
# kernels' run of it (make check's time budget, Documentation/testing.rst).
if [[ -z $suites ]]; then
	while read -r name; do
		skip=0
		while read -r glob _; do
			[[ -z $glob || $glob == \#* ]] && continue
			# shellcheck disable=SC2053 # the glob is the point
			[[ $name == $glob ]] && skip=1
		done <"$vm/debug-skip.txt"
		((skip)) || suites+="$name "
	done <"$payload/suites.list"
	echo "# debug kernel: $(wc -w <<<"$suites") suites; not here (tools/vm/debug-skip.txt):" \
		"$(grep -v -e '^#' -e '^$' "$vm/debug-skip.txt" | awk '{ print $1 }' | tr '\n' ' ')"
	# YNL's python (~6 MB of the initramfs) only for the suite that
	# runs it.
	[[ " $suites " == *" edge_ynl_test.sh "* ]] || rm -rf "$payload/py" "$payload/ynl"
fi
if [[ -n $suites ]]; then
	keep=$(mktemp -d)
	# Split the list without globbing it here (a pattern such as
	# edge_netrx* would match edge_netrx.ko in the caller's folder), then
	# glob each in the payload's selftests/.
	set -f
	for g in $suites; do
		set +f
		# shellcheck disable=SC2086 # the glob is the point
		cp "$payload"/selftests/$g "$keep/" 2>/dev/null
		set -f
	done
	set +f
	rm -f "$payload"/selftests/*_test
	cp "$keep"/* "$payload/selftests/" 2>/dev/null
	rm -rf "$keep"
	# The guest runs (and expects) only the suites asked for.
	while read -r name; do
		for g in $suites; do
			# shellcheck disable=SC2053 # the glob is the point
			if [[ $name == $g ]]; then
				echo "$name"
				break
			fi
		done
	done <"$payload/suites.list" >"$payload/suites.list.new"
	mv "$payload/suites.list.new" "$payload/suites.list"
fi
# The debug kernel has no ACPI, so no HPET nor PM timer to calibrate its
# clocks against, and its PIT loops fail under TCG.  The TSC's frequency
# is the host's (tools/vm/tsc-khz.c: under TCG the guest reads the host's
# counter).  The local APIC timer's period is QEMU's: its APIC timer
# counts at 1 GHz (APIC_BUS_CYCLE_NS), 4,000,000 a jiffy at the debug
# kernel's HZ=250 (Kconfig's default; the stock kernels calibrate
# 3,996,955 against the HPET).  Without it the timer fails the kernel's
# check against the PIT, and with it high-resolution timers: every sleep
# then ends on a 4 ms tick, late.
tsc=$build/tsc-khz
gcc -O2 -o "$tsc" "$vm/tsc-khz.c" && khz=$("$tsc") && [[ $khz =~ ^[0-9]+$ ]] || {
	echo "check-debug: cannot measure the host's TSC frequency" >&2
	exit 1
}
# Keep going after the first report so that all are counted (the run
# fails anyway): no panic on WARN, every KASAN report printed.
guest=0
if ! "$vm/run-guest.sh" --kernel "$DEBUG_BZIMAGE" --payload "$payload" \
	--mode check --timeout "${GUEST_TIMEOUT:-1800}" --out "$build/debug" \
	--append "panic_on_warn=0 kasan_multi_shot tsc_early_khz=$khz lapic_timer_period=4000000${DEBUG_APPEND:+ $DEBUG_APPEND}" --alloc-failures-ok; then
	status=1
	guest=1
fi
tap=$build/debug.tap
if reports=$("$vm/kernel-reports.sh" "$build/debug.console.log"); then
	r=0
else
	r=1
	status=1
fi
{
	echo "TAP version 13"
	echo "1..2"
	echo "$reports" | grep '^#'
	if ((r)); then
		echo "not ok 1 debug_kernel.no_reports"
	else
		echo "ok 1 debug_kernel.no_reports"
	fi
	if ((guest)); then
		echo "not ok 2 debug_kernel.guest_run # see $build/debug.console.log"
	else
		echo "ok 2 debug_kernel.guest_run"
	fi
} >"$build/debug-reports.tap"
cat "$tap"
cat "$build/debug-reports.tap"
echo "$reports" | grep '^debug_kernel_reports='
exit $status
