#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that edgectl's -j output from the guest parses as JSON.

    tools/vm/edgectl-json.py RESULTS.tap

Reads the "edgectl_json NAME BASE64" lines tools/selftests/edge/
edgectl_test.sh wrote to the results channel; prints one TAP line per
line (a JSON array of objects, each with the fields its command must
have).  Exits 1 on any failure or when there is no such line.
"""
import base64
import json
import sys

# Streams (monitor, top): JSON lines, one object a line, not an array;
# monitor_killed is what a kill -9 left of one.
LINES = {'monitor', 'monitor_killed', 'top'}
# The fields each object of a command must have.
MUST = {
    'dev_show': {'dev', 'index', 'preset', 'time', 'mem_total', 'mem_used',
                 'mem_peak'},
    'dev_show_stats': {'dev', 'submitted', 'completed', 'cancelled'},
    'dev_show_pretty': {'dev', 'submitted'},
    'ekt_show': {'id', 'pid', 'func', 'ring', 'submitted', 'kernel'},
    'stats': {'index', 'submitted', 'completed', 'jobs_done'},
    'monitor': {'event', 'dev'},
    'monitor_killed': {'event', 'dev'},
    'top': {'view', 'devices', 'entries'},
    'sched_show': {'index', 'policy', 'victim', 'queue', 'prema_ns'},
    'place': {'dev', 'index', 'place_id', 'mem', 'policy'},
    'param_show': {'dev', 'name', 'value', 'range_min', 'range_max',
                   'default', 'policy', 'help'},
}


def main():
    lines = [l.split(None, 2) for l in open(sys.argv[1], errors='replace')
             if l.startswith('edgectl_json ')]
    print('TAP version 13')
    print('1..%d' % max(len(lines), 1))
    if not lines:
        print('not ok 1 edgectl_json: no edgectl -j output from the guest')
        return 1
    bad = 0
    for i, parts in enumerate(lines, 1):
        name = parts[1]
        try:
            text = base64.b64decode(parts[2] if len(parts) > 2 else '')
            if name in LINES:
                doc = [json.loads(l) for l in text.decode().splitlines()]
                if not all(isinstance(o, dict) for o in doc):
                    raise ValueError('a line is not an object')
            else:
                doc = json.loads(text)
            if not isinstance(doc, list) or not doc:
                raise ValueError('not a non-empty array')
            for o in doc:
                missing = MUST.get(name, set()) - set(o)
                if missing:
                    raise ValueError('missing %s' % sorted(missing))
            print('ok %d edgectl_json.%s' % (i, name))
        except (ValueError, TypeError) as e:
            print('# %s' % e)
            print('not ok %d edgectl_json.%s' % (i, name))
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
