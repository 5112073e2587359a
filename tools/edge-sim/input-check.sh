#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# input-check.sh: every edge-sim input format refuses a bad value of each
# of its keys with exit 2 and a message that names the key (Documentation/
# edge-sim.rst, "Errors").  TAP, one test per bad case; ends with
# input_check_bad=PASSED/ALL.
#
#   tools/edge-sim/input-check.sh [EDGE_SIM]
#
# Each case starts from a small input that runs (checked first, so a case
# fails for its key and not for the rest of the file), changes one key,
# and expects exit 2 with "KEY=" (or the key's name) in the message.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SIM=${1:-${EDGE_SIM:-$here/../../build/host/edge-sim}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 pass=0

# case DESC WANT CMD...: exit 2 and WANT in stderr.
case_() {
	local desc=$1 want=$2 rc
	shift 2
	n=$((n + 1))
	timeout 60 "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	if ((rc == 2)) && grep -qF -- "$want" "$tmp/err"; then
		pass=$((pass + 1))
		echo "ok $n $desc # $(head -1 "$tmp/err")"
	else
		echo "not ok $n $desc # exit $rc: $(head -1 "$tmp/err")"
	fi
}

# good DESC CMD...: the base input runs.
good() {
	local desc=$1
	shift
	n=$((n + 1))
	if timeout 60 "$@" >/dev/null 2>"$tmp/err"; then
		pass=$((pass + 1))
		echo "ok $n $desc runs"
	else
		echo "not ok $n $desc runs # $(head -1 "$tmp/err")"
	fi
}

# ---- scenario
cat >"$tmp/s.sim" <<'S'
preset edge
runs 1
kernel BG grid=4 block=64 regs=16 cycles=2000 rsd=5
kernel EV grid=1 block=32 regs=16 cycles=100
background BG
stream ev kernel=EV arrival=uniform count=4
S
good scenario "$SIM" "$tmp/s.sim"
# key=bad value, one per kernel key (the model's validator or the reader)
for kv in grid=0 grid=4294967297 block=2048 block=0 regs=0 regs=300 \
	smem=99999999 cycles=0 cycles=2000000000000 prio=99 rsd=500 \
	corun=10001 p_pipe=1001 pipe_cycles=10000001 ibuf=65 p_load=1001 \
	load_cycles=10000001 p_barrier=1001 barrier_cycles=10000001 \
	early_pct=101 p_membar=1001 membar_cycles=10000001 p_icache=1001 \
	icache_cycles=10000001 ewarp_corun=10001 mem=101 chain=x gap=-1; do
	case_ "scenario kernel ${kv%%=*}" "${kv%%=*}=" "$SIM" -s "BG.$kv" "$tmp/s.sim"
done
case_ "scenario kernel unknown key" "nearest: regs" "$SIM" -s BG.rgs=3 "$tmp/s.sim"
for kv in arrival=poison mean=x count=1x cap=-1 overflow=dorp from=x to=x stop=bgg; do
	case_ "scenario stream ${kv%%=*}" "${kv%%=*}=" "$SIM" -s "ev.$kv" "$tmp/s.sim"
done
case_ "scenario stream unknown key" "nearest: mean" "$SIM" -s ev.maen=3 "$tmp/s.sim"
for kv in chain=x gap=x at=x; do
	case_ "scenario background ${kv%%=*}" "${kv%%=*}=" "$SIM" -s "background.$kv" "$tmp/s.sim"
done
for kv in seed=x runs=0 until=x sched=drian victim=olderst tb_policy=nosuch \
	flush=boots flush=boost,loads flush=loads+ reserve_pct=101 dispatch_cycles=1000001 \
	sched_wait_cycles=1000001 ctx_bytes_per_cycle=0 skip_event_exec=x; do
	case_ "scenario ${kv%%=*}" "${kv%%=*}=" "$SIM" -s "$kv" "$tmp/s.sim"
