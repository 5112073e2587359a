#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Draw an edge-sim timeline (edge-sim -T, Chrome's JSON trace format).

    timeline.py TRACE.json OUT.png [TITLE]

The picture Perfetto would show, as a PNG (gnuplot; no browser needed):
one row per core lane with its TBs as bars, the background kernel's and
the events' in two colours, preemptions as marks on their victims' rows,
and the kernels' launch-to-completion spans in rows above the cores.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, png = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else os.path.basename(src)
    evs = json.load(open(src))['traceEvents']
    names = {}
    for e in evs:
        if e['ph'] == 'M' and e['name'] == 'thread_name' and e['pid'] == 1:
            names[e['tid']] = e['args']['name']
    rows = {tid: i for i, tid in enumerate(sorted(names))}
    tbs = [e for e in evs if e['ph'] == 'X' and e.get('cat') == 'tb']
    bg = {e['name'] for e in tbs}
    pre = [e for e in evs if e['ph'] == 'i' and e.get('cat') == 'preempt']
    # Kernels: b/e pairs by id, packed into as few rows as they need.
    open_k, spans = {}, []
    for e in evs:
        if e.get('cat') != 'kernel':
            continue
        if e['ph'] == 'b':
            open_k[e['id']] = e
        elif e['ph'] == 'e' and e['id'] in open_k:
            b = open_k.pop(e['id'])
            spans.append((b['ts'], e['ts'], b['name']))
    spans.sort()
    ends = []
    krow = []
    for s, t, n in spans:
        for i, end in enumerate(ends):
            if end <= s:
                ends[i] = t
                krow.append(i)
                break
        else:
            ends.append(t)
            krow.append(len(ends) - 1)
    base = len(rows) + 2
    with tempfile.TemporaryDirectory() as d:
        def write(name, lines):
            with open(os.path.join(d, name), 'w') as f:
                f.write('\n'.join(lines) + '\n')

        # The background's name: the kernel with the most TBs.
        counts = {}
        for e in tbs:
            counts[e['name']] = counts.get(e['name'], 0) + 1
        bgname = max(counts, key=counts.get) if counts else ''
        write('bg.dat', ['%f %d %f 0.4' % (e['ts'] + e['dur'] / 2,
                                           rows[e['tid']], e['dur'] / 2)
                         for e in tbs if e['name'] == bgname] or ['0 -10 0 0'])
        write('ev.dat', ['%f %d %f 0.4' % (e['ts'] + e['dur'] / 2,
                                           rows[e['tid']], e['dur'] / 2)
                         for e in tbs if e['name'] != bgname] or ['0 -10 0 0'])
        write('pre.dat', ['%f %d' % (e['ts'], rows.get(e['tid'], 0))
                          for e in pre] or ['0 -10'])
        write('k.dat', ['%f %d %f 0.4' % ((s + t) / 2, base + r, (t - s) / 2)
                        for (s, t, n), r in zip(spans, krow)] or ['0 -10 0 0'])
        height = base + len(ends) + 1
        gp = f"""
set terminal pngcairo size 1100,{max(420, 4 * height + 120)} font ',10'
set output '{png}'
set title "{title}"
set xlabel 'model time (us)'
set ylabel 'core lanes (bottom), kernels launch to end (top)'
set yrange [-1:{height}]
set ytics ('core 0' 0, 'kernels' {base})
set key outside top center horizontal
set style fill solid 1.0 noborder
plot '{d}/bg.dat' using 1:2:3:4 with boxxyerror lc rgb '#7f9fbf' \
       title 'TB of {bgname}', \
     '{d}/ev.dat' using 1:2:3:4 with boxxyerror lc rgb '#d08030' \
       title 'TB of an event kernel', \
     '{d}/k.dat' using 1:2:3:4 with boxxyerror lc rgb '#60a060' \
       title 'kernel (launch to end)', \
     '{d}/pre.dat' using 1:2 with points pt 7 ps 0.6 lc rgb '#c00000' \
       title 'preemption ({len(pre)})'
"""
        subprocess.run(['gnuplot'], input=gp, text=True, check=True)
    print('%s: %d TBs on %d lanes, %d kernels, %d preemptions'
          % (png, len(tbs), len(rows), len(spans), len(pre)))


if __name__ == '__main__':
    main()
