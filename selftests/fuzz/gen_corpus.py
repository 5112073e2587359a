#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the hand-made seed inputs of the fuzz targets into corpus/<target>/.

The seeds are committed; run this again only after changing an input format
(the layouts are described at the top of each fuzz_*.c).  Each seed is a
small, meaningful case the fuzzer mutates from: a valid registration of each
kind, each struct-size rule, a hostile producer, each SIMT policy.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# struct edge_register (uapi/linux/edge.h)
VER0, VER1 = 136, 200


def reg(size=VER1, flags=0, func=2, prio=0, grid=(1, 1, 1), block=(32, 1, 1),
        regs=32, smem=0, psz=8, entries=64, cycles=700, ws=None, tail=b""):
    b = struct.pack("<14IQ", size, flags, func, prio, *grid, *block, regs,
                    smem, psz, entries, cycles)
    b += bytes(VER0 - len(b))           # id, doorbell, sq, cq: outputs
    b += struct.pack("<16I", *(ws or [0] * 16))
    return b[:max(size, VER0)] + tail if size <= VER1 else b + tail


# rsd corun p_pipe pipe ibuf p_load load p_bar bar early p_membar membar
# p_icache icache ewarp_corun mem
WS = [20, 30, 300, 8, 4, 400, 400, 500, 200, 20, 50, 100, 200, 300, 10, 40]

# script bytes of fuzz_register: op = b & 3 (ring (b>>2)+1, step,
# run (b>>2) us, flags)
SCRIPT = bytes([0 | 3 << 2, 1, 1, 2 | 5 << 2, 0, 1, 3 | 1 << 2, 1, 1, 1])

REGISTER = {
    "echo-ewarp": reg() + SCRIPT,
    "nop-tb-ver0": reg(size=VER0, func=1, grid=(4, 2, 1), block=(256, 1, 1),
                       regs=16, psz=16, entries=8, cycles=2000) + SCRIPT,
    "ws-prio": reg(prio=15, grid=(1, 1, 1), block=(8, 1, 1), regs=255,
                   smem=1024, psz=64, entries=4, cycles=123456, ws=WS) + SCRIPT,
    "tb-3d": reg(func=1, grid=(3, 2, 2), block=(8, 8, 4), regs=64,
                 smem=16384, entries=16, cycles=5000, ws=WS) + SCRIPT,
    # a page-sized struct with a zero tail: accepted
    "size-page": reg(size=4096, tail=bytes(4096 - VER1)),
    # a non-zero byte past the struct: E2BIG
    "size-tail": reg(size=VER1 + 8, tail=bytes([0, 0, 0, 1, 0, 0, 0, 0])),
    "size-small": reg(size=VER0 - 8),
    "flags": reg(flags=1),
    "max-ring": reg(func=1, psz=1024, entries=4096, cycles=1) + SCRIPT,
}

# fuzz_ring header: h0 preset|sched<<2|dispatch 0x10|skip 0x20|victim<<6,
# h1 entries(log2)|psz<<3|ECHO 0x20|shape<<6, h2 background|grid<<1|prio,
# h3 cycles.  Ops: low nibble kind, 0x10 = background entry.
PRODUCE, POLL, RUN_NEXT, STEP, CANCEL, UNREG, STEPS = 2, 6, 8, 9, 11, 12, 15
RING = {
    "produce": bytes([0x08, 0x20 | 3, 0, 4]) +
    bytes([PRODUCE, 5, STEP, STEP, PRODUCE, 7, STEPS, 15, UNREG, PRODUCE, 1,
           STEPS, 8]),
    "hostile-tail": bytes([0x00, 0x20 | 2, 0, 1]) +
    bytes([0, 0xff, 0xff, 0xff, 0xff, POLL, RUN_NEXT, POLL, 1, 0xfe, POLL,
           STEP, CANCEL, 0, 0x10, 0, 0, 0, STEPS, 3]),
    "scribble": bytes([0x05, 0x20 | 0x40 | 3, 3, 9]) +
    bytes([PRODUCE, 8, 3, 0, 0, 8] + [0xee] * 8 + [4, 0, 8] + [0x11] * 8 +
          [5, 9, 9, 9, 9, POLL, 0x10 | PRODUCE, 3, STEPS, 4, 13, 1, POLL,
           14, 40, 7, 7, 7, 7, STEPS, 15, 0x10 | CANCEL, STEPS, 5]),
    "tb-reserve": bytes([0x02 | 1 << 2 | 0x10, 0x80 | 2, 5, 2]) +
    bytes([PRODUCE, 4, 0x10 | PRODUCE, 4, STEP, 10, 0, 1, STEPS, 15,
           PRODUCE, 2, STEPS, 15]),
}


