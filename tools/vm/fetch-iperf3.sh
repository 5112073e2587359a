#!/bin/bash
# Debian's iperf3 for edge_router_test.sh's UDP stream: the packages
# downloaded (apt-get download: no install, so no daemon is started)
# and extracted into CACHE_DIR/iperf3 (usr/bin/iperf3 and the libraries
# it needs beyond the host's own: libiperf0, libsctp1); payload.sh
# brings the binary into the guest with every library it links.
#
# Usage: fetch-iperf3.sh CACHE_DIR      instant when it is there
set -euo pipefail
cache=${1:?usage: fetch-iperf3.sh CACHE_DIR}
out=$cache/iperf3
[[ -x $out/usr/bin/iperf3 ]] && exit 0
tmp=$(mktemp -d "$cache/.iperf3-x.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -q iperf3 libiperf0 libsctp1 >/dev/null 2>&1) || {
	echo "fetch-iperf3: apt-get download iperf3 libiperf0 libsctp1 failed" >&2
	exit 1
}
mkdir -p "$tmp/root"
for deb in "$tmp"/*.deb; do
	dpkg-deb -x "$deb" "$tmp/root"
done
[[ -x $tmp/root/usr/bin/iperf3 ]] || { echo "fetch-iperf3: no usr/bin/iperf3" >&2; exit 1; }
rm -rf "$out"
mv "$tmp/root" "$out"