done
case_ "scenario preset" "preset=" "$SIM" -s preset=h10 "$tmp/s.sim"
case_ "scenario unknown key" "nearest: seed" "$SIM" -s sede=1 "$tmp/s.sim"
sed '3s/$/ regs=300/' "$tmp/s.sim" >"$tmp/s2.sim"
case_ "scenario file:line" "s2.sim:3: regs=300" "$SIM" "$tmp/s2.sim"
# A stream's name heads CSV columns (ev.sched_avg): no comma, no dot.
for name in a,b a.b; do
	{ cat "$tmp/s.sim"; echo "stream $name kernel=EV"; } >"$tmp/s3.sim"
	case_ "scenario stream name $name" "s3.sim:7: stream '$name'" "$SIM" "$tmp/s3.sim"
done

# ---- jobs
cat >"$tmp/w.jobs" <<'J'
workload T
preset lax
jobs 8
runs 1
kernel K block=64 grid=2 ns=2000 regs=16
deadline_us 1000
rate low 1000
part pre=K
J
good jobs "$SIM" jobs "$tmp/w.jobs"
for kv in block=5000 block=0 grid=0 regs=0 smem=99999999 ns=x ns=0 \
	ns=2000000000000 corun=10001 mem=101 rsd=500; do
	sed "s/^kernel K block=64 grid=2 ns=2000 regs=16/kernel K block=64 grid=2 ns=2000 regs=16 $kv/" \
		"$tmp/w.jobs" >"$tmp/b.jobs"
	case_ "jobs kernel ${kv%%=*}" "b.jobs:5: ${kv%%=*}=" "$SIM" jobs "$tmp/b.jobs"
done
for kv in "jobs 0" "runs 0" "parse_ns x" "host_ns 2000000000" "predict_ns 1000000001" \
	"profile_us 5000000" "prema_ns 999" "prema_ns x" "seed x" "deadline_us 0" \
	"seq mean=0 rsd=1" "rate low x" "preset h10" "part pre=Q" "workload a,b"; do
	{ cat "$tmp/w.jobs"; echo "$kv"; } >"$tmp/b.jobs"
	k=${kv%% *}
	case_ "jobs $k" "b.jobs:9: " "$SIM" jobs "$tmp/b.jobs"
done
{ cat "$tmp/w.jobs"; echo "jbos 3"; } >"$tmp/b.jobs"
case_ "jobs unknown key" "nearest: jobs" "$SIM" jobs "$tmp/b.jobs"
: >"$tmp/e.jobs"
case_ "jobs empty workload" "workload=" "$SIM" jobs "$tmp/e.jobs"
case_ "jobs -P" "'nosuch'" "$SIM" jobs -P nosuch "$tmp/w.jobs"
case_ "jobs -P rr,LAX" "'LAX'" "$SIM" jobs -P rr,LAX "$tmp/w.jobs"
case_ "jobs -r" "'medium'" "$SIM" jobs -r medium "$tmp/w.jobs"
case_ "jobs -R" "-R=" "$SIM" jobs -R 0 "$tmp/w.jobs"

# ---- pairs
cat >"$tmp/p.txt" <<'P'
preset edge
corun 10
kernel A block=128 grid=16 t=2000 regs=16
kernel B block=256 grid=8 t=3000 regs=16
P
good pairs "$SIM" pairs run "$tmp/p.txt"
for kv in block=5000 grid=0 grid=4294967297 regs=300 smem=99999999 t=0 \
	t=2000000000000 rsd=500 skew=2 r=x runtime=x; do
	sed "s/^kernel A block=128 grid=16 t=2000 regs=16/kernel A block=128 grid=16 t=2000 regs=16 $kv/" \
		"$tmp/p.txt" >"$tmp/b.txt"
	case_ "pairs kernel ${kv%%=*}" "b.txt:3: ${kv%%=*}=" "$SIM" pairs run "$tmp/b.txt"
done
sed 's/^corun 10/corun 10001/' "$tmp/p.txt" >"$tmp/b.txt"
case_ "pairs corun" "b.txt:2: corun=" "$SIM" pairs run "$tmp/b.txt"
sed 's/^preset edge/preset edg/' "$tmp/p.txt" >"$tmp/b.txt"
case_ "pairs preset" "preset=edg" "$SIM" pairs run "$tmp/b.txt"
sed 's/ t=2000/ tt=2000/' "$tmp/p.txt" >"$tmp/b.txt"
case_ "pairs unknown key" "nearest: t" "$SIM" pairs run "$tmp/b.txt"
case_ "pairs -P" "'nosuch'" "$SIM" pairs run -P nosuch "$tmp/p.txt"
case_ "pairs -o" "-o=" "$SIM" pairs run -o 101 "$tmp/p.txt"

