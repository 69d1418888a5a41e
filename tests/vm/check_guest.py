#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks what the NUMA guest printed (numa_guest.sh): the guest saw NODES nodes, the NUMA
kernels ran there (not skipped) and verified, and every page was where it was asked to be.
With LAB, the results that came back are analyzed here (`LAB analyze`, argument vector, no
shell) and the numa view must show the full node x node matrices.
usage: check_guest.py GUEST_LOG NODES [LAB]"""
import json
import os
import re
import subprocess
import sys
import tempfile

fails = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        fails.append(what)


def section(log, name):
    m = re.search(r"^=== %s BEGIN\n(.*?)^=== %s END$" % (re.escape(name), re.escape(name)),
                  log, re.S | re.M)
    return m.group(1) if m else None


def points(run, exp):
    for e in run["experiments"]:
        if e["name"] == exp:
            return e["points"]
    return []


def main():
    log = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    nodes = int(sys.argv[2])
    check("=== GUEST DONE" in log, "the guest finished its script")
    topo = section(log, "TOPO") or ""
    check(re.search(r"\b%d NUMA nodes\b" % nodes, topo) is not None,
          "lab topo in the guest shows %d NUMA nodes" % nodes)
    # numa_guest.sh sets distance 20 + 2 * (|a - b| - 1) between nodes a and b.
    want = [[10 if a == b else 20 + 2 * (abs(a - b) - 1) for b in range(nodes)]
            for a in range(nodes)]
    rows = re.findall(r"^  node (\d+):((?: \d+)+)$", topo, re.M)
    check([[int(x) for x in r[1].split()] for r in rows] == want,
          "lab topo prints the distance matrix %s" % want)
    m = re.search(r"^=== RUN RC (\d+)$", log, re.M)
    check(m is not None and m.group(1) == "0", "lab run exited 0 in the guest")
    text = section(log, "FILE run.json")
    try:
        run = json.loads(text or "")
    except ValueError as e:
        run = None
        print("run.json: %s" % e)
    check(run is not None, "run.json came back over the serial console")
    if run is None:
        return

    host = run.get("host", {})
    # numa_guest.sh starts QEMU with -accel tcg, whose cpuid leaf 0x40000000 says TCGTCGTCGTCG
    check(host.get("hypervisor") == "QEMU TCG",
          "run.json names the emulator it ran under: %r" % host.get("hypervisor"))
    dist = run.get("host", {}).get("topology", {}).get("numa_distances")
    check(dist == want, "run.json records the distance matrix: %s" % dist)

    bw = points(run, "bw")
    ran = [p for p in bw if p["status"] == "ok"]
    check(len(ran) == 2 * nodes * nodes,
          "numa_bw ran all %d (cpu node, mem node, op) points, skipped %d for missing nodes"
          % (2 * nodes * nodes, len(bw) - len(ran)))
    for p in ran:
        f = p.get("point_facts", {})
        cpu = int(p["params"]["placement"].split(":")[1])
        mem = int(p["params"]["mem_node"])
        check(p["verify"] == "pass" and f.get("cpu_node") == cpu and f.get("placement_ok")
              and f["pages_per_node"][mem] > 0,
              "numa_bw cpu node %d, mem node %d, %s: verified, pages %s"
              % (cpu, mem, p["params"]["op"], f.get("pages_per_node")))
    for p in bw:
        if p["status"] != "ok":
            check("NUMA node" in p["reason"], "numa_bw skip says why: " + p["reason"])

    for p in points(run, "lat"):
        f = p.get("point_facts", {})
        check(p["status"] == "ok" and p["verify"] == "pass" and f.get("placement_ok") is True,
              "numa_lat %s mem_node %s: %s, pages %s" % (p["params"]["placement"],
                                                          p["params"]["mem_node"], p["status"],
                                                          f.get("pages_per_node")))

    want = {"bind:1": lambda h: h[1] == sum(h),
            "preferred:1": lambda h: h[1] == sum(h),
            "serial": lambda h: h[0] == sum(h),
            "interleave": lambda h: max(h) - min(h) <= 3,
            "first_touch": lambda h: abs(h[0] - h[1]) <= 6 and sum(h[2:]) == 0}
    for p in points(run, "policy"):
        f = p.get("point_facts", {})
        init = p["params"]["init"]
        h = f.get("pages_per_node", [])
        check(p["status"] == "ok" and p["verify"] == "pass" and f.get("placement_ok") is True
              and len(h) == nodes and want[init](h),
              "numa_policy %s (threads on nodes %s): pages per node %s"
              % (init, f.get("threads_per_node"), h))
    mb = {"interleave": lambda h: max(h) - min(h) <= 3,
          "node:1": lambda h: h[1] == sum(h)}
    for p in points(run, "membind"):
        f = p.get("point_facts", {})
        bind = p["params"].get("membind")
        # The list ends at the highest node that holds a page.
        h = f.get("membind_pages_per_node", [])
        h = h + [0] * (nodes - len(h))
        check(p["status"] == "ok" and p["verify"] == "pass" and bind in mb
              and f.get("membind_buffers") == 3 and len(h) == nodes and sum(h) > 0
              and mb[bind](h),
              "stream membind = %s: pages per node %s" % (bind, h))
    for p in points(run, "loaded"):
        check(p["status"] == "ok" and p["verify"] == "pass",
              "loaded_latency threads=%s: %s" % (p["threads"], p["status"]))
    if len(sys.argv) > 3:
        analyze(sys.argv[3], log, run, nodes)


def numa_groups(doc, exp):
    """The numa view's groups of experiment exp, one per section of its document: the kind (the
    section's table: matrix, policy, ladder, loaded), the params, the matrix's node count and
    unit, the table's rows and how many of them have their pages elsewhere than asked."""
    for e in doc.get("experiments", []):
        if e.get("name") == exp:
            groups = []
            for s in e.get("numa", {}).get("sections", []):
                tables = s.get("tables", {})
                kind = next(iter(tables), None)
                cells = s.get("matrices", {}).get("cells", {})
                rows = tables.get(kind, {}).get("rows", [])
                groups.append({"kind": kind, "params": s.get("params"), "rows": rows,
                               "nodes": len(cells["row_labels"]) if cells else None,
                               "unit": cells.get("unit"),
                               "placement_mismatches":
                                   sum(1 for x in rows if x.get("placement_ok") == 0)})
            return groups
    return []


