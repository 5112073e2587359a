#!/bin/bash
# Count the reports of the kernel's debugging tools in a guest console log:
# every KASAN report, lockdep splat, sleep in atomic context, WARN(),
# other BUG:, oops, hung task or RCU stall, and kmemleak's unreferenced
# objects (tools/vm/guest.sh prints /sys/kernel/debug/kmemleak there).
# A failed allocation's stack trace (warn_alloc) is not a report.
#
# Usage: kernel-reports.sh CONSOLE_LOG
# Prints one "# report: KIND: LINE" per report, then
# "debug_kernel_reports=N" and "# KIND=N ..." for the kinds seen.
# Exits 1 when N > 0 (or the log is missing), else 0.
#
# Known bugs of the guest kernel itself, which fault injection into module
# load reaches, are listed (not counted) as "# known kernel bug: ...":
#  - 6.1 __class_register(): when kset_register() fails it frees the
#    subsys_private but not the kobject name kstrdup()ed just before
#    (drivers/base/class.c; later kernels free it), so a failed
#    class_create() leaks 8 bytes.  Matched by a kmemleak report whose
#    backtrace has kobject_set_name and __class_register.
set -euo pipefail
log=${1:?usage: kernel-reports.sh CONSOLE_LOG}
[[ -r $log ]] || { echo "kernel-reports: no log $log" >&2; exit 1; }
awk '
function leak_end() {
	inleak = 0
	saved = $0
	$0 = hdr
	if (block ~ /kobject_set_name/ && block ~ /__class_register/) {
		known++
		line = $0
		sub(/^\[ *[0-9.]+\] /, "", line)
		print "# known kernel bug (6.1 __class_register leaks the name on error): " line
	} else {
		report("kmemleak")
	}
	$0 = saved
}
function report(kind) {
	n++
	count[kind]++
	line = $0
	sub(/^\[ *[0-9.]+\] /, "", line)
	print "# report: " kind ": " line
}
{ sub(/\r$/, "") }
/BUG: KASAN:/					{ report("kasan"); next }
/BUG: sleeping function called from invalid context/ { report("sleep_in_atomic"); next }
/BUG: scheduling while atomic/			{ report("sleep_in_atomic"); next }
/WARNING: CPU: [0-9]+ PID: [0-9]+/		{ report("warn"); next }
/(WARNING|BUG): (possible|inconsistent|suspicious|bad unlock|held lock|lock held|Nested lock|MAX_LOCKDEP|looking up invalid subclass|Invalid wait context|.* still has locks held)/ {
						  report("lockdep"); next }
# A kmemleak report is a block: its header and indented lines.
inleak && /^  / { block = block "\n" $0; next }
inleak { leak_end() }
/unreferenced object 0x/			{ inleak = 1; block = $0; hdr = $0; next }
/INFO: task .* blocked for more than/		{ report("hung_task"); next }
/rcu: INFO: .*detected stall/			{ report("rcu_stall"); next }
/BUG: |Oops: |general protection fault|Kernel panic/ { report("other"); next }
END {
	if (inleak)
		leak_end()
	printf "debug_kernel_reports=%d\n", n
	if (known)
		printf "# known kernel bugs (not counted): %d\n", known
	if (n) {
		s = "#"
		for (k in count)
			s = s " " k "=" count[k]
		print s
	}
	exit n > 0
}' "$log"
