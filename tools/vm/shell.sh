#!/bin/bash
# make shell: boot the guest with edge.ko, edge_nicsim.ko and
# edge_netrx.ko loaded and the tools on PATH, then a busybox shell on this
# terminal (exit or Ctrl-D powers off), or run one command and power off.
#
# Usage: shell.sh --kernel VMLINUX [--ko DIR] [--extra DIR] [--cmd 'COMMAND']
#                 [--timeout S]
#   --ko     the modules from DIR (tools/vm/kmod.sh's OUTDIR/src, as make
#            check builds them for each kernel) instead of the tree's
#   --extra  copy DIR into the guest as /edge/extra (on PATH, and
#            extra/bin): your modules and binaries (static, or with
#            their libraries)
#   --cmd    run COMMAND with sh -c in /edge: its output (stdout and
#            stderr) is printed here, and this script exits with its
#            status (255: the guest itself failed: panic, WARN, time-out)
# The payload is make run's (tools/vm/payload.sh) without the
# kselftests; logs in build/shell.*.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build
vm=$top/tools/vm
kernel='' ko='' extra='' cmd='' have_cmd=0 timeout=''
while (($#)); do
	case $1 in
	--kernel) kernel=${2:?}; shift ;;
	--ko) ko=${2:?}; shift ;;
	--extra) extra=${2:?}; shift ;;
	--cmd) cmd=${2?}; have_cmd=1; shift ;;
	# make shell's: the values in the environment, quoted as given.
	--cmd-env) cmd=${EDGE_SHELL_CMD?}; have_cmd=1 ;;
	--extra-env) extra=${EDGE_SHELL_EXTRA:?} ;;
	--timeout) timeout=${2:?}; shift ;;
	*) sed -n '6,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	esac
	shift
done
[[ -n $kernel ]] || { echo "shell.sh: --kernel is required" >&2; exit 2; }
if [[ -n $extra && ! -d $extra ]]; then
	echo "shell.sh: EXTRA=$extra is not a directory" >&2
	exit 2
fi

payload=$build/payload-shell
"$vm/payload.sh" "$payload" "$build" ${ko:+"$ko"}
# Not the kselftests (22 MB, 3.5 s of a TCG boot to unpack): make check
# T=NAME runs one.
rm -rf "$payload/selftests"
if [[ -n $extra ]]; then
	mkdir -p "$payload/extra"
	cp -a "$extra"/. "$payload/extra/"
fi
out=$build/shell
if ((!have_cmd)); then
	# An interactive session ends when you leave it (a day at most).
	exec "$vm/run-guest.sh" --kernel "$kernel" --payload "$payload" \
		--mode shell --interactive --timeout "${timeout:-86400}" --out "$out"
fi
printf '%s\n' "$cmd" >"$payload/shell-cmd"
rc=0
"$vm/run-guest.sh" --kernel "$kernel" --payload "$payload" --mode shell \
	--timeout "${timeout:-600}" --out "$out" --stream 2>"$out.err" || rc=$?
status=$(sed -n 's/^.*EDGE-GUEST-EXIT=\([0-9]*\).*$/\1/p' "$out.console.log" | tail -n1)
# The command's own failure is its status; anything else run-guest says.
if ((rc)) && ! grep -q '^guest: payload failed' "$out.err"; then
	cat "$out.err" >&2
	exit 255
fi
exit "${status:-255}"
