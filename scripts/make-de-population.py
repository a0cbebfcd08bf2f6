#!/usr/bin/env python3
"""Writes data/tests/de_population_agesex.csv: the German districts' POPULATION split into the strata of
de_imd_cases.csv (agegrp [0,3), [3,19), [19,Inf) x sex), for k-map against a population table (issue 41).

Age shares: the European Standard Population 2013 (data/standard-populations/esp2013.csv), one year of a
band counted as its even share (0-2: 1,000 + 2/4 of 4,000; 3-18: 2/4 of 4,000 + 5,500 + 5,500 + 4/5 of
5,500; 19 and over: the rest of 100,000). Sex shares: the MEPS 1996 persons (data/bench/meps1996_persons.csv,
female 4,169 of 8,802), the same in every band. People rounded to whole numbers. Standard library only;
run from the repository root: python3 scripts/make-de-population.py
"""
import csv

esp = {(int(r["age_from"]), r["age_to"]): int(r["population"])
       for r in csv.DictReader(open("data/standard-populations/esp2013.csv"))}
total = sum(esp.values())
young = esp[(0, "0")] + esp[(1, "4")] * 2 / 4
school = esp[(1, "4")] * 2 / 4 + esp[(5, "9")] + esp[(10, "14")] + esp[(15, "19")] * 4 / 5
ages = [("0-2", young / total), ("3-18", school / total), ("19+", (total - young - school) / total)]
persons = list(csv.DictReader(open("data/bench/meps1996_persons.csv")))
female = sum(p["gender"] == "female" for p in persons) / len(persons)
sexes = [("female", female), ("male", 1 - female)]

with open("data/tests/de_population_agesex.csv", "w", newline="") as out:
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
    writer.writerow(["KEY", "agegrp", "sex", "people"])
    for district in csv.DictReader(open("data/tests/de_districts_wkt.csv")):
        for band, age in ages:
            for sex, share in sexes:
                writer.writerow([district["KEY"], band, sex, round(int(district["POPULATION"]) * age * share)])
with open("data/tests/de_population_agesex.csvt", "w") as out:
    out.write('"String","String","String","Integer"\n')
