#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uapi/linux/edge_netlink.h from Documentation/netlink/specs/edge.yaml, by
# the kernel's YNL generator in uapi mode (linux-source-6.12's
# tools/net/ynl/ynl-gen-c.py, unmodified), on stdout.
#
#   tools/nlspec-gen.sh YNL_SRC [SPEC]
#
# ynl-gen-c.py reads its schema beside the spec's directory
# (Documentation/netlink/PROTOCOL.yaml) and names the spec relative to the
# tree holding MAINTAINERS: it runs on a copy laid out as a kernel tree
# would be, so its output names the spec's path in this tree.
set -euo pipefail
src=${1:?YNL_SRC}
top=$(cd "$(dirname "$0")/.." && pwd)
spec=${2:-$top/Documentation/netlink/specs/edge.yaml}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Documentation/netlink/specs"
touch "$tmp/MAINTAINERS"
cp "$src"/Documentation/netlink/genetlink*.yaml "$tmp/Documentation/netlink/"
cp "$spec" "$tmp/Documentation/netlink/specs/edge.yaml"
"${PYTHON:-python3}" "$src/tools/net/ynl/ynl-gen-c.py" --mode uapi --header \
	--spec "$tmp/Documentation/netlink/specs/edge.yaml" -o "$tmp/out.h" >&2
cat "$tmp/out.h"
