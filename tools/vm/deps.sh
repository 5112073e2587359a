#!/bin/bash
# Install the host packages needed to build the module and boot the test
# guest. Silent and instant when everything is already installed.
set -euo pipefail

pkgs=(
	qemu-system-x86 qemu-system-data  # qemu-system-data ships qboot.rom
	busybox-static cpio gzip kmod xz-utils
	gcc gcc-12 libc6-dev make bc pkg-config clang sparse
	libnl-genl-3-dev
	libnl-route-3-dev netcat-openbsd  # edge_netrx: the veth pair; nc -u, the UDP client
	python3-yaml                      # tools/nlspec-check.py (make check)
	python3-jsonschema                # the spec against the kernel's schema (make lint)
	python3-docutils                  # tools/rst-check.py (make lint); rst2man (libedge)
	python3-pygments                  # rst2man's code blocks (a Recommends of docutils)
	man-db                            # man -l of libedge's pages (tools/libedge/pc-test.sh)
	libelf1 libssl3                   # linux-kbuild-6.1's binaries (dpkg -x, not installed)
	perl                              # checkpatch.pl
	gnuplot-nox                       # edge-sim plots (make repro-*)
	valgrind                          # callgrind figures in the benchmarks
	flex bison libelf-dev             # the debug guest kernel (tools/vm/debug-kernel)
	patch                             # planted bugs (tools/vm/plant-bug.sh)
	dwarves zstd                      # 6.12: pahole for its modules' BTF; its vmlinuz is zstd
	libclang-rt-14-dev                # libFuzzer runtime (selftests/fuzz)
)

# One dpkg-query for all (unknown names are simply absent from its output).
declare -A ok=()
while read -r name status; do
	if [[ $status == "install ok installed" ]]; then ok[${name%%:*}]=1; fi
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${pkgs[@]}" 2>/dev/null || true)
missing=()
for p in "${pkgs[@]}"; do
	[[ -n ${ok[$p]:-} ]] || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

if ((EUID != 0)); then
	echo "deps.sh: need root to install: ${missing[*]}" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "deps.sh: installing ${missing[*]}" >&2
install() { apt-get install -y -q --no-install-recommends "${missing[@]}"; }
# A fresh machine may have no package lists, and stale lists 404 on
# security updates: refresh only when the first attempt fails.
if ! install; then
	apt-get update -q
	install
fi
