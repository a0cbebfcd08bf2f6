#include "GeometryTestSupport.h"
#include "geometry/ClippedCells.h"
#include "geometry/Dissolve.h"
#include "geometry/VoronoiCells.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

using namespace vbas;
using namespace vbas::test;

namespace
{
constexpr double kPi = 3.14159265358979323846;

double areaOfWkb(const RegionGeometries& geometries, const std::vector<unsigned char>& wkb)
{
    const geos::GeometryPtr g = geos::fromWkb(geometries.context(), wkb.data(), wkb.size());
    double area = 0;
    GEOSArea_r(geometries.context().handle(), g.get(), &area);
    return area;
}
} // namespace

TEST(Dissolve, GridSquaresByHand)
{
    // 3 x 3 unit squares, row-major from (0,0). Groups: an L of three (0, 1, 3), a 2x2 block minus
    // one... kept simple: 0 = {0,1,3} (L), 1 = {2, 6} (two corners, apart), 2 = {4,5,7,8} (2x2).
    RegionGeometries geometries;
    for (int i = 0; i < 9; ++i)
        addWkt(geometries, square(i % 3, i / 3));
    Feedback feedback;
    const auto dissolved = dissolve(geometries, groupsOf({0, 0, 1, 0, 2, 2, 1, 2, 2}, 3), feedback);
    ASSERT_EQ(dissolved.size(), 3u);
    EXPECT_NEAR(dissolved[0].area, 3.0, 1e-12);
    EXPECT_NEAR(dissolved[0].perimeter, 8.0, 1e-12);
    EXPECT_EQ(dissolved[0].parts, 1u);
    EXPECT_NEAR(dissolved[1].area, 2.0, 1e-12);
    EXPECT_EQ(dissolved[1].parts, 2u);
    EXPECT_NEAR(dissolved[1].perimeter, 8.0, 1e-12);
    EXPECT_NEAR(dissolved[2].area, 4.0, 1e-12);
    EXPECT_NEAR(dissolved[2].perimeter, 8.0, 1e-12);
    EXPECT_NEAR(dissolved[2].compactness, 4 * kPi * 4 / 64, 1e-12); // a square: pi / 4
    EXPECT_NEAR(areaOfWkb(geometries, dissolved[2].wkb), 4.0, 1e-12);
}

TEST(Dissolve, OverlappingMembersFallBackToUnaryUnion)
{
    // Two overlapping squares: coverage union is invalid here, the fallback must be exact.
    RegionGeometries geometries;
    addWkt(geometries, square(0, 0, 2));
    addWkt(geometries, square(1, 1, 2));
    Feedback feedback;
    const auto dissolved = dissolve(geometries, groupsOf({0, 0}, 1), feedback);
    EXPECT_NEAR(dissolved[0].area, 7.0, 1e-12);
    EXPECT_EQ(dissolved[0].parts, 1u);
}

TEST(Dissolve, SlitsAreNoHolesButRealHolesStay)
{
    // A 10 x 10 square with three interior rings: a slit of no area (the ring runs out and back), a
    // sliver of area 1e-8 (below a billionth of the square's area, 1e-7) and a real
    // 1 x 1 hole. Only the real hole stays: area 99, perimeter 40 + 4.
    geos::Context context;
    const GEOSContextHandle_t h = context.handle();
    geos::GeometryPtr polygon = geos::fromWkt(context, "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), "
                                                       "(2 2, 8 2, 2 2, 2 2), "
                                                       "(2 5, 8 5, 5 5.0000000033, 2 5), "
                                                       "(4 7, 5 7, 5 8, 4 8, 4 7))");
    const geos::GeometryPtr cleaned = removeSlits(context, std::move(polygon));
    ASSERT_EQ(GEOSGetNumInteriorRings_r(h, cleaned.get()), 1);
    double area = 0, perimeter = 0;
    GEOSArea_r(h, cleaned.get(), &area);
    GEOSLength_r(h, cleaned.get(), &perimeter);
    EXPECT_NEAR(area, 99.0, 1e-9);
    EXPECT_NEAR(perimeter, 44.0, 1e-9);

    // Each part of a multipolygon on its own.
    geos::GeometryPtr two =
        geos::fromWkt(context, "MULTIPOLYGON (((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 3 1, 1 1, 1 1)), "
                               "((10 0, 14 0, 14 4, 10 4, 10 0), (11 1, 12 1, 12 2, 11 2, 11 1)))");
    const geos::GeometryPtr parts = removeSlits(context, std::move(two));
    ASSERT_EQ(GEOSGetNumGeometries_r(h, parts.get()), 2);
    EXPECT_EQ(GEOSGetNumInteriorRings_r(h, GEOSGetGeometryN_r(h, parts.get(), 0)), 0);
    EXPECT_EQ(GEOSGetNumInteriorRings_r(h, GEOSGetGeometryN_r(h, parts.get(), 1)), 1);
}

