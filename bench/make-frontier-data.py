#!/usr/bin/env python3
"""Writes data/bench/meps1996_persons.csv, the microdata of the frontier benchmark (FrontierBench.cpp).

The quasi-identifier columns of microdata/AER_HealthInsurance.csv (MEPS 1996, Debian r-cran-aer,
GPL-2|GPL-3) from the shared data folder, one row per surveyed person, in source order, values
unchanged: age (exact years), gender, married, ethnicity, education. Standard library only;
two runs give byte-identical files.

    python3 bench/make-frontier-data.py [/path/to/shared/data]     # default: ../shared/data
"""
import csv
import os
import sys

COLUMNS = ["age", "gender", "married", "ethnicity", "education"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "data")
    source = os.path.join(shared, "microdata", "AER_HealthInsurance.csv")
    target = os.path.join(root, "data", "bench", "meps1996_persons.csv")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(source, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    with open(target, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in rows:
            writer.writerow([row[c] for c in COLUMNS])
    with open(target[:-4] + ".csvt", "w", encoding="utf-8") as f:
        f.write('"Integer","String","String","String","String"\n')
    print(f"{target}: {len(rows)} rows")


if __name__ == "__main__":
    main()
