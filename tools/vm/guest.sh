#!/bin/sh
# The guest side of `make run`, `make check` and `make bench`: copied into
# the initramfs as /edge/run.sh and started by /init with EDGE_MODE set.
# stdout is the results channel (TAP and name=value lines); stderr is the
# console.
cd /edge || exit 1
export EDGE_KO=/edge/edge.ko
export EDGE_NICSIM_KO=/edge/edge_nicsim.ko
export EDGE_NETRX_KO=/edge/edge_netrx.ko
# edge_fault_test's insmod under fail-nth, when the payload has one.
fail=0

load() {
	insmod "$EDGE_KO" "$@" || { echo "guest: insmod edge.ko failed" >&2; exit 1; }
}

unload() {
	rmmod edge || { echo "guest: rmmod edge failed" >&2; fail=1; }
}

# bench-host ARGS, its lines prefixed tcg_ (make bench's host_ lines are
# the same binary's on the host).
tcg_bench_host() {
	./bench-host "$@" >/tmp/bh || fail=1
	sed 's/^/tcg_/' /tmp/bh
}

# Whole seconds since boot: each suite's time is printed after it, as a
# diagnostic, so that testing.rst can say where make check's time goes.
uptime_s() {
	read -r up _ </proc/uptime
	echo "${up%%.*}"
}

# Whether suite $1 may skip as a whole (exit 4): it is on the skip
# allow-list (tools/vm/skip-allow.txt; the summary checks the reason).
skip_allowed() {
	while read -r glob _; do
		case $glob in '' | '#'*) continue ;; esac
		# shellcheck disable=SC2254 # the glob is the point
		case $1 in $glob) return 0 ;; esac
	done <./skip-allow.txt
	return 1
}

# kmemleak (the debug kernel): forget what boot left, and at the end
# report what the suites leaked on the console, where the host counts
# "unreferenced object" (tools/vm/kernel-reports.sh).
kml=/sys/kernel/debug/kmemleak
kmemleak_start() {
	[ -w $kml ] || return 0
	echo scan >$kml && echo clear >$kml
}
kmemleak_report() {
	[ -w $kml ] || return 0
	# An object is reported once it is 5 s old and found unreferenced;
	# the second scan drops transient false positives.
	sleep 6
	# kmemleak turns itself off when it cannot track an object: say so.
	if ! { echo scan >$kml && sleep 1 && echo scan >$kml; }; then
		echo "guest: kmemleak is off, no leak check" >&2
		fail=1
		return
	fi
	n=$(grep -c '^unreferenced object' $kml)
	echo "kmemleak_unreferenced=$n"
	# stderr is the console: the host reads the reports there.
	cat $kml >&2
}

case "$EDGE_MODE" in
demo)
	load
	echo "\$ edgectl dev add preset h100-like virtual"
	./edgectl dev add preset h100-like virtual || fail=1
	echo "\$ edgectl dev show"
	./edgectl dev show || fail=1
	./edge-demo || fail=1
	echo "sysfs: submitted=$(cat /sys/class/edge/edge0/submitted)" \
		"completed=$(cat /sys/class/edge/edge0/completed)" \
		"cancelled=$(cat /sys/class/edge/edge0/cancelled)" \
		"front-end sleeps=$(cat /sys/class/edge/edge0/sleeps)"
	# A kernel queue stays registered while we look at the table.
	insmod ./edge_nicsim.ko rate=2000 || fail=1
	sleep 1
	echo "\$ edgectl ekt show dev edge0"
	./edgectl ekt show dev edge0 || fail=1
	echo "\$ edgectl stats dev edge0"
	./edgectl stats dev edge0 || fail=1
	echo "\$ edgectl top -n 2 dev edge0"
	./edgectl top -n 2 dev edge0 || fail=1
	rmmod edge_nicsim || fail=1
	echo "\$ edgectl -s dev show"
	./edgectl -s dev show || fail=1
	echo "\$ edgectl dev add preset bogus"
	./edgectl dev add preset bogus && fail=1
	echo "\$ edgectl dev del edge1"
	./edgectl dev del edge1 || fail=1
	unload
	# Real packets: busybox ping answered by the GPU (edge_netrx.ko).
	./netrx-demo.sh || fail=1
	;;
netrx-demo)
	./netrx-demo.sh || fail=1
	;;
netrx-bench)
	./netrx-bench.sh || fail=1
	;;
