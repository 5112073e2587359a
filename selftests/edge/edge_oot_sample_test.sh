#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The out-of-tree driver sample (samples/edge_oot), built by make as
# Documentation/driver-api.rst tells an outside author to build it: it
# loads against edge.ko, rings its event kernel's doorbell and checks
# the completions at load.  Prints oot_sample=ok events=N.
cd "$(dirname "$0")/.." || exit 1
ko=./oot/edge_oot_sample.ko
n=0
fail=0
ok() { n=$((n + 1)); echo "ok $n oot_sample.$1"; }
nok() { n=$((n + 1)); echo "not ok $n oot_sample.$1"; fail=1; }

echo "TAP version 13"
echo "1..4"
if [ ! -f $ko ]; then
	echo "# $ko is not in the payload (make oot-sample)"
	echo "Bail out! no sample module"
	exit 1
fi
rmmod edge_oot_sample 2>/dev/null
rmmod edge_netrx 2>/dev/null
rmmod edge_nicsim 2>/dev/null
rmmod edge 2>/dev/null
# Its symbols are edge.ko's: without it, the load fails.
if insmod $ko 2>/dev/null; then nok needs_edge; rmmod edge_oot_sample; else ok needs_edge; fi
insmod "$EDGE_KO" || { echo "Bail out! insmod edge.ko"; exit 1; }
# No device 7: the sample's probe fails, nothing stays loaded.
if insmod $ko dev=7 2>/dev/null; then nok no_device_fails; rmmod edge_oot_sample; else ok no_device_fails; fi
events=12
if insmod $ko events=$events; then
	got=$(cat /sys/module/edge_oot_sample/parameters/completed)
	if [ "$got" = $events ]; then
		ok events_checked
		echo "oot_sample=ok events=$got"
	else
		echo "# completed=$got, want $events"
		nok events_checked
	fi
	# Linked against edge.ko: edge cannot go while the sample is loaded.
	if rmmod edge 2>/dev/null; then nok pins_edge; else ok pins_edge; fi
	rmmod edge_oot_sample || fail=1
else
	dmesg | grep edge_oot_sample | tail -n 3 | sed 's/^/# /'
	nok events_checked
	nok pins_edge
fi
rmmod edge 2>/dev/null
exit $fail
