#!/bin/bash
# Pull the few files we need from Debian's linux-source package (no package
# ships them otherwise) without ever unpacking the whole tree:
#   CACHE_DIR/ksft/kselftest*.h          kselftest headers (flat)
#   CACHE_DIR/checkpatch/checkpatch.pl   + spelling.txt, const_structs.checkpatch
#   CACHE_DIR/ynl/                       tools/net/ynl, when the tree has it
#
# Usage: fetch-linux-source.sh CACHE_DIR
# Instant when CACHE_DIR/.linux-source.stamp exists; delete it to refetch.
set -euo pipefail

if (($# != 1)); then
	echo "usage: $0 CACHE_DIR" >&2
	exit 2
fi
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
stamp=$cache/.linux-source.stamp

stamp_ok() { [[ -s $stamp && -f $cache/ksft/kselftest.h && -f $cache/checkpatch/checkpatch.pl ]]; }
stamp_ok && exit 0

exec 9>"$cache/.linux-source.lock"
flock 9
stamp_ok && exit 0

log() { echo "fetch-linux-source: $*" >&2; }
t0=$SECONDS

series_from_apt() {
	local out
	out=$(apt-cache depends linux-source 2>/dev/null) || return 0
	sed -n 's/^ *Depends: linux-source-\([0-9][0-9.]*\)$/\1/p' <<<"$out" | sed -n 1p
}
series=$(series_from_apt)
if [[ -z $series ]]; then
	apt-get update -q >&2 # fresh machine: no package lists yet
	series=$(series_from_apt)
fi
series=${series:-6.1}
pkg=linux-source-$series

work='' dl=''
trap 'rm -rf "$work" "$dl"' EXIT
dl=$(mktemp -d "$cache/.dl.XXXXXX")
download() { (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "$pkg") >&2; }
download || { apt-get update -q >&2 && download; }
deb=$(echo "$dl"/"$pkg"_*.deb)
[[ -f $deb ]] || { log "download of $pkg failed"; exit 1; }
ver=$(dpkg-deb -f "$deb" Version)
log "$pkg $ver"

# One pass: .deb -> inner tarball -> xz -> tar keeping only our patterns.
# '*' must not cross '/', so kselftest*.h stays in the selftests top dir.
work=$(mktemp -d "$cache/.src.XXXXXX")
patterns=(
	'*/tools/testing/selftests/kselftest*.h'
	'*/scripts/checkpatch.pl'
	'*/scripts/spelling.txt'
	'*/scripts/const_structs.checkpatch'
	'*/tools/net/ynl' # optional: only in newer trees
)
set +e
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO "./usr/src/$pkg.tar.xz" |
	xz -dc -T2 |
	tar -x -C "$work" --wildcards --no-wildcards-match-slash "${patterns[@]}" 2>"$work/tar.err"
st=("${PIPESTATUS[@]}")
set -e
# The last tar fails when an optional pattern matched nothing; judge by the
# files we got instead, but surface any other complaint.
if ((st[0] || st[1] || st[2])); then
	log "unpacking failed (status ${st[*]})"
	cat "$work/tar.err" >&2
	exit 1
fi
grep -v -e 'tools/net/ynl: Not found in archive' -e 'Exiting with failure status' "$work/tar.err" >&2 || true

top=$(echo "$work"/linux-source-*)
[[ -d $top ]] || { log "unexpected tarball layout"; exit 1; }
shopt -s nullglob
hdrs=("$top"/tools/testing/selftests/kselftest*.h)
shopt -u nullglob
if ((${#hdrs[@]} == 0)) || [[ ! -f $top/scripts/checkpatch.pl ]]; then
	log "expected files missing"
	exit 1
fi

rm -rf "$cache/ksft" "$cache/checkpatch" "$cache/ynl"
mkdir -p "$cache/ksft" "$cache/checkpatch"
mv "${hdrs[@]}" "$cache/ksft/"
# checkpatch looks for its data files next to itself.
mv "$top"/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch} "$cache/checkpatch/"
[[ -d $top/tools/net/ynl ]] && mv "$top/tools/net/ynl" "$cache/ynl"

echo "$pkg $ver" >"$stamp"
log "done in $((SECONDS - t0)) s"
