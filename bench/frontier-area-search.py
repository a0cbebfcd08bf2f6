#!/usr/bin/env python3
"""How far can any regionalization cut withheld records at s regions with NUE capped? (issue 12)

A yardstick for Frontier_Eastern, not a VBAS strategy: it drops the Voronoi diagram altogether and
moves single small areas between neighbouring regions (Delaunay neighbours of the area points),
keeping a move when the records withheld by local suppression fall and the release's non-uniform
entropy stays within +5 % of the start's, or when entropy falls and withheld records do not rise;
no region is emptied, and with --contiguous a region that gives an area must stay connected. It
starts from Lloyd's k-means on population-weighted points, as the benchmark's baseline does, and
prints withheld records and NUE after every pass until a pass keeps nothing.

The data is built like Frontier_Eastern's (bench/FrontierBench.cpp, bench/Synthetic.h) but drawn
with numpy's generator, so it is another realization of the same scene: 4,426 areas of 40 towns
and a rural spread, log-normal populations (median 399, sigma 0.8) summing to 2,433,220, each
record a whole person of data/bench/meps1996_persons.csv (age, gender, married, ethnicity), k = 5.

    bench/frontier-area-search.py SITES [--contiguous] [--seed N]     # e.g. 200 --contiguous

Needs numpy and scipy (scripts/install-deps.sh installs them). A few seconds per run.
"""
import argparse
import csv
import pathlib

import numpy as np
from scipy.spatial import Delaunay

K = 5
AREAS = 4426
RECORDS = 2433220
ENTROPY_SLACK = 0.05

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("sites", type=int)
parser.add_argument("--contiguous", action="store_true", help="a region giving an area stays connected")
parser.add_argument("--seed", type=int, default=7)
args = parser.parse_args()
rng = np.random.default_rng(args.seed)

persons = pathlib.Path(__file__).resolve().parent.parent / "data/bench/meps1996_persons.csv"
with open(persons, newline="") as f:
    rows = [tuple(r[:4]) for r in list(csv.reader(f))[1:]]
class_of = {c: i for i, c in enumerate(sorted(set(rows)))}
person_class = np.array([class_of[r] for r in rows])
classes = len(class_of)

# The scene: area points, populations, and every area's records as class counts.
towns = rng.uniform(0, 1, (40, 2)) * [1e6, 6e5]
points = np.empty((AREAS, 2))
for a in range(AREAS):
    if rng.uniform() < 0.7:
        town = towns[rng.integers(len(towns))]
        points[a] = town + rng.normal(0, 2e3 + 2e4 * rng.uniform(), 2)
    else:
        points[a] = rng.uniform(0, 1, 2) * [1e6, 6e5]
population = np.maximum(36, np.exp(rng.normal(np.log(399), 0.8, AREAS)))
population = np.round(population * RECORDS / population.sum()).astype(int)
counts = np.zeros((AREAS, classes), np.int64)
for a in range(AREAS):
    drawn = person_class[rng.integers(0, len(person_class), population[a])]
    counts[a] = np.bincount(drawn, minlength=classes)
neighbours = [set() for _ in range(AREAS)]
for simplex in Delaunay(points).simplices:
    for i in simplex:
        neighbours[i].update(j for j in simplex if j != i)


def kmeans(sites):
    """Lloyd on population-weighted points, 30 iterations: every area's region."""
    centres = points[rng.choice(AREAS, sites, replace=False, p=population / population.sum())]
    for _ in range(30):
        label = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(2).argmin(1)
        for r in range(sites):
            members = label == r
            if members.any():
                centres[r] = (points[members] * population[members, None]).sum(0) / population[members].sum()
    return label


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


label = kmeans(args.sites)
members = [list(np.flatnonzero(label == r)) for r in range(args.sites)]
region_counts = np.array([counts[m].sum(0) for m in members])
held = np.array([withheld(c) for c in region_counts])
bits = np.array([entropy(m, c) for m, c in zip(members, region_counts)])
start_withheld = held.sum()
start_bits = total_bits = bits.sum()
cap = start_bits * (1 + ENTROPY_SLACK)
print(f"s = {args.sites}{' contiguous' if args.contiguous else ''}, seed {args.seed}: k-means regions "
      f"{sum(1 for m in members if m)}, withheld {start_withheld}, NUE {start_bits:.4e}")
for sweep in range(100):
    kept = 0
    for a in rng.permutation(AREAS):
        r = label[a]
        rest = [x for x in members[r] if x != a]
        if not rest or (args.contiguous and not connected(rest)):
            continue
        best = None
        for b in {label[n] for n in neighbours[a]} - {r}:
            giver, taker = region_counts[r] - counts[a], region_counts[b] + counts[a]
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
    print(f"  pass {sweep}: {kept} areas moved, withheld {held.sum()} "
          f"({100 * (held.sum() / start_withheld - 1):+.1f} %), NUE {100 * (total_bits / start_bits - 1):+.1f} %",
          flush=True)
    if kept == 0:
        break
