// SPDX-License-Identifier: GPL-2.0
/*
 * guest-exit STATUS: the test guest's /init leaves QEMU through its
 * isa-debug-exit device (tools/vm/run-guest.sh: -device isa-debug-exit,
 * iobase=0xf4), so that QEMU's own exit code is (STATUS << 1) | 1.
 *
 * One outb with ioperm(), rather than a write to /dev/port: the debug
 * kernel has no PCI (make check's time budget), and on x86_64 /dev/port
 * needs it.  Built static by run-guest.sh, for every kernel alike.
 */
#include <stdlib.h>
#include <sys/io.h>

int main(int argc, char **argv)
{
	int v = argc > 1 ? atoi(argv[1]) : 127;

	/* Below 128: a failure must never wrap to 1 (a pass) in 8 bits. */
	if (v < 0 || v > 127)
		v = 127;
	if (ioperm(0xf4, 1, 1))
		return 1;
	outb(v, 0xf4);
	return 1;	/* only without the device: a failure on the host */
}