TEST(Dissolve, GermanDistrictsAreasAddUp)
{
    const std::vector<District> districts = readDistricts();
    ASSERT_EQ(districts.size(), 413u); // data/README.md
    RegionGeometries geometries;
    std::vector<std::uint32_t> group;
    double total = 0;
    for (const District& d : districts)
    {
        addWkt(geometries, d.wkt, d.key);
        total += geometries.area(geometries.size() - 1);
        group.push_back(std::uint32_t(std::stoi(d.key.substr(0, 2)) - 1)); // the 16 states (Laender)
    }
    EXPECT_EQ(geometries.repairedCount(), 0u);
    Feedback feedback;
    const auto dissolved = dissolve(geometries, groupsOf(group, 16), feedback);
    double sum = 0;
    for (std::size_t a = 0; a < dissolved.size(); ++a)
    {
        double members = 0;
        for (std::size_t r = 0; r < group.size(); ++r)
            if (group[r] == a)
                members += geometries.area(r);
        EXPECT_NEAR(dissolved[a].area, members, members * 1e-9) << "state " << a + 1;
        sum += dissolved[a].area;
    }
    EXPECT_NEAR(sum, total, total * 1e-9);
    EXPECT_NEAR(total / 1e6, 357000, 3000); // Germany is about 357,000 km2
}

TEST(RegionGeometries, RepairsInvalidPolygonsAndCountsThem)
{
    RegionGeometries geometries;
    addWkt(geometries, "POLYGON ((0 0, 2 2, 2 0, 0 2, 0 0))"); // a bow-tie: two triangles of area 1
    EXPECT_EQ(geometries.repairedCount(), 1u);
    EXPECT_NEAR(geometries.area(0), 2.0, 1e-12);
    EXPECT_EQ(GEOSisValid_r(geometries.context().handle(), geometries.geometry(0)), 1);
}

TEST(RegionGeometries, RejectsNonPolygons)
{
    RegionGeometries geometries;
    EXPECT_THROW(addWkt(geometries, "LINESTRING (0 0, 1 1)", "line"), Error);
    EXPECT_THROW(addWkt(geometries, "POLYGON EMPTY", "empty"), Error);
}

TEST(RegionGeometries, RepresentativePoints)
{
    RegionGeometries geometries;
    // A U shape: its centroid (2, 1.1...) lies in the notch, outside; a point on surface lies inside.
    addWkt(geometries, "POLYGON ((0 0, 4 0, 4 3, 3 3, 3 1, 1 1, 1 3, 0 3, 0 0))");
    addWkt(geometries, square(10, 10, 2));
    const Point centroid = geometries.representativePoint(1, RepresentativePoint::Centroid);
    EXPECT_DOUBLE_EQ(centroid.x, 11.0);
    EXPECT_DOUBLE_EQ(centroid.y, 11.0);
    const GEOSContextHandle_t h = geometries.context().handle();
    const auto inside = [&](Point p)
    {
        const geos::GeometryPtr point =
            geos::own(geometries.context(), GEOSGeom_createPointFromXY_r(h, p.x, p.y));
        return GEOSIntersects_r(h, geometries.geometry(0), point.get()) == 1;
    };
    EXPECT_FALSE(inside(geometries.representativePoint(0, RepresentativePoint::Centroid)));
    EXPECT_TRUE(inside(geometries.representativePoint(0, RepresentativePoint::PointOnSurface)));
}

TEST(VoronoiCells, EachCellHoldsItsSiteAndNoOtherIsCloser)
{
    std::mt19937 generator(3);
    std::vector<Point> sites;
    for (int i = 0; i < 200; ++i)
        sites.push_back({double(generator() % 1000), double(generator() % 1000)});
    sites.push_back(sites[5]); // a duplicate owns no cell
    const auto cells = voronoiCells(sites);
    EXPECT_TRUE(cells.back().empty());
    for (std::size_t s = 0; s + 1 < sites.size(); ++s)
    {
        ASSERT_GE(cells[s].size(), 4u) << s;
        // Every cell vertex is at least as close to its site as to any other (within rounding).
        for (const Point& v : cells[s])
            for (const Point& other : sites)
                EXPECT_LE(std::sqrt(squaredDistance(v, sites[s])),
                          std::sqrt(squaredDistance(v, other)) + 1e-6);
    }
}

TEST(ClippedCells, PartitionTheStudyArea)
{
    const std::vector<District> districts = readDistricts();
    RegionGeometries geometries;
    double total = 0;
    for (const District& d : districts)
    {
        addWkt(geometries, d.wkt, d.key);
        total += geometries.area(geometries.size() - 1);
    }
    std::vector<Point> sites;
    for (std::size_t i = 0; i < districts.size(); i += 9)
        sites.push_back(geometries.representativePoint(i, RepresentativePoint::PointOnSurface));
    Feedback feedback;
    const ClippedCells cells = clippedVoronoiCells(geometries, sites, {}, feedback);
    EXPECT_TRUE(cells.withoutCell.empty()); // every site lies inside Germany
    double sum = 0;
    for (const auto& wkb : cells.wkb)
    {
        ASSERT_FALSE(wkb.empty());
        sum += areaOfWkb(geometries, wkb);
    }
    EXPECT_NEAR(sum, total, total * 1e-6);
}

