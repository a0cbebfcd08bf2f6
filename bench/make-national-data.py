#!/usr/bin/python3
"""Writes the synthetic national input of the national-scale benchmark (bench/national-bench.sh, issue 33).

areas.gpkg, layer areas (area_id, polygon; EPSG:5070, US Albers): the Voronoi cells, clipped to a
4,500 x 2,500 km rectangle, of AREAS points placed as a country's census tracts are: tracts hold about the
same number of people, so their centres are as dense as the population (a few large metros, many towns,
sparse countryside) and a tract is small where people are dense.
records.csv (+ .csvt): the records pre-aggregated, one row per area and class with its count
(area, age, gender, education, records). Each area holds about 412 records (33 M over 80,000 areas;
log-normal around that, as tract populations vary), each record a whole row drawn at random from
data/bench/meps1996_persons.csv (real MEPS 1996 microdata, so age, sex and education come jointly as
surveyed), education collapsed to 5 values. A fixed seed gives the same files every run.

    /usr/bin/python3 bench/make-national-data.py OUTPUT_FOLDER AREAS

Needs QGIS's and GDAL's Python bindings and numpy (python3-gdal depends on it).
"""
import csv
import os
import sys

import numpy as np
from osgeo import ogr, osr
from qgis.core import QgsGeometry, QgsPointXY

ogr.UseExceptions()

EXTENT = (-2_300_000.0, 300_000.0, 2_200_000.0, 2_800_000.0)  # xmin, ymin, xmax, ymax in metres
RECORDS_PER_AREA = 33_000_000 / 80_000
# Seven education levels are too many for a national release with exact age; five is what a study keeps.
EDUCATION = {"none": "none", "highschool": "highschool", "ged": "highschool", "bachelor": "bachelor",
             "master": "graduate", "phd": "graduate", "other": "other"}
# Shares of the tracts: metros (Zipf-sized, as a country's largest cities), towns, countryside.
METROS, METRO_SHARE = 50, 0.55
TOWNS, TOWN_SHARE = 1500, 0.30


def inside(xy):
    return ((xy[:, 0] > EXTENT[0]) & (xy[:, 0] < EXTENT[2]) & (xy[:, 1] > EXTENT[1]) & (xy[:, 1] < EXTENT[3]))


def uniform(rng, n, margin=0.0):
    return np.column_stack([rng.uniform(EXTENT[0] + margin, EXTENT[2] - margin, n),
                            rng.uniform(EXTENT[1] + margin, EXTENT[3] - margin, n)])


def tract_centres(rng, n):
    """n points, clustered like a population: per metro a dense core and wider suburbs, per town a blob."""
    metro_weights = np.arange(1, METROS + 1) ** -1.0
    town_weights = rng.lognormal(0.0, 1.0, TOWNS)
    clusters = np.concatenate([metro_weights / metro_weights.sum() * METRO_SHARE,
                               town_weights / town_weights.sum() * TOWN_SHARE])
    centres = np.concatenate([uniform(rng, METROS, 150_000.0), uniform(rng, TOWNS, 20_000.0)])
    # Radius grows with the square root of the size (cities of alike density); the largest metro's core
    # has a 14 km standard deviation, so its central tracts are a quarter of a km2 at 80,000 areas.
    sigma = np.concatenate([2_000.0 + 12_000.0 * np.sqrt(metro_weights / metro_weights[0]),
                            1_500.0 + 3_000.0 * np.sqrt(town_weights / town_weights.max())])
    sizes = rng.multinomial(n, np.append(clusters, 1.0 - clusters.sum()))
    points = [uniform(rng, sizes[-1])]  # the countryside
    for c in range(len(clusters)):
        # Metros: half the tracts in the core, half in suburbs three times as wide; towns: one blob.
        spread = np.where(rng.random(sizes[c]) < 0.5, 1.0, 3.0) if c < METROS else np.ones(sizes[c])
        points.append(centres[c] + rng.normal(size=(sizes[c], 2)) * (sigma[c] * spread)[:, None])
    xy = np.concatenate(points)
    while not inside(xy).all():  # tails beyond the border are drawn again, in the countryside
        out = ~inside(xy)
        xy[out] = uniform(rng, out.sum())
    return xy


