#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a generic netlink spec and its uapi header agree.

    tools/nlspec-check.py SPEC.yaml HEADER.h
    tools/nlspec-check.py --schema DIR SPEC.yaml
    tools/nlspec-check.py --policies SPEC.yaml NETLINK.c

Documentation/netlink/specs/*.yaml (the kernel's genetlink format) is the
source of truth.  Every enum the spec implies -- its definitions, each
attribute set, the operations (notifications included) -- must appear in
the header with the same names in the same order and values; the family
name, version, constants and multicast groups must match their #defines.
A definition with a header: of its own (linux/edge.h) is checked against
that header, beside HEADER.  Prints a TAP line and exits 1 on any drift.

With --schema, validates SPEC against the kernel's schema for its
protocol, DIR/PROTOCOL.yaml (linux-source's Documentation/netlink/:
genetlink.yaml for "genetlink"), as YNL's own tools do before reading a
spec; prints one TAP line per schema error and exits 1 on any.

With --policies, checks that each op's policy in NETLINK.c (drv/netlink.c:
the .policy of its edge_nl_ops[] row) spans its op's attribute set (its
array is that set's MAX + 1) and accepts exactly the attributes the spec
lists for its do and dump requests: an entry of type NLA_REJECT is not
accepted, any other designated entry is; and that the spec's nl-preset
is EDGE_PRESET_NAMES (emul/gpu/preset.h beside NETLINK.c's directory),
in order.  Exits 1 on any difference.
"""
import os
import re
import sys

import yaml


def cname(s):
    return s.upper().replace('-', '_')


def expected(spec):
    """(name, value) lists the spec implies, and the #defines it implies."""
    enums = []
    fam = cname(spec['name'])
    defines = {}
    for d in spec.get('definitions', []):
        if d.get('type') == 'const':
            defines[fam + '_' + cname(d['name'])] = str(d['value'])
            continue
        if d.get('type') not in ('enum', 'flags'):
            continue
        prefix = d.get('name-prefix', spec['name'] + '-' + d['name'] + '-')
        v = d.get('value-start', 0)
        items = []
        for e in d['entries']:
            n = e if isinstance(e, str) else e['name']
            items.append((cname(prefix + n), v if d['type'] == 'enum' else 1 << v))
            v += 1
        enums.append((d['name'], items, d.get('header')))
    # YNL's generator starts each enum at its first member's value (1),
    # with no UNSPEC: 0 is left unnamed.
    for s in spec['attribute-sets']:
        if 'subset-of' in s:
            continue        # its parent's numbers: no enum of its own
        prefix = s.get('name-prefix', spec['name'] + '-a-' + s['name'] + '-')
        items = []
        v = 1
        for a in s['attributes']:
            v = a.get('value', v)
            items.append((cname(prefix + a['name']), v))
            v += 1
        enums.append((s['name'], items, None))
    ops = spec['operations']
    prefix = ops.get('name-prefix', spec['name'] + '-cmd-')
    items = []
    v = 1
    for o in ops['list']:
        v = o.get('value', v)
        items.append((cname(prefix + o['name']), v))
        v += 1
    enums.append(('operations', items, None))
    defines[fam + '_FAMILY_NAME'] = '"%s"' % spec['name']
    defines[fam + '_FAMILY_VERSION'] = str(spec.get('version', 1))
    for g in spec.get('mcast-groups', {}).get('list', []):
        defines[fam + '_MCGRP_' + cname(g['name'])] = '"%s"' % g['name']
    return enums, defines


def header_enums(text):
    """Every enum of the header as a list of (name, value)."""
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    out = []
    for body in re.findall(r'enum\s*\w*\s*\{(.*?)\}', text, flags=re.S):
        items, v = [], 0
        for ent in body.split(','):
            ent = ent.strip()
            if not ent:
                continue
            m = re.match(r'(\w+)\s*(?:=\s*(.+))?$', ent, flags=re.S)
            if not m:
                continue
            name, val = m.group(1), m.group(2)
            if val is not None:
                val = val.strip()
                if not re.fullmatch(r'-?\d+', val):
                    continue        # FOO_MAX = (__FOO_MAX - 1)
                v = int(val)
            if name.startswith('__'):
                v += 1
                continue
            items.append((name, v))
            v += 1
        out.append(items)
    return out


def schema_check(schema_dir, path):
    """TAP for SPEC against the kernel's schema of its protocol."""
    import jsonschema
    spec = yaml.safe_load(open(path))
    proto = spec.get('protocol', 'genetlink')
    schema = yaml.safe_load(open(os.path.join(schema_dir, proto + '.yaml')))
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(spec),
                    key=lambda e: list(e.absolute_path))
    for e in errors:
        print('# %s: %s' % ('/'.join(str(p) for p in e.absolute_path),
                            e.message))
    print('%s 1 - nlspec_schema: %s passes %s.yaml' %
          ('not ok' if errors else 'ok', path, proto))
    return 1 if errors else 0


def policy_check(path, c_path):
    """TAP for the C policies of the ops against the spec's requests."""
    spec = yaml.safe_load(open(path))
    text = open(c_path).read()
    # Every attribute's C name, as (its set, its name); a subset-of set
    # shares its parent's names.
    names = {}
    maxes = {}
    for st in spec['attribute-sets']:
        if 'subset-of' in st:
            continue
        prefix = st.get('name-prefix',
                        spec['name'] + '-a-' + st['name'] + '-')
        maxes[cname(prefix) + 'MAX'] = st['name']
        for a in st['attributes']:
            names[cname(prefix + a['name'])] = (st['name'], a['name'])

    policies = {}
    for m in re.finditer(r'static const struct nla_policy (\w+)\[(\w+) \+ 1\]'
                         r' = \{\n(.*?)\n\};', text, re.S):
        if m.group(2) not in maxes:
            continue
        acc = set()
        for e in re.finditer(r'\[(\w+)\]\s*=\s*([^\[]*)', m.group(3)):
            if 'NLA_REJECT' not in e.group(2):
                acc.add(names.get(e.group(1), ('?', e.group(1))))
        policies[m.group(1)] = (maxes[m.group(2)], acc)
    ops = {}
    table = re.search(r'struct genl_ops \w+\[\] = \{(.*?)\n\};', text, re.S)
    opre = cname(spec['operations'].get('name-prefix',
                                         spec['name'] + '-cmd-'))
    for row in re.finditer(r'\{(.*?)\}', table.group(1), re.S):
        cmd = re.search(r'\.cmd = ' + opre + r'(\w+),', row.group(1))
        pol = re.search(r'\.policy = (\w+),', row.group(1))
        if cmd:
            ops[cmd.group(1).lower().replace('_', '-')] = \
                pol.group(1) if pol else None
    errors = []
    for op in spec['operations']['list']:
        aset = op.get('attribute-set')
        want = set()
        for kind in ('do', 'dump'):
            req = (op.get(kind) or {}).get('request') or {}
            want |= set((aset, a) for a in req.get('attributes', []))
        if op['name'] not in ops:
            continue
        pol = ops.pop(op['name'])
        if pol is None or pol not in policies:
            errors.append('%s: no policy of its own' % op['name'])
            continue
        pset, have = policies[pol]
        if pset != aset:
            errors.append('%s (%s) spans set %s, not its own %s' %
                          (op['name'], pol, pset, aset))
        for a in sorted(have - want):
            errors.append('%s (%s) accepts %s %s, not in its request' %
                          (op['name'], pol, a[0], a[1]))
        for a in sorted(want - have):
            errors.append('%s (%s) refuses %s %s of its request' %
                          (op['name'], pol, a[0], a[1]))
    for op in ops:
        errors.append('%s: in the ops, not in the spec' % op)
    # nl-preset is the model's preset table by index, which has no enum
    # of its own for the C to assert against: its names, in order, are
    # EDGE_PRESET_NAMES (emul/gpu/preset.h, which a host test holds to
    # the table).
    preset_h = os.path.join(os.path.dirname(os.path.abspath(c_path)),
                            '..', 'emul', 'gpu', 'preset.h')
    m = re.search(r'#define EDGE_PRESET_NAMES\s*\\\s*"([^"]*)"',
                  open(preset_h).read())
    table = [n.strip() for n in m.group(1).split(',')] if m else None
    for d in spec.get('definitions', []):
        if d['name'] == 'nl-preset' and d['entries'] != table:
            errors.append('nl-preset %s is not EDGE_PRESET_NAMES %s' %
                          (d['entries'], table))
    for e in errors:
        print('# ' + e)
    print('%s 1 - nlspec_policies: %s matches %s' %
          ('not ok' if errors else 'ok', c_path, path))
    return 1 if errors else 0


def main():
    if sys.argv[1] == '--schema':
        return schema_check(sys.argv[2], sys.argv[3])
    if sys.argv[1] == '--policies':
        return policy_check(sys.argv[2], sys.argv[3])
    spec = yaml.safe_load(open(sys.argv[1]))
    text = open(sys.argv[2]).read()
    enums, defines = expected(spec)
    have = header_enums(text)
    uapi = os.path.dirname(os.path.dirname(sys.argv[2]))
    errors = []
    for what, items, header in enums:
        hv = have
        if header:
            hv = header_enums(open(os.path.join(uapi, header)).read())
        match = [h for h in hv if h and h[0][0] == items[0][0]]
        if not match:
            errors.append('%s: no enum starting with %s' % (what, items[0][0]))
            continue
        h = match[0]
        for i in range(max(len(h), len(items))):
            want = items[i] if i < len(items) else None
            got = h[i] if i < len(h) else None
            if want != got:
                errors.append('%s: spec has %s, header has %s' % (what, want, got))
                break
    for name, val in defines.items():
        m = re.search(r'#define\s+%s\s+(\S+)' % name, text)
        if not m or m.group(1) != val:
            errors.append('#define %s %s: header has %s' %
                          (name, val, m.group(1) if m else 'none'))
    for e in errors:
        print('# ' + e)
    print('%s 1 - nlspec: %s agrees with %s' %
          ('not ok' if errors else 'ok', sys.argv[2], sys.argv[1]))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
