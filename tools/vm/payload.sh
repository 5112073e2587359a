#!/bin/bash
# Assemble a guest payload directory: edge.ko, edge_nicsim.ko, the static
# tools, the kselftest binaries and the guest-side scripts.
# Usage: payload.sh OUTDIR BUILD_DIR [KO_DIR]
# KO_DIR: another build of the modules (the debug kernel's), holding
# edge.ko and edge_nicsim.ko; default the tree's.
set -euo pipefail
out=${1:?} build=${2:?}
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
kodir=${3:-$top}
cp "$kodir/edge.ko" "$kodir/edge_nicsim.ko" "$kodir/edge_netrx.ko" \
	"$kodir/edge_router.ko" \
	"$build/guest/edge-demo" "$build/guest/edge-bench" "$build/guest/edgectl" \
	"$build/guest/netrx" "$build/guest/bench-host" "$out/"
# The tests' netfilter hook: built only where the kernel has netfilter
# (Kbuild; not the debug kernel); the tests skip without it.
if [[ -f $kodir/edge_nfhook.ko ]]; then
	cp "$kodir/edge_nfhook.ko" "$out/"
fi
cp "$top/tools/vm/netrx-net.sh" "$top/tools/vm/netrx-demo.sh" \
	"$top/tools/vm/netrx-bench.sh" "$top/tools/vm/router-bench.sh" "$out/"
# Debian's veth.ko (tools/vm/fetch-netmods.sh), under its kernel's release:
# netrx-net.sh loads it only on that kernel.
cache=${CACHE:-$top/.cache}
# -L: a cache shared by symlinks (CACHE=a tree of links into another's)
# would otherwise put a link the guest cannot follow.
if [[ -d $cache/netmods ]]; then
	cp -rL "$cache/netmods" "$out/mod"
fi
# nc -u, the UDP client (busybox's nc has no -u): Debian's netcat-openbsd
# with the libraries it links, run through their own loader.
nc=$(command -v nc.openbsd || true)
if [[ -n $nc ]]; then
	mkdir -p "$out/nc"
	cp "$nc" "$out/nc/"
	ldd "$nc" | awk '$(NF-1) ~ /^\// { print $(NF-1) } $1 ~ /^\// { print $1 }' |
		sort -u | while read -r lib; do cp -L "$lib" "$out/nc/"; done
	cat >"$out/nc/nc" <<'EOF2'
#!/bin/sh
d=$(dirname "$0")
exec "$d/ld-linux-x86-64.so.2" --library-path "$d" "$d/nc.openbsd" "$@"
EOF2
	chmod +x "$out/nc/nc"
fi
# Debian's iperf3 (tools/vm/fetch-iperf3.sh) for edge_router_test.sh's
# UDP stream, the same way: its libraries from the cache, the rest from
# the host, run through their own loader.
ip3=$cache/iperf3
if [[ -x $ip3/usr/bin/iperf3 ]]; then
	mkdir -p "$out/iperf3"
	cp "$ip3/usr/bin/iperf3" "$out/iperf3/"
	cp -L "$ip3"/usr/lib/x86_64-linux-gnu/lib*.so.? "$out/iperf3/"
	LD_LIBRARY_PATH=$ip3/usr/lib/x86_64-linux-gnu ldd "$ip3/usr/bin/iperf3" |
		awk '$(NF-1) ~ /^\// { print $(NF-1) } $1 ~ /^\// { print $1 }' |
		sort -u | while read -r lib; do cp -L "$lib" "$out/iperf3/"; done
	cat >"$out/iperf3/iperf3.sh" <<'EOF2'
#!/bin/sh
d=$(dirname "$0")
exec "$d/ld-linux-x86-64.so.2" --library-path "$d" "$d/iperf3" "$@"
EOF2
	chmod +x "$out/iperf3/iperf3.sh"
fi
# Debian's memcached (tools/vm/fetch-memcached.sh), only when asked
# (PAYLOAD_MEMCACHED=1: make bench): netrx-bench.sh's CPU side of MemC.
# Its libraries as ldd finds them, the cache's first, through its own
# loader, as nc.
mc=$cache/memcached
if [[ ${PAYLOAD_MEMCACHED:-0} == 1 && -x $mc/usr/bin/memcached ]]; then
	mkdir -p "$out/memcached"
	cp "$mc/usr/bin/memcached" "$out/memcached/memcached.bin"
	LD_LIBRARY_PATH=$mc/usr/lib/x86_64-linux-gnu ldd "$mc/usr/bin/memcached" |
		awk '$(NF-1) ~ /^\// { print $(NF-1) } $1 ~ /^\// { print $1 }' |
		sort -u | while read -r lib; do cp -L "$lib" "$out/memcached/"; done
	cat >"$out/memcached/memcached" <<'EOF2'
#!/bin/sh
d=$(dirname "$0")
exec "$d/ld-linux-x86-64.so.2" --library-path "$d" "$d/memcached.bin" "$@"
EOF2
	chmod +x "$out/memcached/memcached"
fi
# The kernel's YNL client and Debian's python3 for edge_ynl_test.sh
# (tools/vm/payload-ynl.sh), from linux-source-6.12 (make ynl).  Without
# them the suite bails out: a failure, not an absence.  Made once into
# BUILD_DIR/ynl-payload (again when the spec or the script changes),
# under a lock: make check's stock and debug lanes make payloads at once.
ynl_src=$cache/linux-source-6.12
if [[ -f $ynl_src/tools/net/ynl/cli.py ]]; then
	ynl_cache=$build/ynl-payload
	(
		flock 9
		stamp=$ynl_cache/.done
		if [[ ! -f $stamp || $top/Documentation/netlink/specs/edge.yaml -nt $stamp ||
			$top/tools/vm/payload-ynl.sh -nt $stamp ]]; then
			rm -rf "$ynl_cache"
			"$top/tools/vm/payload-ynl.sh" "$ynl_cache" "$ynl_src"
			touch "$stamp"
		fi
	) 9>"$build/.ynl-payload.lock"
	cp -r "$ynl_cache/py" "$ynl_cache/ynl" "$out/"
fi
cp -r "$build/guest/selftests" "$out/selftests"
# The suites the guest must run, from the sources (a binary that did not
# build or was not copied is then a failure, not an absence), and the
# skips it may accept (tools/vm/guest.sh).
(cd "$top/selftests/edge" && LC_ALL=C ls -- *_test.c *_test.sh) |
	sed 's/\.c$//' >"$out/suites.list"
cp "$top/tools/vm/skip-allow.txt" "$out/"
cp "$top/tools/vm/guest.sh" "$out/run.sh"
cp "$top/tools/vm/kapi-bench.sh" "$out/kapi-bench.sh"
# The out-of-tree driver sample, built as its author would: make
# oot-sample's for the tree's kernel, tools/vm/kmod.sh's beside a stock
# KO_DIR (KO_DIR/../oot).  The debug kernel's KO_DIR has none: its guest
# does not run it.
oot=$build/oot-sample/edge_oot_sample.ko
[[ -z ${3:-} ]] || oot=$kodir/../oot/edge_oot_sample.ko
if [[ -f $oot ]]; then
	mkdir -p "$out/oot"
	cp "$oot" "$out/oot/"
else
	sed -i '/^edge_oot_sample_test\.sh$/d' "$out/suites.list"
fi
# libedge's example built through pkg-config against an installed copy
# (make libedge-pc), with its libraries.
if [[ -d $build/guest/libedge-pc ]]; then
	cp -r "$build/guest/libedge-pc" "$out/libedge-pc"
fi
