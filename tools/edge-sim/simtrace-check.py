#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check edge-sim's timeline against the run's own CSV row.

    simtrace-check.py TRACE.json RUN.csv

RUN.csv: edge-sim's output for the same run, runs=1.  TAP lines: the
trace parses as Chrome's JSON trace format; it has one TB slice per TB
the run dispatched, one preemption mark per preemption, a kernel slice
per kernel completed (events and the background), each opened and
closed once; the slices of a core lane never overlap; every time lies
within the run.  Exits 1 on any failure.
"""
import csv
import json
import sys

results = []


def check(name, ok, diag=''):
    results.append((name, ok, diag))


def main():
    trace, run = sys.argv[1], sys.argv[2]
    try:
        doc = json.load(open(trace))
        evs = doc['traceEvents']
        check('parses', isinstance(evs, list) and len(evs) > 0)
    except (ValueError, KeyError) as err:
        check('parses', False, str(err))
        evs = []
    row = next(csv.DictReader(open(run)))
    tbs = [e for e in evs if e.get('ph') == 'X' and e.get('cat') == 'tb']
    pre = [e for e in evs if e.get('ph') == 'i' and e.get('cat') == 'preempt']
    begins = [e for e in evs if e.get('ph') == 'b']
    ends = [e for e in evs if e.get('ph') == 'e']
    want_tbs = int(row['tbs_dispatched'])
    check('one_slice_per_tb', len(tbs) == want_tbs,
          '%d slices, %d TBs' % (len(tbs), want_tbs))
    want_pre = int(row['preemptions'])
    check('one_mark_per_preemption', len(pre) == want_pre,
          '%d marks, %d preemptions' % (len(pre), want_pre))
    kernels = int(row['ev_done']) + (int(row['bg_chain'])
                                     if row['background'] != '-' else 0)
    ids_b = sorted(e['id'] for e in begins)
    ids_e = sorted(e['id'] for e in ends)
    check('one_slice_per_kernel',
          len(ids_b) == kernels and ids_b == ids_e and
          len(set(ids_b)) == len(ids_b),
          '%d begins, %d ends, %d kernels' % (len(ids_b), len(ids_e),
                                              kernels))
    lanes = {}
    for e in tbs:
        lanes.setdefault((e['pid'], e['tid']), []).append(
            (e['ts'], e['ts'] + e['dur']))
    bad = 0
    for spans in lanes.values():
        spans.sort()
        bad += sum(1 for a, b in zip(spans, spans[1:]) if b[0] < a[1] - 1e-6)
    check('lanes_do_not_overlap', bad == 0, '%d overlaps' % bad)
    end = max([e['ts'] + e.get('dur', 0) for e in evs if 'ts' in e] or [0])
    check('times_in_run', all(e.get('ts', 0) >= 0 for e in evs) and end > 0,
          'last at %.3f us' % end)
    print('TAP version 13')
    print('1..%d' % len(results))
    fail = 0
    for i, (name, ok, diag) in enumerate(results, 1):
        print('%s %d simtrace.%s%s' % ('ok' if ok else 'not ok', i, name,
                                      ' # ' + diag if diag else ''))
        fail |= not ok
    sys.exit(1 if fail else 0)


if __name__ == '__main__':
    main()
