#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's YNL client in a guest payload, for selftests/edge/
# edge_ynl_test.sh: Debian's python3 (/usr/bin/python3, make deps) with
# only the modules cli.py imports, and linux-source-6.12's tools/net/ynl
# (cli.py and lib/, unmodified) with our spec.
# Usage: payload-ynl.sh OUTDIR YNL_SRC
#   OUTDIR/py/python3     the interpreter, through its own loader and
#                         libraries (as payload.sh brings nc)
#   OUTDIR/ynl/cli.py     YNL; OUTDIR/ynl/edge.yaml the spec
# The module list is the one cli.py loads on the host (--list-ops on our
# spec, which imports everything a do, a dump and a subscription use;
# the host has no edge family, so it stops there): ~2.5 MB of modules
# as byte code, ~4 MB gzipped in all, not Python's whole library.
set -euo pipefail
out=${1:?} src=${2:?}
top=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
ynl=$src/tools/net/ynl
[[ -x $py && -f $ynl/cli.py ]] || { echo "payload-ynl.sh: no $py or $ynl/cli.py" >&2; exit 1; }
mkdir -p "$out/py/lib" "$out/ynl"
cp -r "$ynl/cli.py" "$ynl/lib" "$out/ynl/"
cp "$top/Documentation/netlink/specs/edge.yaml" "$out/ynl/"
stdlib=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
ver=$(basename "$stdlib")
dest=$out/py/lib/$ver
# Every module file cli.py's run loaded, from the stdlib (kept in place)
# and dist-packages (yaml: put into the stdlib's directory, no site).
"$py" - "$ynl" "$top/Documentation/netlink/specs/edge.yaml" <<'PY' |
import runpy, sys
ynl, spec = sys.argv[1], sys.argv[2]
sys.argv = ['cli.py', '--spec', spec, '--no-schema', '--list-ops']
sys.path.insert(0, ynl)
real = sys.stdout
sys.stdout = sys.stderr
try:
    runpy.run_path(ynl + '/cli.py', run_name='__main__')
except BaseException:
    pass
import encodings.ascii, encodings.latin_1  # the guest's locale is C
for m in list(sys.modules.values()):
    f = getattr(m, '__file__', None)
    if f and not f.startswith(ynl):
        real.write(f + '\n')
PY
	sort -u | while read -r f; do
		case $f in
		"$stdlib"/*) rel=${f#"$stdlib"/} ;;
		*/dist-packages/*) rel=${f#*/dist-packages/} ;;
		*) continue ;;
		esac
		mkdir -p "$dest/$(dirname "$rel")"
		cp -p "$f" "$dest/$rel"
		# A C extension's own libraries (libyaml for yaml's _yaml).
		[[ $f == *.so ]] && ldd "$f" | awk '$(NF-1) ~ /^\// { print $(NF-1) }' |
			while read -r lib; do cp -L "$lib" "$out/py/lib/"; done
	done
# os.py marks the stdlib's place for the interpreter's prefix search.
mkdir -p "$dest/lib-dynload"
cp "$py" "$out/py/python3.bin"
ldd "$py" | awk '$(NF-1) ~ /^\// { print $(NF-1) } $1 ~ /^\// { print $1 }' |
	sort -u | while read -r lib; do cp -L "$lib" "$out/py/lib/"; done
# Byte code only, beside where each source was (what the guest would
# otherwise compile on every start, under TCG): half the size.
"$py" -m compileall -q -b "$dest" >/dev/null
find "$dest" -name '*.py' -delete
find "$dest" -name __pycache__ -prune -exec rm -rf {} +
cat >"$out/py/python3" <<'EOF2'
#!/bin/sh
# Debian's python3 with the modules YNL needs (tools/vm/payload-ynl.sh).
d=$(cd "$(dirname "$0")" && pwd)
PYTHONHOME=$d PYTHONNOUSERSITE=1 PYTHONDONTWRITEBYTECODE=1 \
	exec "$d/lib/ld-linux-x86-64.so.2" --library-path "$d/lib" "$d/python3.bin" -S "$@"
EOF2
chmod +x "$out/py/python3"