TEST(ClippedCells, SitesOnAGridGetValidCellsThatPartitionTheArea)
{
    // Sites 0.1 m apart on a 40 x 40 grid far from the origin, the area's border along a row and a column of
    // them: four sites on one circle make rounded circumcentres that fold some cell rings. The folded rings
    // were written as invalid cells, and clipped, covered 9.49 m2 of the 8.41 m2 area.
    RegionGeometries geometries;
    const double x0 = 500000.0, y0 = 4000000.0;
    addWkt(geometries, "POLYGON ((500000.5 4000000.5, 500003.4 4000000.5, 500003.4 4000003.4, "
                       "500000.5 4000003.4, 500000.5 4000000.5))");
    std::vector<Point> sites;
    for (int i = 0; i < 40; ++i)
        for (int j = 0; j < 40; ++j)
            sites.push_back({x0 + i * 0.1, y0 + j * 0.1});
    Feedback feedback;
    const ClippedCells cells = clippedVoronoiCells(geometries, sites, {}, feedback);
    const GEOSContextHandle_t h = geometries.context().handle();
    double sum = 0;
    std::size_t outside = 0;
    for (SiteIndex s = 0; s < sites.size(); ++s)
    {
        // A cell reaches 0.05 m around its site: sites on the border or inside have one, those a row out
        // none.
        const bool inArea = sites[s].x > x0 + 0.46 && sites[s].x < x0 + 3.44 && sites[s].y > y0 + 0.46 &&
                            sites[s].y < y0 + 3.44;
        ASSERT_EQ(cells.wkb[s].empty(), !inArea) << "site " << s;
        outside += inArea ? 0 : 1;
        if (!inArea)
            continue;
        const geos::GeometryPtr cell =
            geos::fromWkb(geometries.context(), cells.wkb[s].data(), cells.wkb[s].size());
        EXPECT_EQ(GEOSisValid_r(h, cell.get()), 1) << "site " << s;
        sum += areaOfWkb(geometries, cells.wkb[s]);
    }
    ASSERT_EQ(cells.withoutCell.size(), outside);
    for (const SiteWithoutCell& site : cells.withoutCell)
        EXPECT_EQ(site.reason, NoCell::OutsideArea) << "site " << site.site;
    EXPECT_NEAR(sum, geometries.area(0), geometries.area(0) * 1e-9);
}

TEST(ClippedCells, EverySiteWithoutACellIsToldWhy)
{
    // The area: two unit squares, [0, 2] x [0, 1].
    RegionGeometries geometries;
    addWkt(geometries, square(0, 0));
    addWkt(geometries, square(1, 0));
    Feedback feedback;
    // Site 2 stands where site 0 does; site 3's cell lies far above; site 4's cell only touches the area
    // along its right edge (x = 2), which is no area (it was written as a line).
    const std::vector<Point> sites{{0.5, 0.5}, {1.5, 0.5}, {0.5, 0.5}, {1.0, 40.0}, {2.5, 0.5}};
    const ClippedCells cells = clippedVoronoiCells(geometries, sites, {}, feedback);
    ASSERT_EQ(cells.withoutCell.size(), 3u);
    EXPECT_EQ(cells.withoutCell[0].site, 2u);
    EXPECT_EQ(cells.withoutCell[0].reason, NoCell::SameLocation);
    EXPECT_EQ(cells.withoutCell[1].site, 3u);
    EXPECT_EQ(cells.withoutCell[1].reason, NoCell::OutsideArea);
    EXPECT_EQ(cells.withoutCell[2].site, 4u);
    EXPECT_EQ(cells.withoutCell[2].reason, NoCell::OutsideArea);
    EXPECT_NEAR(areaOfWkb(geometries, cells.wkb[0]) + areaOfWkb(geometries, cells.wkb[1]), 2.0, 1e-9);

    // Power weights: a light site between two heavy ones has an empty cell.
    const ClippedCells weighted =
        clippedVoronoiCells(geometries, {{0.2, 0.5}, {1.0, 0.5}, {1.8, 0.5}}, {1.0, 0.0, 1.0}, feedback);
    ASSERT_EQ(weighted.withoutCell.size(), 1u);
    EXPECT_EQ(weighted.withoutCell[0].site, 1u);
    EXPECT_EQ(weighted.withoutCell[0].reason, NoCell::Hidden);
    EXPECT_TRUE(weighted.wkb[1].empty());
}
