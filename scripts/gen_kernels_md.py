#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/gen_kernels_md.py LAB [-o FILE | --check FILE]: docs/kernels.md from the binary.

Asks the built lab for its kernels (`lab list --json`: names, summaries, units of work, the
kernel and harness parameter tables) and each kernel's teaching text, team and metrics
(`lab describe KERNEL`, read up to the harness parameters and the metrics; the compiler's
remarks that follow depend on the build and are left out). Writes the page to stdout, to FILE
with -o, or with --check compares it with FILE and exits 1 on any difference, printing the
first differing lines and the command that regenerates it:

    cmake --build build && python3 scripts/gen_kernels_md.py build/lab/lab -o docs/kernels.md
"""
import difflib
import json
import re
import subprocess
import sys

REGEN = "python3 scripts/gen_kernels_md.py build/lab/lab -o docs/kernels.md"
METRIC = re.compile(r"^  (\S+)\s+\[([^\]]*)\] (.*)$")
TICKS = re.compile(r"(`[^`]*`)")
TAG = re.compile(r"<(?=[A-Za-z/!?])")
BLOCK = re.compile(r"^(?:[#>]|[+-](?:\s|$)|\d+[.)](?:\s|$))")


def run(lab, *args):
    out = subprocess.run([lab, *args], check=True, capture_output=True, text=True)
    return out.stdout


def prose(text):
    """Markdown-safe prose: `code` spans kept; elsewhere * and a tag-like < escaped, and a
    line that would start a heading, list or quote starts with a backslash."""
    parts = TICKS.split(text)
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("\\", "\\\\").replace("*", "\\*")
        parts[i] = TAG.sub("&lt;", parts[i])
    return "\n".join("\\" + ln if BLOCK.match(ln) else ln for ln in "".join(parts).split("\n"))


def cell(text):
    return prose(text).replace("|", "\\|")


def describe(lab, name):
    """Teaching text, facts (unit of work, timing, team, needs) and metrics of one kernel."""
    lines = run(lab, "describe", name).split("\n")
    # Line 0 is "name: summary", line 1 blank, the text runs to the blank before "unit of work".
    end = next(i for i, ln in enumerate(lines) if ln.startswith("unit of work:"))
    text = "\n".join(lines[2:end]).strip()
    facts, metrics, i = [], [], end
    while i < len(lines) and lines[i].strip():
        facts.append(lines[i].strip())
        i += 1
    if "metrics:" in lines:
        for ln in lines[lines.index("metrics:") + 1:]:
            m = METRIC.match(ln)
            if not m:
                break
            metrics.append(m.groups())
    if any(ln.startswith("what the compiler said") for ln in lines):
        facts.append(f"what the compiler made of each variant file (its vectorization "
                     f"remarks, which depend on the build): `lab describe {name}`")
    return text, facts, metrics


def param_table(params):
    out = ["| key | type | default | allowed | meaning |", "|---|---|---|---|---|"]
    for p in params:
        allowed = p["allowed"]
        if p["type"] == "size":
            allowed += ", or a cache level: `L1/2`, `L2`, `L3*4`"
        meaning = p["help"]
        if "applies" in p:  # left out of a point's params elsewhere (docs/configs.md)
            meaning += f" Applies only where {p['applies']}."
        out.append(f"| `{p['key']}` | {p['type']} | `{p['default']}` | {cell(allowed)} | "
                   f"{cell(meaning)} |")
    return out


def page(lab):
    listing = json.loads(run(lab, "list", "--json"))
    kernels = listing["kernels"]
    out = [
        "# Kernels",
        "",
        "<!-- Generated from the built binary by scripts/gen_kernels_md.py (`lab list --json`,",
        "     `lab describe KERNEL`); do not edit: change the kernel's descriptor, then run",
        f"     {REGEN} -->",
        "",
        "Every kernel the lab registers, with the teaching text `lab describe KERNEL` prints:",
        "what hardware effect it isolates, what to expect and which knob shows it; then its",
        "unit of work and whose time a cost is, its parameters and the metric columns it adds",
        "to samples.csv. The harness keys every experiment takes are at the end.",
        "Figures in the texts are typical values, not assertions; dated measurements with",
        "their conditions are in [bench/RESULTS.md](../bench/RESULTS.md).",
        "",
        "| kernel | unit of work | what it measures |",
        "|---|---|---|",
    ]
    for k in kernels:
        out.append(f"| [`{k['name']}`](#{k['name']}) | {k['work_unit']} | "
                   f"{cell(k['summary'])} |")
    for k in kernels:
        text, facts, metrics = describe(lab, k["name"])
        out += ["", f"## {k['name']}", "", f"**{prose(k['summary'])}**", "", prose(text), ""]
        out += [f"- {prose(f)}" for f in facts]
        if k["params"]:
            out += ["", "Parameters:", ""] + param_table(k["params"])
        if metrics:
            out += ["", "Metrics (columns of samples.csv and threads.csv):", "",
                    "| metric | unit | meaning |", "|---|---|---|"]
            out += [f"| `{n}` | {cell(u)} | {cell(h)} |" for n, u, h in metrics]
    out += ["", "## Harness parameters (every experiment)", "",
            "Set in `[global]`, in a section or with `--set`; see [configs.md](configs.md).",
            ""] + param_table(listing["params"])
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) == 2:
        sys.stdout.write(page(argv[1]))
        return 0
    if len(argv) == 4 and argv[2] == "-o":
        with open(argv[3], "w", encoding="utf-8") as f:
            f.write(page(argv[1]))
        return 0
    if len(argv) == 4 and argv[2] == "--check":
        want = page(argv[1])
        try:
            with open(argv[3], encoding="utf-8") as f:
                have = f.read()
        except OSError as e:
            have = ""
            print(f"{argv[3]}: {e.strerror}")
        if have == want:
            print(f"{argv[3]} is current")
            return 0
        diff = difflib.unified_diff(have.splitlines(), want.splitlines(), argv[3],
                                    "generated from " + argv[1], lineterm="", n=1)
        print("\n".join(list(diff)[:40]))
        print(f"\n{argv[3]} differs from what the binary describes (a kernel, parameter or "
              f"text changed).\nRegenerate it from the source root and commit it:\n"
              f"    cmake --build build && {REGEN}")
        return 1
    sys.stderr.write("usage: gen_kernels_md.py LAB [-o FILE | --check FILE]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
