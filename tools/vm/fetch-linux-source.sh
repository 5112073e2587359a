#!/bin/bash
# Pull the few files we need from Debian's linux-source package (no package
# ships them otherwise) without ever unpacking the whole tree.
#
# Usage: fetch-linux-source.sh CACHE_DIR
#   from linux-source (bookworm's default, 6.1):
#   CACHE_DIR/ksft/kselftest*.h          kselftest headers (flat)
#   CACHE_DIR/checkpatch/checkpatch.pl   + spelling.txt, const_structs.checkpatch
#   CACHE_DIR/ynl/                       tools/net/ynl, when the tree has it
# Usage: fetch-linux-source.sh CACHE_DIR SERIES   (6.12)
#   from linux-source-SERIES, the kernel's own netlink tooling:
#   CACHE_DIR/linux-source-SERIES/tools/net/ynl/       YNL: cli.py,
#       ynl-gen-c.py, lib/ (the spec parser and the YNL library)
#   CACHE_DIR/linux-source-SERIES/Documentation/netlink/
#       genetlink*.yaml (the schemas a family's spec is checked against),
#       specs/ (the upstream families' specs)
# Instant when its stamp (CACHE_DIR/.linux-source.stamp, or
# .linux-source-SERIES.stamp) exists; delete it to refetch.
set -euo pipefail

if (($# < 1 || $# > 2)); then
	echo "usage: $0 CACHE_DIR [SERIES]" >&2
	exit 2
fi
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
want=${2:-}
if [[ -n $want ]]; then
	stamp=$cache/.linux-source-$want.stamp
	dest=$cache/linux-source-$want
	stamp_ok() { [[ -s $stamp && -f $dest/tools/net/ynl/cli.py && -f $dest/Documentation/netlink/genetlink.yaml ]]; }
else
	stamp=$cache/.linux-source.stamp
	stamp_ok() { [[ -s $stamp && -f $cache/ksft/kselftest.h && -f $cache/checkpatch/checkpatch.pl ]]; }
fi
stamp_ok && exit 0

exec 9>"$cache/.linux-source${want:+-$want}.lock"
flock 9
stamp_ok && exit 0

log() { echo "fetch-linux-source: $*" >&2; }
t0=$SECONDS

series_from_apt() {
	local out
	out=$(apt-cache depends linux-source 2>/dev/null) || return 0
	sed -n 's/^ *Depends: linux-source-\([0-9][0-9.]*\)$/\1/p' <<<"$out" | sed -n 1p
}
if [[ -n $want ]]; then
	series=$want
	apt-cache show "linux-source-$series" >/dev/null 2>&1 ||
		apt-get update -q >&2 # fresh machine: no package lists yet
else
	series=$(series_from_apt)
	if [[ -z $series ]]; then
		apt-get update -q >&2 # fresh machine: no package lists yet
		series=$(series_from_apt)
	fi
	series=${series:-6.1}
fi
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
if [[ -n $want ]]; then
	patterns=('*/tools/net/ynl' '*/Documentation/netlink')
else
	patterns=(
	'*/tools/testing/selftests/kselftest*.h'
	'*/scripts/checkpatch.pl'
	'*/scripts/spelling.txt'
	'*/scripts/const_structs.checkpatch'
		'*/tools/net/ynl' # optional: only in newer trees
	)
fi
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
if [[ -n $want ]]; then
	if [[ ! -f $top/tools/net/ynl/cli.py || ! -f $top/Documentation/netlink/genetlink.yaml ]]; then
		log "$pkg lacks tools/net/ynl/cli.py or Documentation/netlink/genetlink.yaml"
		exit 1
	fi
	rm -rf "$dest"
	mkdir -p "$dest/tools/net" "$dest/Documentation"
	mv "$top/tools/net/ynl" "$dest/tools/net/"
	mv "$top/Documentation/netlink" "$dest/Documentation/"
	echo "$pkg $ver" >"$stamp"
	log "done in $((SECONDS - t0)) s: $dest"
	exit 0
fi
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
