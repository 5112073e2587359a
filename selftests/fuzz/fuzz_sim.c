// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_sim_{scenario,jobs,pairs,claius,mgb}: edge-sim's five input
 * readers (tools/edge-sim) on any bytes, one target per format (SIM_FMT
 * picks it at build time).  The input is written to a file and the
 * subcommand's own main() reads it, as `edge-sim ... FILE` would, with
 * sim_parse_only set: it reads, validates every kernel with the model's
 * validator and returns, or refuses the input through sim_exit(), which
 * returns here by longjmp instead of ending the process.
 *
 * Asserts (with ASan and UBSan): no crash, overflow, leak or undefined
 * behaviour in a reader, the number reader or the validator, whatever
 * the bytes; an input is either accepted (0) or refused with exit code 2,
 * never anything else.  For mgb the bytes up to the first NUL are the
 * jobs file and the rest the table.
 *
 * The seeds are the repository's own inputs (corpus/fuzz_sim_FMT/, copies
 * of tools/edge-sim/scenarios and workloads); a scenario or workload may
 * include the repository's .inc files, which are linked beside the input.
 */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simutil.h"

int edge_sim_main(int argc, char **argv);
int jobsim_main(int argc, char **argv);
int pairsim_main(int argc, char **argv);
int claiusim_main(int argc, char **argv);
int mgbsim_main(int argc, char **argv);

#define FMT_SCENARIO	1
#define FMT_JOBS	2
#define FMT_PAIRS	3
#define FMT_CLAIUS	4
#define FMT_MGB		5

#ifndef SIM_FMT
#error "SIM_FMT: the format, 1 to 5"
#endif
#ifndef SIM_INPUTS
#error "SIM_INPUTS: tools/edge-sim, for the include files"
#endif

static char dir[64], in1[128], in2[128];

/*
 * The files a refused input leaves open (its reader longjmps out past
 * fclose()): closed after each input, so 20,000 inputs do not run out of
 * descriptors.  -Wl,--wrap=fopen,--wrap=fclose.
 */
FILE *__real_fopen(const char *path, const char *mode);
int __real_fclose(FILE *f);
static FILE *open_files[32];

FILE *__wrap_fopen(const char *path, const char *mode)
{
	FILE *f = __real_fopen(path, mode);
	size_t i;

	for (i = 0; f && i < 32; i++)
		if (!open_files[i]) {
			open_files[i] = f;
			break;
		}
	return f;
}

int __wrap_fclose(FILE *f)
{
	size_t i;

	for (i = 0; i < 32; i++)
		if (open_files[i] == f)
			open_files[i] = NULL;
	return __real_fclose(f);
}

static void close_all(void)
{
	size_t i;

	for (i = 0; i < 32; i++)
		if (open_files[i]) {
			__real_fclose(open_files[i]);
			open_files[i] = NULL;
		}
}

/* Every .inc of @from linked into the scratch folder: includes resolve. */
static void link_incs(const char *from)
{
	struct dirent *e;
	DIR *d = opendir(from);
	char src[512], dst[512];

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n < 4 || strcmp(e->d_name + n - 4, ".inc"))
			continue;
		snprintf(src, sizeof(src), "%s/%s", from, e->d_name);
		snprintf(dst, sizeof(dst), "%s/%s", dir, e->d_name);
		if (symlink(src, dst))
			;	/* a missing include is refused, as any */
	}
	closedir(d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = open("/dev/null", O_RDWR);

	(void)argc;
	(void)argv;
	/* An "include /dev/stdin" must not wait for a terminal. */
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);	/* a CSV header, if any */
		close(fd);
	}
	snprintf(dir, sizeof(dir), "/tmp/fuzz_sim.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	link_incs(SIM_INPUTS "/scenarios");
	link_incs(SIM_INPUTS "/scenarios/lax");
	snprintf(in1, sizeof(in1), "%s/in1", dir);
	snprintf(in2, sizeof(in2), "%s/in2", dir);
	sim_parse_only = true;
	return 0;
}

static void put(const char *path, const uint8_t *d, size_t n)
{
	FILE *f = __real_fopen(path, "w");

	if (!f)
		abort();
	if (n && fwrite(d, 1, n, f) != n)
		abort();
	__real_fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static jmp_buf jb;
	volatile int rc;
	char *argv[16];
	int argc = 0;

	if (SIM_FMT == FMT_MGB) {
		const uint8_t *nul = memchr(data, 0, size);
		size_t n1 = nul ? (size_t)(nul - data) : size;

		put(in1, data, n1);
		put(in2, nul ? nul + 1 : data, nul ? size - n1 - 1 : 0);
	} else {
		put(in1, data, size);
	}
	/* glibc: optind 0 starts getopt() afresh, as a new process would. */
	optind = 0;
	switch (SIM_FMT) {
	case FMT_SCENARIO:
		argv[argc++] = "edge-sim";
		break;
	case FMT_JOBS:
		argv[argc++] = "jobs";
		break;
	case FMT_PAIRS:
		argv[argc++] = "pairs";
		argv[argc++] = "run";
		break;
	case FMT_CLAIUS:
		argv[argc++] = "claius";
		break;
	case FMT_MGB:
		argv[argc++] = "mgb";
		break;
	}
	argv[argc++] = in1;
	if (SIM_FMT == FMT_CLAIUS)
		argv[argc++] = "pairs";
	if (SIM_FMT == FMT_MGB)
		argv[argc++] = in2;
	argv[argc] = NULL;

	sim_exit_jmp = &jb;
	rc = setjmp(jb);
	if (!rc) {
		switch (SIM_FMT) {
		case FMT_SCENARIO:
			rc = edge_sim_main(argc, argv);
			break;
		case FMT_JOBS:
			rc = jobsim_main(argc, argv);
			break;
		case FMT_PAIRS:
			/* pairsim_main() takes the mode as its argv[1]. */
			rc = pairsim_main(argc, argv);
			break;
		case FMT_CLAIUS:
			rc = claiusim_main(argc, argv);
			break;
		case FMT_MGB:
			rc = mgbsim_main(argc, argv);
			break;
		}
	}
	sim_exit_jmp = NULL;
	close_all();
	/* Accepted, or refused as an input error: nothing else. */
	if (rc != 0 && rc != 2)
		abort();
	return 0;
}
