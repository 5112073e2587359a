#!/bin/bash
# Boot a kernel under QEMU (TCG) with a busybox initramfs and run a payload.
#
# Usage: run-guest.sh --kernel VMLINUX --payload DIR [--mode WORD]
#                     [--timeout SECS] [--out PREFIX] [--append "WORDS"]
#                     [--mem MB] [--smp N] [--stream] [--alloc-failures-ok]
#                     [--interactive]
#
# The payload DIR is copied to /edge in the guest; /edge/run.sh is run from
# /edge with stdout on the results channel (second serial port, written to
# PREFIX.tap) and stderr on the console (PREFIX.console.log). EDGE_MODE=WORD
# is in its environment. --stream copies the results channel to stdout live.
# --alloc-failures-ok: the payload injects allocation failures, so the
# stack traces the kernel prints for a failed allocation (warn_alloc:
# "page allocation failure", "vmalloc error") are expected, not a verdict;
# so is kmemleak falling back to scanning a whole object.
# --interactive: the console is this terminal too (make shell): QEMU reads
# it, and still logs it to PREFIX.console.log for the verdict.
#
# Exit 0 only when run.sh exited 0 and the console log shows no kernel
# warning, BUG, oops or panic; otherwise 1 with a one-line reason on stderr
# (2 for usage errors).
set -euo pipefail

usage() {
	sed -n '4,6p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
die() { echo "run-guest: $*" >&2; exit 2; }

kernel='' payload='' mode='' timeout=600 out='' append='' mem=512 smp=2 stream=0
alloc_ok=0 interactive=0
while (($#)); do
	case $1 in
	--kernel) kernel=${2:?}; shift ;;
	--payload) payload=${2:?}; shift ;;
	--mode) mode=${2:?}; shift ;;
	--timeout) timeout=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	--append) append=${2?}; shift ;;
	--mem) mem=${2:?}; shift ;;
	--smp) smp=${2:?}; shift ;;
	--stream) stream=1 ;;
	--alloc-failures-ok) alloc_ok=1 ;;
	--interactive) interactive=1 ;;
	-h | --help) usage ;;
	*) echo "run-guest: unknown option $1" >&2; usage ;;
	esac
	shift
done
[[ -n $kernel && -n $payload ]] || usage
[[ -f $kernel ]] || die "no kernel at $kernel"
[[ -x $payload/run.sh && -f $payload/run.sh ]] || die "$payload/run.sh missing or not executable"
[[ $mode =~ ^[A-Za-z0-9_.,:+-]*$ ]] || die "--mode must be a single word"
[[ $timeout =~ ^[0-9]+$ && $mem =~ ^[0-9]+$ && $smp =~ ^[0-9]+$ ]] || die "--timeout/--mem/--smp take numbers"

busybox=$(command -v busybox) || die "busybox not found (run tools/vm/deps.sh)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
keep_logs=0
if [[ -n $out ]]; then
	mkdir -p "$(dirname "$out")"
	keep_logs=1
else
	out=$tmp/guest
fi
console=$out.console.log
tap=$out.tap
: >"$console"
: >"$tap"

# --- initramfs -------------------------------------------------------------
root=$tmp/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,edge}
ln -s bin "$root/sbin"
mkdir -p "$root/usr"
ln -s ../bin "$root/usr/bin"
ln -s ../bin "$root/usr/sbin"
cp "$busybox" "$root/bin/busybox"
# /init's way out (isa-debug-exit), static: the initramfs has no libc.
gcc -static -Os -o "$root/bin/guest-exit" "$(dirname "$0")/guest-exit.c" ||
	die "cannot build guest-exit (gcc, libc6-dev)"
# /init creates the other applet links itself (busybox --install): 270 host
# forks of ln cost ~0.4 s, the same in the guest costs milliseconds.
ln -s busybox "$root/bin/sh"
# Without /dev/console the kernel starts /init with no stdio at all.
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true
cp -a "$payload"/. "$root/edge/"

cat >"$root/init" <<'EOF'
#!/bin/sh
# Guest side of tools/vm/run-guest.sh.
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /tmp
exec </dev/console >/dev/console 2>&1
# No CR/LF translation on the results channel.
stty -F /dev/ttyS1 raw -echo -opost 2>/dev/null

cd /edge
# The last close of ttyS1 (when run.sh exits) waits for the UART to drain,
# so no results are lost when we kill the machine below.
/edge/run.sh </dev/null >/dev/ttyS1 2>/dev/console
st=$?
echo "EDGE-GUEST-EXIT=$st"

# isa-debug-exit: QEMU exits with (st << 1) | 1 (tools/vm/guest-exit.c).
/bin/guest-exit "$st"
# Only reached if the debug-exit device is missing; reads as failure on the host.
poweroff -f
EOF
chmod 755 "$root/init"

initrd=$tmp/initrd.cpio.gz
(cd "$root" && find . -print | cpio --quiet -o -H newc -R 0:0 | gzip -1) >"$initrd"

