// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: print this host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms.
 *
 * Under TCG the guest's TSC is the host's counter (QEMU reads it), and
 * the debug kernel has no ACPI, so no HPET nor PM timer that it could
 * calibrate the TSC against (its PIT loop fails under TCG):
 * check-debug.sh passes this figure as tsc_early_khz=.  Needs a constant
 * TSC (x86_64 hosts of the last decade: constant_tsc, nonstop_tsc).
 */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void)
{
	struct timespec nap = { 0, 200000000 };
	double t0 = now();
	unsigned long long c0 = __rdtsc(), c1;
	double t1;

	nanosleep(&nap, NULL);
	c1 = __rdtsc();
	t1 = now();
	printf("%.0f\n", (double)(c1 - c0) / (t1 - t0) / 1000);
	return 0;
}
