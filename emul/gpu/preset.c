// SPDX-License-Identifier: GPL-2.0
/*
 * Device presets, from the papers' configuration tables.
 */
#include "gpu/preset.h"

static const struct edge_preset edge_presets[] = {
	{
		/* EDGE Table II (Gem5-GPU, GTX 480-like). */
		.name = "edge",
		.num_cores = 16,
		.clock_khz = 700000,
		.warp_size = 32,
		.threads_per_core = 2048,
		.tb_slots_per_core = 16,
		.regs_per_core = 65536,
		.smem_per_core = 48 * 1024,
		.max_block_threads = 1024,
		.max_regs_per_thread = 255,
		/* The GTX 480's 1.5 GB (the paper gives none). */
		.mem_bytes = 1536ULL << 20,
	},
	{
		/*
		 * LAX Table 2: 8 CUs at 1500 MHz, 4 SIMD x 10 wavefronts of
		 * 64 lanes; 256 KB of vector registers is 65536 32-bit ones.
		 */
		.name = "lax",
		.num_cores = 8,
		.clock_khz = 1500000,
		.warp_size = 64,
		.threads_per_core = 4 * 10 * 64,
		.tb_slots_per_core = 40,
		.regs_per_core = 65536,
		.smem_per_core = 64 * 1024,
		.max_block_threads = 1024,
		.max_regs_per_thread = 255,
		/* LAX Table 2's 16 GB of DDR4, shared with the CPU. */
		.mem_bytes = 16ULL << 30,
	},
	{
		/* A Hopper-class part at its boost clock. */
		.name = "h100-like",
		.num_cores = 132,
		.clock_khz = 1980000,
		.warp_size = 32,
		.threads_per_core = 2048,
		.tb_slots_per_core = 32,
		.regs_per_core = 65536,
		.smem_per_core = 228 * 1024,
		.max_block_threads = 1024,
		.max_regs_per_thread = 255,
		/* H100 SXM5: 80 GB of HBM3. */
		.mem_bytes = 80ULL << 30,
	},
	{
		/*
		 * Pai et al. Table 4 (GPGPU-Sim 3.2's GTX 480): 15 SMs of
		 * 1536 threads (48 warps), 32768 registers, 48 KB shared
		 * memory, 8 TBs; GPGPU-Sim's GTX 480 clock (the paper's none).
		 */
		.name = "gtx480-pai",
		.num_cores = 15,
		.clock_khz = 700000,
		.warp_size = 32,
		.threads_per_core = 1536,
		.tb_slots_per_core = 8,
		.regs_per_core = 32768,
		.smem_per_core = 48 * 1024,
		.max_block_threads = 1024,
		.max_regs_per_thread = 63,
		/* GPGPU-Sim's GTX 480: 6 channels of 256 MB. */
		.mem_bytes = 1536ULL << 20,
		/*
		 * GPGPU-Sim issues each cycle from the warps resident then:
		 * a TB speeds up as its co-runners leave (Table 3's JPEG-e
		 * ran its partial last wave in ~0.73 t).
		 */
		.corun_live = true,
	},
	{
		/*
		 * C-Laius' GPU (Table 4): an RTX 2080 Ti, 68 Turing SMs at
		 * the 1545 MHz boost clock; Turing's per-SM limits (1024
		 * threads, 16 blocks, 64 K registers, 64 KB shared memory);
		 * 616 GB/s of global memory bandwidth (Section 9.1).
		 */
		.name = "rtx2080ti",
		.num_cores = 68,
		.clock_khz = 1545000,
		.warp_size = 32,
		.threads_per_core = 1024,
		.tb_slots_per_core = 16,
		.regs_per_core = 65536,
		.smem_per_core = 64 * 1024,
		.max_block_threads = 1024,
		.max_regs_per_thread = 255,
		.mem_bw_mbs = 616000,
		.mem_load_pct = 12,
		.mem_bytes = 11ULL << 30,	/* 11 GB of GDDR6 */
	},
	{
		/*
		 * MGB's 2-GPU machine (Chameleon): Tesla P100 PCIe 16 GB,
		 * from NVIDIA's Pascal whitepaper and P100 datasheet: 56 SMs
		 * at the 1303 MHz boost clock, per SM 2048 threads (64
		 * warps), 32 blocks, 64 K registers, 64 KB shared memory;
		 * 732 GB/s of HBM2.  mem_load_pct as the rtx2080ti's (no
		 * P100 figure; unused by the placement reproduction).
		 */
		.name = "p100",
		.num_cores = 56,
		.clock_khz = 1303000,
		.warp_size = 32,
		.threads_per_core = 2048,
		.tb_slots_per_core = 32,
		.regs_per_core = 65536,
		.smem_per_core = 64 * 1024,
		.max_block_threads = 1024,
		.max_regs_per_thread = 255,
		.mem_bw_mbs = 732000,
		.mem_load_pct = 12,
		.mem_bytes = 16ULL << 30,
	},
	{
		/*
		 * MGB's 4-GPU machine (AWS p3.8xlarge): Tesla V100 SXM2
		 * 16 GB, from NVIDIA's Volta whitepaper: 80 SMs at the
		 * 1530 MHz boost clock, per SM 2048 threads (64 warps), 32
		 * blocks, 64 K registers, up to 96 KB shared memory; 900 GB/s
		 * of HBM2.
		 */
		.name = "v100",
		.num_cores = 80,
		.clock_khz = 1530000,
		.warp_size = 32,
		.threads_per_core = 2048,
		.tb_slots_per_core = 32,
		.regs_per_core = 65536,
		.smem_per_core = 96 * 1024,
		.max_block_threads = 1024,
		.max_regs_per_thread = 255,
		.mem_bw_mbs = 900000,
		.mem_load_pct = 12,
		.mem_bytes = 16ULL << 30,
	},
	{
		/* The same V100 SXM2 with 32 GB of HBM2. */
		.name = "v100-32g",
		.num_cores = 80,
		.clock_khz = 1530000,
		.warp_size = 32,
		.threads_per_core = 2048,
		.tb_slots_per_core = 32,
		.regs_per_core = 65536,
		.smem_per_core = 96 * 1024,
		.max_block_threads = 1024,
		.max_regs_per_thread = 255,
		.mem_bw_mbs = 900000,
		.mem_load_pct = 12,
		.mem_bytes = 32ULL << 30,
	},
};

const struct edge_preset *edge_preset_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(edge_presets); i++)
		if (!strcmp(edge_presets[i].name, name))
			return &edge_presets[i];
	return NULL;
}

/* The @i-th preset of the table, or NULL past its end: for listings. */
const struct edge_preset *edge_preset_at(unsigned int i)
{
	return i < ARRAY_SIZE(edge_presets) ? &edge_presets[i] : NULL;
}

const struct edge_preset *edge_preset_default(void)
{
	return &edge_presets[0];
}