# --- boot ------------------------------------------------------------------
# loglevel=5 keeps KERN_WARNING and default-level lines (WARNING:, Call Trace)
# on the console while dropping the boot chatter that slows a TCG serial port.
cmdline="console=ttyS0 loglevel=5 oops=panic panic=-1 panic_on_warn=1"
# The clock: under TCG the guest's TSC is the host's (QEMU reads the host
# counter; this host's is constant_tsc, nonstop_tsc), but the guest's
# boot-time sync check sees TCG's scheduling as warps between vCPUs and
# falls back to the emulated HPET: every ktime_get() an MMIO exit of
# ~700 ns and every user clock_gettime() a system call.  tsc=reliable
# skips that check and the watchdog; the TSC still calibrates to the
# host's frequency (2596.10 against the host's 2596.12 MHz, seen here),
# and a clock read is ~50 ns through the vDSO (Documentation/design.rst).
cmdline+=" tsc=reliable"
[[ -n $mode ]] && cmdline+=" EDGE_MODE=$mode"
[[ -n $append ]] && cmdline+=" $append"

# shellcheck disable=SC2054 # the commas belong to qemu's option syntax
qemu=(
	qemu-system-x86_64
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-bios /usr/share/qemu/qboot.rom
	-nic none -m "$mem" -smp "$smp" -no-reboot
	-display none -vga none -monitor none
	-serial "file:$console" -serial "file:$tap"
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
)
tflags=()
# A background job's stdin: /dev/null, as bash gives one, or the terminal.
exec 3</dev/null
if ((interactive)); then
	exec 3<&0
	# The console on stdio (Ctrl-C goes to the guest), logged as before.
	qemu=("${qemu[@]/#file:$console/chardev:con}")
	qemu+=(-chardev "stdio,id=con,signal=off,logfile=$console")
	# timeout's own process group could not read the terminal.
	tflags=(--foreground)
fi
t0=$EPOCHREALTIME
timeout "${tflags[@]}" -k 5 "$timeout" "${qemu[@]}" 2>"$tmp/qemu.err" <&3 &
qpid=$!
tpid=''
if ((stream)); then
	# tail exits by itself shortly after qemu does (--pid).
	tail -n +1 -F -s 0.1 --pid="$qpid" "$tap" 2>/dev/null | sed -u 's/\r//g' &
	tpid=$!
fi
# Don't leave a 10-minute qemu behind when we are interrupted.
trap 'kill "$qpid" 2>/dev/null; exit 130' INT TERM
qrc=0
wait "$qpid" || qrc=$?
trap - INT TERM
if [[ -n $tpid ]]; then wait "$tpid" || true; fi
elapsed=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

sed -i 's/\r//g' "$tap" "$console"

# --- verdict ---------------------------------------------------------------
# QEMU exits 0 on panic and on poweroff alike: 0 is never success.
reason=''
scan=$console
if ((alloc_ok)); then
	# Drop each warn_alloc() report: its header line up to the end of its
	# stack trace.  Anything else (BUG:, WARNING:, ...) is still seen.
	scan=$tmp/console.scan
	# kmemleak's own metadata may fail too: it then scans the whole object.
	awk '/kmemleak: Cannot allocate a scan area/ { next }
	     /(page allocation failure|vmalloc error|vmap allocation for size)/ { skip = 1 }
	     !skip { print }
	     skip && /<\/TASK>/ { skip = 0 }' "$console" >"$scan"
fi
if ((qrc == 124 || qrc == 137)); then
	reason="timed out after $timeout s"
else
	for pat in 'WARNING:' 'BUG:' 'Oops' 'general protection' 'KASAN' 'kmemleak' 'Kernel panic' 'Call Trace'; do
		line=$(grep -m1 -F -- "$pat" "$scan" || true)
		if [[ -n $line ]]; then
			case $pat in
			'Kernel panic') reason="kernel panic: ${line#*Kernel panic - }" ;;
			*) reason="${pat%:} in console log: $line" ;;
			esac
			break
		fi
	done
fi
if [[ -z $reason ]]; then
	status=$(sed -n 's/^.*EDGE-GUEST-EXIT=\([0-9]*\).*$/\1/p' "$console" | tail -n1)
	if [[ -z $status ]]; then
		reason="no exit status from guest (qemu exit $qrc)"
	elif [[ $status != 0 ]]; then
		reason="payload failed (status $status)"
	elif ((qrc != 1)); then
		reason="unexpected qemu exit $qrc"
	fi
fi

if [[ -z $reason ]]; then
	exit 0
fi
{
	echo "guest: $reason [$elapsed s]"
	if [[ -s $tmp/qemu.err ]]; then
		echo "--- qemu stderr"
		cat "$tmp/qemu.err"
	fi
	echo "--- last 40 lines of console log$( ((keep_logs)) && echo " ($console)")"
	tail -n 40 "$console"
} >&2
exit 1