def cfg(sched=2, victim=0, flush=0xF, reserve=50, dispatch=0, wait=600,
        ctx=64, skip=0, seed=1):
    return struct.pack("<8IQ", sched, victim, flush, reserve, dispatch, wait,
                       ctx, skip, seed)


# fuzz_simt_cfg: preset, cfg, 16 shape bytes, ops (low nibble kind).
SHAPE = bytes([64, 0, 7, 31, 0, 0, 10, 20, 50, 30, 40, 60, 3, 31, 20, 15])
BG, EV, STEP1, SETRAW, SETFIELD, CANCEL_EV, FLAGS, MANY = 0, 1, 2, 4, 5, 7, 9, 15
CFG = {
    "preempt": bytes([0]) + cfg() + SHAPE +
    bytes([BG | 0x30, MANY | 0x30, EV | 0x70, MANY | 0xF0, MANY | 0xF0]),
    "reserve-live": bytes([0]) + cfg(sched=1, reserve=25) + SHAPE +
    bytes([BG | 0x70, MANY | 0x20, EV | 0x30, MANY | 0x10, SETFIELD, 3, 75,
           MANY | 0xF0, SETFIELD, 0, 2, MANY | 0xF0]),
    "drain-best": bytes([1]) + cfg(sched=0, victim=2, dispatch=300) + SHAPE +
    bytes([BG | 0x70, EV | 0x70, MANY | 0xF0, SETRAW]) +
    cfg(victim=2, flush=0) + bytes([MANY | 0xF0, CANCEL_EV, MANY | 0xF0]),
    "h100-skip": bytes([2]) + cfg(skip=1, seed=7) + SHAPE +
    bytes([BG | 0xF0, EV | 0xF0, MANY | 0xF0, FLAGS | 0x10, MANY | 0xF0]),
    # gtx480-pai: running TBs re-timed as occupancy changes, beside events.
    "gtx480-live": bytes([3]) + cfg(seed=3) + SHAPE +
    bytes([BG | 0xF0, MANY | 0x30, EV | 0x70, MANY | 0xF0, BG | 0x30,
           MANY | 0xF0, CANCEL_EV, MANY | 0xF0]),
    "invalid": bytes([0]) + cfg(ctx=0) + SHAPE +
    bytes([SETRAW]) + cfg(sched=3) + bytes([SETFIELD, 2, 0x80, 0x10, 0, 0, 0]),
}


# Reproducers of the known emul/ bugs (README): they pass in the default
# build (the harness steps around known bugs) and fail with FUZZ_STRICT=1.
CRASHES = {
    # bug 1: 1000 threads x 65 registers = 65000 <= 65536 passes validation,
    # but the model allocates whole warps: 1024 x 65 = 66560 never fits.
    "fuzz_register-partial-warp-regs":
    reg(func=1, grid=(2, 1, 1), block=(1000, 1, 1), regs=65, entries=1,
        cycles=100) + bytes([1, 1, 1]),
    # bug 2: policy reserve with reserve_pct 0 reserves no core for events.
    "fuzz_simt_cfg-reserve-no-event-core":
    bytes([0]) + cfg(sched=1, reserve=0) + SHAPE + bytes([EV, MANY | 0x30]),
    # bug 3: 1-cycle TBs take 0 ns above 1 GHz (lax, h100-like): one
    # run_until() runs the whole 2^63-TB grid at one instant.  Times out.
    "fuzz_register-zero-time-grid":
    reg(func=1, grid=(0x7FFFFFFF, 65535, 65535), block=(32, 1, 1), regs=32,
        entries=1, cycles=1) + bytes([1]),
}


def write(target, seeds):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


write("fuzz_register", REGISTER)
write("fuzz_ring", RING)
write("fuzz_simt_cfg", CFG)
os.makedirs(os.path.join(HERE, "crashes"), exist_ok=True)
for name, data in CRASHES.items():
    with open(os.path.join(HERE, "crashes", name), "wb") as f:
        f.write(data)
