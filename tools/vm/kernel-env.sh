#!/bin/bash
# Sourced, not run: kernel_env CACHE_DIR SERIES sets KV, KDIR and VMLINUX
# (absolute) from CACHE_DIR/kernel-SERIES.env (tools/vm/fetch-kernel.sh),
# whose paths are relative to the cache so that a copied cache builds
# against its own headers.  Returns non-zero when the kernel is not fetched.
# shellcheck shell=bash
kernel_env() {
	local cache=$1 series=$2
	KV='' KDIR='' VMLINUX=''
	[[ -s $cache/kernel-$series.env ]] || return 1
	# shellcheck source=/dev/null
	. "$cache/kernel-$series.env"
	KDIR=$cache/$KDIR
	VMLINUX=$cache/$VMLINUX
	[[ -n $KV && -f $KDIR/Makefile && -f $VMLINUX ]]
}
# The kernels make check runs on (the debug kernel is tools/vm/debug-kernel's).
# shellcheck disable=SC2034
KERNELS=(6.1 6.12)