check)
	kmemleak_start
	# The debug kernel (kmemleak's file) is ~10x slower: its tortures and
	# hostile fuzz runs are bounded shorter; the stock kernel's carry the
	# counts make check asks for.
	if [ -w $kml ]; then
		export EDGE_TORTURE_SECONDS=${EDGE_TORTURE_SECONDS:-15}
		export EDGE_NETRX_FLOOD_MS=${EDGE_NETRX_FLOOD_MS:-3000}
		export EDGE_FUZZ_CALLS=${EDGE_FUZZ_CALLS:-10000}
		export EDGE_STRESS_CYCLES=${EDGE_STRESS_CYCLES:-24}
		hostile_calls=3000
	else
		hostile_calls=15000
	fi
	# Each suite between "edge-suite: NAME" and "edge-suite-exit: NAME RC"
	# lines, which tools/vm/tap-summary.sh reads: a suite that dies
	# mid-way, or a binary the payload lacks (RC "missing"; suites.list
	# names every one payload.sh expected), is a failure there.
	# Not "while read": the suites' stdin stays /dev/null.
	# shellcheck disable=SC2013 # suite names have no spaces
	for name in $(cat ./suites.list); do
		t=./selftests/$name
		echo "edge-suite: $name"
		if [ ! -x "$t" ]; then
			echo "edge-suite-exit: $name missing"
			echo "guest: $name is not in the payload" >&2
			fail=1
			continue
		fi
		# Each suite loads and unloads the module as it needs.
		t0=$(uptime_s)
		"$t"
		rc=$?
		echo "edge-suite-exit: $name $rc"
		echo "# suite_seconds: $name $(($(uptime_s) - t0))"
		# 4 is kselftest's "skipped": only from a suite on the list.
		if [ $rc = 4 ] && skip_allowed "$name"; then
			continue
		fi
		[ $rc = 0 ] || fail=1
	done
	# The guest fuzzer's hostile modes (issue 23): its processes as
	# nobody, and edge0 deleted and added again while they fuzz; each a
	# suite of its own for the summary.
	if grep -qx edge_fuzz_test ./suites.list; then
		for mode in NOBODY UNPLUG; do
			echo "edge-suite: edge_fuzz_test-$mode"
			t0=$(uptime_s)
			env EDGE_FUZZ_CALLS=$hostile_calls EDGE_FUZZ_$mode=1 \
				./selftests/edge_fuzz_test
			rc=$?
			echo "edge-suite-exit: edge_fuzz_test-$mode $rc"
			echo "# suite_seconds: edge_fuzz_test-$mode $(($(uptime_s) - t0))"
			[ $rc = 0 ] || fail=1
		done
	fi
	if grep -q '^edge_nfhook ' /proc/modules; then
		echo "guest: a suite left edge_nfhook.ko loaded" >&2
		rmmod edge_nfhook || fail=1
	fi
	if grep -q '^edge_router ' /proc/modules; then
		echo "guest: a suite left edge_router.ko loaded" >&2
		rmmod edge_router || fail=1
	fi
	if grep -q '^edge_netrx ' /proc/modules; then
		echo "guest: a suite left edge_netrx.ko loaded" >&2
		rmmod edge_netrx || fail=1
	fi
	if grep -q '^edge_nicsim ' /proc/modules; then
		echo "guest: a suite left edge_nicsim.ko loaded" >&2
		rmmod edge_nicsim || fail=1
	fi
	if grep -q '^edge ' /proc/modules; then
		echo "guest: a suite left edge.ko loaded" >&2
		unload
	fi
	kmemleak_report
	;;
bench)
	load
	./edge-bench || fail=1
	unload
	# The model's own path under TCG, on the front end's CPU (0), as
	# bench-host times it on the host (make bench appends host_ lines).
	tcg_bench_host time --cpu 0 --events 200000
	tcg_bench_host time --cpu 0 --events 200000 --busy
	# And its ping-pong with a producer thread, against a raw ring's,
	# both in user space: what the front end's depth-1 ratio would be
	# without the kernel's part.
	tcg_bench_host twothread --depth 1 --ms 400
	# The in-kernel API's path, through edge_nicsim.ko (loads its own).
	./kapi-bench.sh || fail=1
	# Real packets: event kernels against the CPU (edge_netrx.ko).
	./netrx-bench.sh || fail=1
	# Forwarding: the GPU's route lookup against the kernel's (edge_router.ko).
	./router-bench.sh || fail=1
	# The guest fuzzer at length: >= 1M calls (selftests/edge/edge_fuzz_test.c).
	EDGE_FUZZ_CALLS=${EDGE_FUZZ_CALLS:-1000000} ./selftests/edge_fuzz_test || fail=1
	;;
shell)
	# make shell (tools/vm/shell.sh): edge.ko, edge_nicsim.ko (idle:
	# echo 1 > /sys/kernel/edge_nicsim/running starts its wire) and
	# edge_netrx.ko loaded, the tools and EXTRA= (extra/) on PATH.  With
	# a command (shell-cmd) run it, its output on the results channel and
	# its status the guest's; else a shell on the console, whose exit
	# powers off.
	load
	insmod ./edge_nicsim.ko start=0 || fail=1
	insmod ./edge_netrx.ko || fail=1
	export PATH=/edge/extra/bin:/edge/extra:/edge:/bin
	[ $fail = 0 ] || echo "guest: a module did not load" >&2
	if [ -f ./shell-cmd ]; then
		sh ./shell-cmd 2>&1 || fail=$?
	else
		echo "edge shell: edge.ko, edge_nicsim.ko, edge_netrx.ko loaded;" \
			"tools in /edge, EXTRA= in /edge/extra; exit powers off" >&2
		cd /tmp || exit 1
		setsid cttyhack sh </dev/console >/dev/console 2>&1
	fi
	;;
*)
	echo "guest: unknown EDGE_MODE '$EDGE_MODE'" >&2
	fail=1
	;;
esac
exit $fail
