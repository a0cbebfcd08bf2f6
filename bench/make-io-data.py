#!/usr/bin/env python3
"""Writes the national-scale input of the I/O benchmark (bench/io-bench.sh) into a folder.

areas.csv: a 90 x 90 grid of 1 km square small areas (WKT polygons in EPSG:32725, Brazil's UTM zone),
ids A00000...; patients.csv: about 2.85 M records, each a whole person drawn at random from
data/bench/meps1996_persons.csv (real MEPS 1996 microdata: exact age, gender, married, ethnicity,
education, jointly as surveyed), placed on areas of skewed sizes (a few dense, many small), as a
national health table would be. Standard library only; a fixed seed gives the same files every run.

    python3 bench/make-io-data.py OUTPUT_FOLDER [RECORDS]
"""
import csv
import os
import random
import sys

GRID = 90
CELL = 1000.0
ORIGIN = (250000.0, 9100000.0)


def main():
    folder = sys.argv[1]
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 2_850_000
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "data", "bench", "meps1996_persons.csv"), newline="", encoding="utf-8") as f:
        people = list(csv.reader(f))
    header, people = people[0], people[1:]
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(20261125)

    areas = []
    with open(os.path.join(folder, "areas.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["WKT", "area_id"])
        for row in range(GRID):
            for col in range(GRID):
                x0, y0 = ORIGIN[0] + col * CELL, ORIGIN[1] + row * CELL
                x1, y1 = x0 + CELL, y0 + CELL
                area = f"A{len(areas):05d}"
                areas.append(area)
                writer.writerow([f"POLYGON(({x0} {y0},{x1} {y0},{x1} {y1},{x0} {y1},{x0} {y0}))", area])

    # Skewed area sizes (log-normal weights), scaled to the total.
    weights = [rng.lognormvariate(0.0, 1.0) for _ in areas]
    scale = total / sum(weights)
    with open(os.path.join(folder, "patients.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["area"] + header)
        written = 0
        for area, weight in zip(areas, weights):
            for person in rng.choices(people, k=max(1, round(weight * scale))):
                writer.writerow([area] + person)
                written += 1
    with open(os.path.join(folder, "patients.csvt"), "w", encoding="utf-8") as f:
        f.write('"String","Integer","String","String","String","String"\n')
    print(f"{folder}: {len(areas)} areas, {written} records")


if __name__ == "__main__":
    main()