def pages(row):
    """A row's pages per node ("384/384") as a list."""
    return row["pages_per_node"].split("/") if row.get("pages_per_node") else []


def analyze_json(lab, log, run):
    """`lab analyze --json` of the guest's results on this machine (argument vector, no
    shell), checked to exit 0: its document, {} when it gave none, None without samples."""
    samples = section(log, "FILE samples.csv")
    check(samples is not None, "samples.csv came back over the serial console")
    if samples is None:
        return None
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "run.json"), "w", encoding="utf-8") as f:
            json.dump(run, f)
        with open(os.path.join(d, "samples.csv"), "w", encoding="utf-8") as f:
            f.write(samples)
        r = subprocess.run([lab, "analyze", d, "--json", "--no-plots", "--include-flagged"],
                           capture_output=True, text=True, check=False)
    check(r.returncode == 0, "lab analyze of the guest's results exited %d %s"
          % (r.returncode, r.stderr.strip()[-300:]))
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


def analyze(lab, log, run, nodes):
    """`lab analyze` of the guest's results on this machine: the numa view's matrices."""
    doc = analyze_json(lab, log, run)
    if doc is None:
        return
    want = [[10 if a == b else 20 + 2 * (abs(a - b) - 1) for b in range(nodes)]
            for a in range(nodes)]
    mats = [g for g in numa_groups(doc, "bw") if g.get("kind") == "matrix"]
    check(len(mats) == 2 and all(g.get("nodes") == nodes and g.get("unit") == "GB/s" for g in mats),
          "numa view: a %d x %d GB/s matrix per op for bw" % (nodes, nodes))
    for g in mats:
        rows = [x for x in g.get("rows", [])
                if (x.get("median_n") or 0) > 0 and (x.get("median") or 0) > 0]
        cells = sorted((x["cpu_node"], x["mem_node"]) for x in rows)
        ratios = [x.get("ratio_to_local") for x in rows if x["cpu_node"] != x["mem_node"]]
        slit = [x.get("slit_ratio") for x in rows if x["cpu_node"] != x["mem_node"]]
        check(cells == [(a, b) for a in range(nodes) for b in range(nodes)]
              and all(isinstance(v, (int, float)) and v > 0 for v in ratios)
              and all(abs(v - want[x["cpu_node"]][x["mem_node"]] / 10) < 1e-9
                      for v, x in zip(slit, [x for x in rows if x["cpu_node"] != x["mem_node"]])),
              "numa view %s: every cell measured, remote/local and distance ratios %s"
              % (g.get("params"), slit))
    lat = [g for g in numa_groups(doc, "lat") if g.get("kind") == "matrix"]
    check(len(lat) == 1 and lat[0].get("nodes") == 2
          and all((x.get("median_n") or 0) > 0 for x in lat[0].get("rows", [])),
          "numa view: the 2 x 2 latency matrix of lat")
    pol = [g for g in numa_groups(doc, "policy") if g.get("kind") == "policy"]
    check(len(pol) == 1 and pol[0].get("placement_mismatches") == 0
          and all(len(pages(x)) == nodes for x in pol[0].get("rows", [])),
          "numa view: the policy rows carry their page histograms, no mismatch")


if __name__ == "__main__":
    main()
    print("%d failed" % len(fails))
    sys.exit(1 if fails else 0)
