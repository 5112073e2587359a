#!/bin/bash
# make check's test of libedge as an installed library: install it into a
# scratch prefix (make install PREFIX=, tools/libedge/Makefile), build the example program of
# Documentation/libedge/libedge.7.rst with `pkg-config --cflags --libs
# edge` (and --static against libedge.a), check what the prefix holds
# (soname, edge.pc's version, man -l of the pages), and leave in OUT what
# the guest runs (selftests/edge/edge_libedge_pc_test.sh): the two
# programs, libedge.so.1 with the C library and its loader, two wrappers.
# Usage: pc-test.sh OUT
set -euo pipefail
out=${1:?usage: pc-test.sh OUT}
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "pc-test: $*" >&2; exit 1; }

make -s -C "$top/tools/libedge" install PREFIX="$prefix" O="$tmp/build" >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
want=$(sed -n 's/^#define LIBEDGE_VERSION_MAJOR[^0-9]*//p' "$top/tools/libedge/libedge.h")
want+=.$(sed -n 's/^#define LIBEDGE_VERSION_MINOR[^0-9]*//p' "$top/tools/libedge/libedge.h")
[[ $(pkg-config --modversion edge) == "$want" ]] || fail "edge.pc's version is not $want"
readelf -d "$prefix/lib/libedge.so" | grep -q 'SONAME.*\[libedge\.so\.1\]' ||
	fail "libedge.so has no soname libedge.so.1"
# Every page renders, and each alias leads to its page.
for p in "$prefix"/share/man/man[37]/*; do
	(cd "$prefix/share/man" && MANWIDTH=80 man -l "$p" >"$tmp/page") ||
		fail "man -l $p failed"
	grep -q -i 'NAME' "$tmp/page" || fail "man -l $p rendered nothing"
done

# The example: the manual's only code block, as printed.
awk '/^\.\. code-block:: c$/ { f = 1; next }
     f && /^[^ \t]/ { exit }
     f { sub(/^   /, ""); print }' "$top/Documentation/libedge/libedge.7.rst" \
	>"$tmp/example.c"
grep -q 'int main' "$tmp/example.c" || fail "no example in libedge.7.rst"
rm -rf "$out"
mkdir -p "$out/lib"
# shellcheck disable=SC2046 # pkg-config's words are the point
cc -O2 -Wall -Wextra -Werror -o "$out/example-shared" "$tmp/example.c" \
	$(pkg-config --cflags --libs edge)
# shellcheck disable=SC2046
cc -O2 -Wall -Wextra -Werror -static -o "$out/example-static" "$tmp/example.c" \
	$(pkg-config --static --cflags --libs edge)
readelf -d "$out/example-shared" | grep -q 'NEEDED.*\[libedge\.so\.1\]' ||
	fail "the example does not link libedge.so.1"
# The guest has no C library: the loader and libc come along, and the
# loader finds libedge.so.1 by its soname in lib/.
cp -L "$prefix/lib/libedge.so.1" "$out/lib/"
ldd "$out/example-shared" | awk '$(NF-1) ~ /^\// { print $(NF-1) } $1 ~ /^\// { print $1 }' |
	grep -v libedge | sort -u | while read -r lib; do cp -L "$lib" "$out/lib/"; done
cat >"$out/run-shared" <<'EOF2'
#!/bin/sh
d=$(dirname "$0")
exec "$d/lib/ld-linux-x86-64.so.2" --library-path "$d/lib" "$d/example-shared" "$@"
EOF2
cat >"$out/run-static" <<'EOF2'
#!/bin/sh
exec "$(dirname "$0")/example-static" "$@"
EOF2
chmod +x "$out/run-shared" "$out/run-static"
