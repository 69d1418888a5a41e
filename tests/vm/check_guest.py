#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks what the NUMA guest printed (numa_guest.sh): the guest saw NODES nodes, the NUMA
kernels ran there (not skipped) and verified, and every page was where it was asked to be.
usage: check_guest.py GUEST_LOG NODES"""
import json
import re
import sys

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


main()
print("%d failed" % len(fails))
sys.exit(1 if fails else 0)
