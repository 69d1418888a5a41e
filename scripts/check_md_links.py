#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/check_md_links.py [--max-lines FILE=N]... PATH...: every relative link exists.

Reads each Markdown file's inline links and images `[text](target)` and reference
definitions `[name]: target`, outside code spans and fenced blocks, and checks that every
target that is not a URL (scheme:...) or a bare #anchor names a file or directory that exists,
relative to the file that links it, and that a #anchor into a Markdown file (or a bare
#anchor into the file itself) names one of its headings, slugged as GitHub does. A PATH that is
a directory stands for the *.md files in it. `--max-lines FILE=N`
also fails when FILE is longer than N lines. Exits 1 naming each broken link as FILE:LINE.
"""
import os
import re
import sys

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
CODE = re.compile(r"`[^`]*`")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def anchors(path):
    """The GitHub anchors of a Markdown file's headings (outside fenced blocks)."""
    seen, out, fence = {}, set(), None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\s{0,3}(`{3,}|~{3,})", line)
            if m:
                fence = None if fence == m.group(1)[0] else (fence or m.group(1)[0])
                continue
            m = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(path):
    fence = None
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            m = re.match(r"^\s{0,3}(`{3,}|~{3,})", line)
            if m:
                if fence is None:
                    fence = m.group(1)[0]
                elif m.group(1)[0] == fence:
                    fence = None
                continue
            if fence:
                continue
            line = CODE.sub("", line)
            for m in INLINE.finditer(line):
                yield no, m.group(1)
            m = REFDEF.match(line)
            if m:
                yield no, m.group(1)


def main(argv):
    bad, files, limits = 0, [], {}
    args = iter(argv[1:])
    for a in args:
        if a == "--max-lines":
            name, _, n = next(args, "").partition("=")
            limits[name] = int(n)
        elif os.path.isdir(a):
            files += sorted(os.path.join(a, n) for n in os.listdir(a) if n.endswith(".md"))
        else:
            files.append(a)
    if not files:
        sys.stderr.write("usage: check_md_links.py [--max-lines FILE=N]... FILE.md|DIR...\n")
        return 2
    for name, n in limits.items():
        with open(name, encoding="utf-8") as f:
            count = sum(1 for _ in f)
        if count > n:
            print(f"{name}: {count} lines, more than {n}: move detail into docs/")
            bad += 1
    checked = 0
    for path in files:
        for no, target in links(path):
            if SCHEME.match(target):
                continue
            rel, _, anchor = target.partition("#")
            rel = rel.split("?", 1)[0]
            checked += 1
            full = os.path.normpath(os.path.join(os.path.dirname(path), rel)) if rel else path
            if not os.path.exists(full):
                print(f"{path}:{no}: link to '{target}': {full} does not exist")
                bad += 1
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                print(f"{path}:{no}: link to '{target}': no heading '#{anchor}' in {full}")
                bad += 1
    if bad:
        print(f"{bad} problem(s); fix the link or add the file")
        return 1
    print(f"{len(files)} files, {checked} relative links, all present")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
