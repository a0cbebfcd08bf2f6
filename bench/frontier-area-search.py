#!/usr/bin/env python3
"""How far can any regionalization cut withheld records at s regions with NUE capped? (issue 12)

A yardstick for Frontier_Eastern, not a VBAS strategy: it drops the Voronoi diagram altogether and
moves single small areas between neighbouring regions (Delaunay neighbours of the area points),
keeping a move when the records withheld by local suppression fall and the release's non-uniform
entropy stays within +5 % of balanced density's at the same s (issue 12's condition), or when
entropy falls and withheld records do not rise; no region is emptied or stops releasing records,
and with --contiguous a region that gives an area must stay connected. It prints withheld records
and NUE after every pass until a pass keeps nothing.

It works on the very records and maps of the benchmark, exported by it (written independently of
the engine: its own withheld and entropy counts, checked against the benchmark's table):

    mkdir -p /tmp/frontier
    VBAS_FRONTIER_EXPORT=/tmp/frontier build/bench/vbas_bench --benchmark_filter='Frontier_Eastern/'
    bench/frontier-area-search.py /tmp/frontier SITES [--start refinement] [--contiguous]

--start is the map the moves start from: balanced-density (default), refinement (the suppression
refinement's power diagram) or k-means. Needs numpy and scipy (scripts/install-deps.sh installs
them). Seconds to a minute per run.
"""
import argparse
import csv
import pathlib

import numpy as np
from scipy.spatial import Delaunay

K = 5
ENTROPY_SLACK = 0.05

parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
parser.add_argument("export", type=pathlib.Path, help="the folder VBAS_FRONTIER_EXPORT named")
parser.add_argument("sites", type=int)
parser.add_argument("--start", default="balanced-density", choices=["balanced-density", "refinement", "k-means"])
parser.add_argument("--contiguous", action="store_true", help="a region giving an area stays connected")
parser.add_argument("--seed", type=int, default=7, help="the order areas are visited in")
args = parser.parse_args()
rng = np.random.default_rng(args.seed)


def read(name):
    with open(args.export / name, newline="") as f:
        return list(csv.DictReader(f))


points = np.array([[float(r["x"]), float(r["y"])] for r in read("areas.csv")])
AREAS = len(points)
entries = np.array([[int(r["area"]), int(r["class"]), int(r["records"])] for r in read("counts.csv")])
counts = np.zeros((AREAS, entries[:, 1].max() + 1), np.int64)
counts[entries[:, 0], entries[:, 1]] = entries[:, 2]
neighbours = [set() for _ in range(AREAS)]
for simplex in Delaunay(points).simplices:
    for i in simplex:
        neighbours[i].update(j for j in simplex if j != i)


def read_map(name):
    """Every area's region in map-<s>-<name>.csv (-1: in none), and the number of regions."""
    label = np.array([int(r["aggregate"]) if r["aggregate"] else -1 for r in read(f"map-{args.sites}-{name}.csv")])
    return label, label.max() + 1


def withheld(region_counts):
    return int((region_counts * ((region_counts > 0) & (region_counts < K))).sum())


def entropy(members, region_counts):
    """The region's part of the NUE: -sum over released records of log2(n(area) / n(region))."""
    released = (counts[members] * (region_counts >= K)).sum(1).astype(float)
    total = released.sum()
    released = released[released > 0]
    return float((released * np.log2(total / released)).sum()) if total > 0 else 0.0


def connected(members):
    if not members:
        return False
    inside, seen, stack = set(members), {members[0]}, [members[0]]
    while stack:
        for b in neighbours[stack.pop()]:
            if b in inside and b not in seen:
                seen.add(b)
                stack.append(b)
    return len(seen) == len(members)


def totals(label, regions):
    members = [list(np.flatnonzero(label == r)) for r in range(regions)]
    region_counts = np.array([counts[m].sum(0) for m in members])
    return members, region_counts, sum(entropy(m, c) for m, c in zip(members, region_counts))


members, region_counts, reference_bits = totals(*read_map("balanced-density"))
cap = reference_bits * (1 + ENTROPY_SLACK)
reference_withheld = sum(withheld(c) for c in region_counts)
label, regions = read_map(args.start)
members, region_counts, _ = totals(label, regions)
held = np.array([withheld(c) for c in region_counts])
bits = np.array([entropy(m, c) for m, c in zip(members, region_counts)])
start_withheld = held.sum()
total_bits = bits.sum()
print(f"s = {args.sites}{' contiguous' if args.contiguous else ''}: balanced density withholds {reference_withheld}, "
      f"NUE {reference_bits:.4e} (cap {cap:.4e}); {args.start}: {regions} regions, withheld {start_withheld}, "
      f"NUE {total_bits:.4e}")
for sweep in range(100):
    kept = 0
    for a in rng.permutation(AREAS):
        r = label[a]
        if r < 0:
            continue
        rest = [x for x in members[r] if x != a]
        if not rest or (args.contiguous and not connected(rest)):
            continue
        best = None
        for b in {label[n] for n in neighbours[a]} - {r, -1}:
            giver, taker = region_counts[r] - counts[a], region_counts[b] + counts[a]
            if held[r] < region_counts[r].sum() and withheld(giver) == giver.sum():
                continue  # the giver would stop releasing records
            change = withheld(giver) + withheld(taker) - held[r] - held[b]
            if change > 0:
                continue
            grown = members[b] + [a]
            giver_bits, taker_bits = entropy(rest, giver), entropy(grown, taker)
            bits_change = giver_bits + taker_bits - bits[r] - bits[b]
            if (change < 0 and total_bits + bits_change <= cap) or (change == 0 and bits_change < -1e-6):
                if best is None or (change, bits_change) < best[0]:
                    best = ((change, bits_change), b, giver, taker, grown, giver_bits, taker_bits)
        if best is None:
            continue
        _, b, giver, taker, grown, giver_bits, taker_bits = best
        region_counts[r], region_counts[b] = giver, taker
        members[r], members[b] = rest, grown
        label[a] = b
        held[r], held[b] = withheld(giver), withheld(taker)
        total_bits += giver_bits + taker_bits - bits[r] - bits[b]
        bits[r], bits[b] = giver_bits, taker_bits
        kept += 1
    print(f"  pass {sweep}: {kept} areas moved, withheld {held.sum()} ({100 * (held.sum() / start_withheld - 1):+.1f} % "
          f"against the start, {100 * (held.sum() / reference_withheld - 1):+.1f} % against balanced density), "
          f"NUE {100 * (total_bits / reference_bits - 1):+.1f} % against balanced density's", flush=True)
    if kept == 0:
        break