# ---- C-Laius
cat >"$tmp/c.txt" <<'C'
preset edge
service S pcie_us=10
task tbs=16 threads=128 tb_us=20 mem=10
batch B
task tbs=64 threads=256 tb_us=50 mem=20
C
good claius "$SIM" claius -q 2 -i 1 -P claius "$tmp/c.txt" pairs
for kv in tbs=68x tbs=0 threads=5000 tb_us=0 tb_us=999999999999 mem=abc \
	mem=101 bw=x corun=10001 rsd=500 smem=99999999 regs=300; do
	sed "3s/\$/ $kv/" "$tmp/c.txt" >"$tmp/b.txt"
	case_ "claius task ${kv%%=*}" "b.txt:3: ${kv%%=*}=" "$SIM" claius -q 2 -i 1 "$tmp/b.txt" pairs
done
sed '2s/pcie_us=10/pcie_us=1x/' "$tmp/c.txt" >"$tmp/b.txt"
case_ "claius pcie_us" "b.txt:2: pcie_us=" "$SIM" claius -q 2 -i 1 "$tmp/b.txt" pairs
printf 'preset edge\nbatch X\n' >"$tmp/b.txt"
case_ "claius app with no task" "batch=X" "$SIM" claius "$tmp/b.txt" pairs
sed '3s/tbs=16/tsb=16/' "$tmp/c.txt" >"$tmp/b.txt"
case_ "claius unknown key" "nearest: tbs" "$SIM" claius "$tmp/b.txt" pairs
for o in "-q 0" "-m 3x4" "-l x" "-i 0" "-s x"; do
	# shellcheck disable=SC2086 # the option and its value
	case_ "claius ${o%% *}" "${o%% *}=" "$SIM" claius $o "$tmp/c.txt" pairs
done
case_ "claius -P" "'nosuch'" "$SIM" claius -P nosuch "$tmp/c.txt" pairs
case_ "claius -B" "'Q'" "$SIM" claius -B Q "$tmp/c.txt" pairs

# ---- MGB
cat >"$tmp/m.jobs" <<'M'
job J small mem_mb=100 threads=256 blocks=64 tb_ms=1 kernels=2
M
cat >"$tmp/m.table" <<'T'
W1 mix J J
T
good mgb "$SIM" mgb -g 1 -W 1 "$tmp/m.jobs" "$tmp/m.table"
for kv in mem_mb=17592186044416 mem_mb=0 threads=32 threads=2048 blocks=0 \
	tb_ms=4000000000 tb_ms=x kernels=0 kernels=999; do
	sed "1s/\$/ $kv/" "$tmp/m.jobs" >"$tmp/b.jobs"
	case_ "mgb job ${kv%%=*}" "b.jobs:1: ${kv%%=*}=" "$SIM" mgb -g 1 -W 1 "$tmp/b.jobs" "$tmp/m.table"
done
sed '1s/tb_ms/tbms/' "$tmp/m.jobs" >"$tmp/b.jobs"
case_ "mgb unknown key" "nearest: tb_ms" "$SIM" mgb -g 1 -W 1 "$tmp/b.jobs" "$tmp/m.table"
printf 'W1 mix\n' >"$tmp/b.table"
case_ "mgb empty workload" "workload=W1" "$SIM" mgb -g 1 -W 1 "$tmp/m.jobs" "$tmp/b.table"
: >"$tmp/e.table"
case_ "mgb no workload" "workload=" "$SIM" mgb -g 1 -W 1 "$tmp/m.jobs" "$tmp/e.table"
case_ "mgb -P" "'nosuch'" "$SIM" mgb -g 1 -W 1 -P nosuch "$tmp/m.jobs" "$tmp/m.table"
case_ "mgb -w" "'W2'" "$SIM" mgb -g 1 -W 1 -w W2 "$tmp/m.jobs" "$tmp/m.table"
case_ "mgb -m" "'p10'" "$SIM" mgb -m p10 -g 1 -W 1 "$tmp/m.jobs" "$tmp/m.table"

echo "1..$n"
echo "input_check_bad=$pass/$n"
((pass == n))
