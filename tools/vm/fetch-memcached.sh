#!/bin/bash
# Debian's memcached for make bench's MemC comparison (tools/vm/netrx-bench.sh):
# the packages are downloaded and unpacked into the cache, never installed,
# so no daemon starts on the host.  memcached's own libraries that a host
# may lack (libevent, libsasl2) come along; libc and libssl are the host's,
# as nc's are (tools/vm/payload.sh copies what ldd resolves).
#
# Usage: fetch-memcached.sh CACHE_DIR
# Writes CACHE_DIR/memcached/{usr/bin/memcached,usr/lib/...}; instant when
# it is there.
set -euo pipefail
log() { echo "fetch-memcached: $*" >&2; }
pkgs=(memcached libevent-2.1-7 libsasl2-2)
cache=$(cd "${1:?usage: fetch-memcached.sh CACHE_DIR}" && pwd -P)
out=$cache/memcached
have() { [[ -x $out/usr/bin/memcached ]]; }
have && exit 0
exec 9>"$cache/.memcached.lock"
flock 9
have && exit 0
dl=$(mktemp -d "$cache/.memcached.XXXXXX")
trap 'rm -rf "$dl"' EXIT
download() { (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "${pkgs[@]}") >&2; }
download || { apt-get update -q >&2 && download; }
for deb in "$dl"/*.deb; do dpkg-deb -x "$deb" "$dl/root"; done
# Only the binary and the libraries: no init scripts, no docs.
mkdir -p "$dl/keep/usr/bin"
cp -a "$dl/root/usr/bin/memcached" "$dl/keep/usr/bin/"
cp -a "$dl/root/usr/lib" "$dl/keep/usr/"
rm -rf "$out"
mv "$dl/keep" "$out"
log "$(dpkg-deb -f "$dl"/memcached_*.deb Version) in $out"