def write_areas(path, xy):
    """The Voronoi cells of xy, clipped to EXTENT, as areas A000000...; returns their ids."""
    # GEOS's Voronoi diagram through QGIS (GDAL's Python bindings have it only from 3.7 on).
    points = QgsGeometry.fromMultiPointXY([QgsPointXY(float(x), float(y)) for x, y in xy])
    diagram = points.voronoiDiagram()
    cells = ogr.CreateGeometryFromWkb(bytes(diagram.asWkb()))
    ring = ogr.Geometry(ogr.wkbLinearRing)
    for x, y in [(EXTENT[0], EXTENT[1]), (EXTENT[2], EXTENT[1]), (EXTENT[2], EXTENT[3]), (EXTENT[0], EXTENT[3]),
                 (EXTENT[0], EXTENT[1])]:
        ring.AddPoint_2D(x, y)
    frame = ogr.Geometry(ogr.wkbPolygon)
    frame.AddGeometry(ring)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(5070)
    if os.path.exists(path):
        os.remove(path)
    source = ogr.GetDriverByName("GPKG").CreateDataSource(path)
    layer = source.CreateLayer("areas", srs, ogr.wkbPolygon)
    layer.CreateField(ogr.FieldDefn("area_id", ogr.OFTString))
    ids, total_area = [], 0.0
    layer.StartTransaction()
    for i in range(cells.GetGeometryCount()):
        cell = cells.GetGeometryRef(i)
        xmin, xmax, ymin, ymax = cell.GetEnvelope()
        if xmin < EXTENT[0] or ymin < EXTENT[1] or xmax > EXTENT[2] or ymax > EXTENT[3]:
            cell = cell.Intersection(frame)  # only cells on the border reach out of the extent
        feature = ogr.Feature(layer.GetLayerDefn())
        ids.append(f"A{i:06d}")
        feature.SetField("area_id", ids[-1])
        feature.SetGeometry(cell)
        layer.CreateFeature(feature)
        total_area += cell.GetArea()
    layer.CommitTransaction()
    source = None
    # Every point has its cell and the cells tile the extent: a check, not an assumption about GEOS.
    assert len(ids) == len(xy), (len(ids), len(xy))
    assert abs(total_area - frame.GetArea()) < 1e-6 * frame.GetArea(), (total_area, frame.GetArea())
    return ids


def write_records(folder, ids, rng):
    """Pre-aggregated records: per area, whole microdata rows drawn at random and counted by class."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "data", "bench", "meps1996_persons.csv"), newline="", encoding="utf-8") as f:
        people = [(int(r["age"]), r["gender"], EDUCATION[r["education"]]) for r in csv.DictReader(f)]
    classes = sorted(set(people))
    row_class = np.array([classes.index(p) for p in people])  # a row's class, to count rows drawn by class
    # Tract populations vary about as log-normally as census tracts' (most within a factor 2 of the mean).
    sigma = 0.4
    per_area = np.maximum(1, np.rint(rng.lognormal(-sigma * sigma / 2, sigma, len(ids)) * RECORDS_PER_AREA))
    per_area = per_area.astype(np.int64)
    labels = [f"{age},{gender},{education}" for age, gender, education in classes]
    rows = 0
    with open(os.path.join(folder, "records.csv"), "w", encoding="utf-8") as f:
        f.write("area,age,gender,education,records\n")
        chunk = 4096
        for start in range(0, len(ids), chunk):
            counts = per_area[start:start + chunk]
            drawn = row_class[rng.integers(0, len(people), counts.sum())]
            area = np.repeat(np.arange(len(counts)), counts)
            table = np.bincount(area * len(classes) + drawn, minlength=len(counts) * len(classes))
            a, c = np.nonzero(table.reshape(len(counts), len(classes)))
            n = table.reshape(len(counts), len(classes))[a, c]
            f.write("".join(f"{ids[start + i]},{labels[j]},{k}\n" for i, j, k in zip(a.tolist(), c.tolist(),
                                                                                      n.tolist())))
            rows += len(a)
    with open(os.path.join(folder, "records.csvt"), "w", encoding="utf-8") as f:
        f.write('"String","Integer","String","String","Integer"\n')
    return rows, int(per_area.sum())


def main():
    folder, areas = sys.argv[1], int(sys.argv[2])
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(20261127 + areas)
    ids = write_areas(os.path.join(folder, "areas.gpkg"), tract_centres(rng, areas))
    rows, records = write_records(folder, ids, rng)
    print(f"{folder}: {len(ids)} areas, {records} records in {rows} rows")


if __name__ == "__main__":
    main()
