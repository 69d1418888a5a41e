#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 20: no two source files call each other in a loop; no function over 80 lines.

cycles: reads the object files of the production targets (the libraries and the lab
executable, never tests or benches) from a build directory, links each undefined symbol of a
file to the file that defines it, and fails when the file graph has a cycle (a strongly
connected component of two or more files), printing each with the symbols that tie it.
--allow PREFIX (repeatable) accepts a component whose every file starts with one of the
prefixes.

functions: fails when a function body in a C file of the repository (git ls-files) is longer
than --max-lines lines, counted from its opening brace to its closing one (both at column 0,
the house format).

Usage:
  check_file_cycles.py cycles --build DIR --src DIR --target NAME... [--allow PREFIX]...
  check_file_cycles.py functions --src DIR [--max-lines 80]
Exit 0 when clean, 1 with the findings on stderr, 2 when the input is missing (no objects for
a target: build first).
"""
import argparse
import collections
import glob
import os
import subprocess
import sys


def target_objects(build, src, target):
    """{source path relative to src (or to build for generated files): object path} of target.

    An object whose source no longer exists, or which its static library no longer holds, is
    a leftover of an earlier build and is skipped."""
    objs = glob.glob(os.path.join(build, "**", "CMakeFiles", target + ".dir", "**", "*.o"),
                     recursive=True)
    archives = glob.glob(os.path.join(build, "**", "lib" + target + ".a"), recursive=True)
    members = None
    if archives:
        out = subprocess.run(["ar", "t", archives[0]], capture_output=True, text=True,
                             check=True).stdout
        members = set(out.split())
    found = {}
    for obj in objs:
        head, rel = obj.split(os.sep + "CMakeFiles" + os.sep + target + ".dir" + os.sep, 1)
        sub = os.path.relpath(head, build)
        rel = rel[:-2]  # drop ".o": "views/c2c.c"
        parts = [".." if p == "__" else p for p in rel.split(os.sep)]
        name = None
        for root in (src, build):
            path = os.path.normpath(os.path.join(root, sub, *parts))
            if os.path.isfile(path):
                base = src if root == src else build
                name = os.path.relpath(path, base)
                if root == build:
                    name = "<build>/" + name
                break
        if name is None:
            continue  # the source is gone: a stale object
        if members is not None and os.path.basename(obj) not in members:
            continue  # no longer in the library
        found[name] = obj
    return found


def read_symbols(objects):
    """{name: (defined globals, undefined)} from one nm run over every object."""
    by_obj = {o: n for n, o in objects.items()}
    out = subprocess.run(["nm", "-A", "-P"] + sorted(by_obj), capture_output=True, text=True,
                         check=True).stdout
    syms = {n: (set(), set()) for n in objects}
    for line in out.splitlines():
        obj, _, rest = line.partition(": ")
        parts = rest.split()
        if obj not in by_obj or len(parts) < 2:
            continue
        sym, kind = parts[0], parts[1]
        defined, undefined = syms[by_obj[obj]]
        if kind == "U":
            undefined.add(sym)
        elif kind.isupper() and kind not in "N":
            defined.add(sym)
    return syms


def file_graph(syms):
    """{file: {file it uses: [symbols]}}; a symbol defined twice belongs to the first file."""
    owner = {}
    for name in sorted(syms):
        for s in syms[name][0]:
            owner.setdefault(s, name)
    graph = {n: collections.defaultdict(list) for n in syms}
    for name, (_, undefined) in syms.items():
        for s in sorted(undefined):
            o = owner.get(s)
            if o is not None and o != name:
                graph[name][o].append(s)
    return graph


def components(graph):
    """Strongly connected components of two or more files (Tarjan, iterative)."""
    index, low, on, stack, comps = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return comps


def check_cycles(a):
    objects = {}
    for t in a.target:
        found = target_objects(a.build, a.src, t)
        if not found:
            print(f"no object files of target {t} under {a.build}: build it first",
                  file=sys.stderr)
            return 2
        objects.update(found)
    graph = file_graph(read_symbols(objects))
    bad = 0
    for comp in components(graph):
        allowed = all(any(f.startswith(p) for p in a.allow) for f in comp)
        out = sys.stdout if allowed else sys.stderr
        what = "allowed (--allow)" if allowed else "cycle"
        print(f"{what}: {len(comp)} files call each other in a loop: {' '.join(comp)}",
              file=out)
        for f in comp:
            for g in sorted(graph[f]):
                if g in comp:
                    print(f"  {f} -> {g}: {', '.join(graph[f][g])}", file=out)
        bad += not allowed
    if bad:
        print(f"{bad} cycle(s) among the files of {', '.join(a.target)}: move what is called "
              "back into the caller's file or into a file both use", file=sys.stderr)
        return 1
    print(f"{len(objects)} files of {', '.join(a.target)}: calls between files go one way")
    return 0


def c_files(src):
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "*.c"], capture_output=True,
                             text=True, check=True).stdout
        return out.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(src):
            dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
            files += [os.path.relpath(os.path.join(d, n), src) for n in names if
                      n.endswith(".c")]
        return sorted(files)


def long_functions(path, max_lines):
    """(line, name, length) of every function body in path longer than max_lines."""
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")
    found, start = [], None
    for i, line in enumerate(lines):
        if start is None and line.startswith("{"):
            j = i - 1  # the signature: back to its first line (the one at column 0)
            while j > 0 and lines[j][:1] in (" ", "\t"):
                j -= 1
            sig = " ".join(x.strip() for x in lines[j:i])
            name = sig.split("(")[0].split()[-1].lstrip("*") if "(" in sig else sig[:40]
            start = (i, name)
        elif start is not None and line.startswith("}"):
            n = i - start[0] + 1
            if n > max_lines:
                found.append((start[0] + 1, start[1], n))
            start = None
    return found


def check_functions(a):
    bad = 0
    files = c_files(a.src)
    for rel in files:
        for line, name, n in long_functions(os.path.join(a.src, rel), a.max_lines):
            print(f"{rel}:{line}: {name} is {n} lines (at most {a.max_lines})", file=sys.stderr)
            bad += 1
    if bad:
        print(f"{bad} function(s) over {a.max_lines} lines: split them by step",
              file=sys.stderr)
        return 1
    print(f"{len(files)} C files: no function over {a.max_lines} lines")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="check", required=True)
    c = sub.add_parser("cycles", help="no cycle among the production files")
    c.add_argument("--build", required=True, help="the build directory")
    c.add_argument("--src", required=True, help="the source directory")
    c.add_argument("--target", nargs="+", required=True, help="CMake targets to read")
    c.add_argument("--allow", action="append", default=[],
                   help="accept a cycle whose every file starts with one of these prefixes")
    f = sub.add_parser("functions", help="no function over --max-lines lines")
    f.add_argument("--src", required=True, help="the source directory")
    f.add_argument("--max-lines", type=int, default=80)
    a = p.parse_args()
    return check_cycles(a) if a.check == "cycles" else check_functions(a)


if __name__ == "__main__":
    sys.exit(main())
