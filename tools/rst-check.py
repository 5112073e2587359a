#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rst-check.py: every Documentation/**/*.rst parses as reStructuredText.

docutils alone, without Sphinx: the kernel's own directives and roles
(kernel-doc, :c:func: ...) are unknown to it, so those reports are
ignored; a malformed table, a short title underline or a broken list is
not.  Prints one line per problem; exits 1 when there is any.
"""
import glob
import io
import os
import re
import sys

import docutils.core
import docutils.utils

IGNORE = re.compile(r'Unknown (interpreted text role|directive type)|'
                    r'No (role|directive) entry|"kernel-doc"')


def check(path):
    err = io.StringIO()
    with open(path, encoding='utf-8') as f:
        text = f.read()
    docutils.core.publish_doctree(
        text, source_path=path,
        settings_overrides={'report_level': 2, 'halt_level': 5,
                            'warning_stream': err,
                            'file_insertion_enabled': False,
                            'raw_enabled': False})
    bad = []
    for line in err.getvalue().splitlines():
        m = re.match(r'^(\S+?):(\d+): \((WARNING|ERROR|SEVERE)/\d\) (.*)',
                     line)
        if m and not IGNORE.search(m.group(4)):
            bad.append('%s:%s: %s' % (m.group(1), m.group(2), m.group(4)))
    return bad


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    files = sorted(glob.glob(os.path.join(top, 'Documentation', '**',
                                          '*.rst'), recursive=True))
    bad = []
    for path in files:
        bad += check(path)
    for b in bad:
        print(os.path.relpath(b, top) if b.startswith('/') else b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
