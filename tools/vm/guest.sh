#!/bin/sh
# The guest side of `make run`, `make check` and `make bench`: copied into
# the initramfs as /edge/run.sh and started by /init with EDGE_MODE set.
# stdout is the results channel (TAP and name=value lines); stderr is the
# console.
cd /edge || exit 1
export EDGE_KO=/edge/edge.ko
export EDGE_NICSIM_KO=/edge/edge_nicsim.ko
fail=0

load() {
	insmod "$EDGE_KO" "$@" || { echo "guest: insmod edge.ko failed" >&2; exit 1; }
}

unload() {
	rmmod edge || { echo "guest: rmmod edge failed" >&2; fail=1; }
}

case "$EDGE_MODE" in
demo)
	load
	./edge-demo || fail=1
	echo "sysfs: submitted=$(cat /sys/class/edge/edge0/submitted)" \
		"completed=$(cat /sys/class/edge/edge0/completed)" \
		"cancelled=$(cat /sys/class/edge/edge0/cancelled)" \
		"front-end sleeps=$(cat /sys/class/edge/edge0/sleeps)"
	unload
	;;
check)
	for t in ./selftests/*; do
		[ -x "$t" ] || continue
		# Each suite loads and unloads the module as it needs.
		"$t" || fail=1
	done
	if grep -q '^edge_nicsim ' /proc/modules; then
		echo "guest: a suite left edge_nicsim.ko loaded" >&2
		rmmod edge_nicsim || fail=1
	fi
	if grep -q '^edge ' /proc/modules; then
		echo "guest: a suite left edge.ko loaded" >&2
		unload
	fi
	;;
bench)
	load
	./edge-bench || fail=1
	unload
	# The in-kernel API's path, through edge_nicsim.ko (loads its own).
	./kapi-bench.sh || fail=1
	;;
*)
	echo "guest: unknown EDGE_MODE '$EDGE_MODE'" >&2
	fail=1
	;;
esac
exit $fail
