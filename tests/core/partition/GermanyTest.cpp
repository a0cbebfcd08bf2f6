#include "Pipeline.h"
#include "PropertyCheck.h"
#include "TestSupport.h"
#include "geometry/Dissolve.h"
#include "geometry/GeometryTestSupport.h"
#include "geometry/Obstacles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

using namespace vbas;
using namespace vbas::test;

namespace
{
/**
 * The 413 German districts (data/tests/de_districts_wkt.csv), their state (the first two digits of
 * the district key) as parent, the Natural Earth rivers and lakes (de_rivers_3035_wkt.csv), and
 * the 636 real meningococcal disease cases (de_imd_cases.csv) as records over sex and age group.
 */
struct Germany
{
    std::vector<District> districts;
    RegionGeometries geometries;
    std::vector<std::string> riverWkts;
    std::vector<std::uint32_t> state;
    DatasetBuilder builder{{qi("sex"), qi("agegrp")}};
    SpatialContext spatial;

    Germany()
        : districts(readDistricts())
    {
        for (const District& d : districts)
        {
            addWkt(geometries, d.wkt, d.key);
            const Point p =
                geometries.representativePoint(geometries.size() - 1, RepresentativePoint::PointOnSurface);
            builder.region(d.key, p.x, p.y);
            state.push_back(std::uint32_t(std::stoi(d.key.substr(0, 2))));
        }
        std::ifstream rivers(std::string(VBAS_TEST_DATA_DIR) + "/de_rivers_3035_wkt.csv");
        std::string line;
        std::getline(rivers, line);
        std::vector<Segment> segments;
        while (std::getline(rivers, line))
        {
            riverWkts.push_back(line.substr(line.find(",\"") + 2, line.size() - line.find(",\"") - 3));
            const geos::GeometryPtr g = geos::fromWkt(geometries.context(), riverWkts.back());
            const auto wkb = geos::toWkb(geometries.context(), g.get());
            const auto more = Obstacles::segmentsOfWkb(wkb.data(), wkb.size());
            segments.insert(segments.end(), more.begin(), more.end());
        }
        spatial.obstacles = std::make_shared<Obstacles>(std::move(segments));
        Feedback feedback;
        spatial.adjacency = std::make_shared<RegionAdjacency>(
            RegionAdjacency::build(geometries, defaultAdjacencyTolerance(geometries), feedback));
        std::ifstream cases(std::string(VBAS_TEST_DATA_DIR) + "/de_imd_cases.csv");
        std::getline(cases, line); // case_id,tile,sex,agegrp,type
        std::map<std::string, std::uint32_t> sexes, ages;
        while (std::getline(cases, line))
        {
            const std::size_t a = line.find(','), b = line.find(',', a + 1), c = line.find(',', b + 1);
            const std::size_t d = line.rfind(',');
            const std::string tile = line.substr(a + 1, b - a - 1), sex = line.substr(b + 1, c - b - 1),
                              age = line.substr(c + 1, d - c - 1);
            const std::uint32_t sexCode = sexes.emplace(sex, std::uint32_t(sexes.size())).first->second;
            const std::uint32_t ageCode = ages.emplace(age, std::uint32_t(ages.size())).first->second;
            builder.records(tile, {sexCode, ageCode});
        }
    }

    Dataset dataset() const { return builder.build(); }
};

const Germany& germany()
{
    static const Germany instance;
    return instance;
}

PipelineConfig configFor(const std::string& partitioner, bool adc, bool contiguity = false)
{
    PipelineConfig config;
    config.k = 3;
    config.siteCounter = "sitecount.fixed";
    config.options.set("site_count", 25.0);
    config.partitioner = partitioner;
    config.siteRefiner = adc ? "refinement.adc" : "";
    config.repairContiguity = contiguity;
    return config;
}

/**
 * The districts with their polygons and the rivers, the states as parents when asked; the engine builds
 * the adjacency from the polygons itself.
 */
Job germanyJob(const Dataset& dataset, bool parents)
{
    Job job(dataset);
    job.geometries = &germany().geometries;
    job.spatial.obstacles = germany().spatial.obstacles;
    if (parents)
        job.regionParent = germany().state;
    return job;
}
} // namespace

TEST(Germany, TheTestDataIsWhatTheReadmeSays)
{
    const Germany& g = germany();
    EXPECT_EQ(g.districts.size(), 413u);
    EXPECT_EQ(g.dataset().totalRecords(), 636u);
    EXPECT_EQ(std::set<std::uint32_t>(g.state.begin(), g.state.end()).size(), 16u);
    EXPECT_EQ(g.riverWkts.size(), 11u); // 9 rivers, 2 lakes
    // data/README.md: 1,072 touching pairs; a few touch only at a point.
    EXPECT_GT(g.spatial.adjacency->pairs().size(), 1000u);
    EXPECT_LE(g.spatial.adjacency->pairs().size(), 1072u);
}

TEST(Germany, NoAggregateMixesStates)
{
    const Dataset dataset = germany().dataset();
    for (const auto& partitioner : {"partition.voronoi", "partition.barrier", "partition.geodesic"})
        for (bool adc : {false, true})
        {
            SCOPED_TRACE(std::string(partitioner) + (adc ? " + ADC" : ""));
            Feedback feedback;
            const PipelineResult result =
                Pipeline(configFor(partitioner, adc)).run(germanyJob(dataset, true), feedback);
            std::map<std::uint32_t, std::set<std::string>> statesOf;
            for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
                statesOf[result.aggregation.regionAggregate[r]].insert(dataset.regionId(r).substr(0, 2));
            for (const auto& [aggregate, states] : statesOf)
                EXPECT_EQ(states.size(), 1u) << "aggregate " << aggregate;
            EXPECT_GE(result.aggregation.size(), 16u) << "every state needs an aggregate of its own";
            ASSERT_NO_FATAL_FAILURE(expectGuarantee(germany().builder.table(), dataset, result, 3));
        }
}

TEST(Germany, BarrierAggregatesNeverCrossARiverThatSplitsTheCountry)
{
    // Oracle, independent of the engine: GEOS splits Germany into faces along the rivers
    // (polygonize the noded outline and river lines); a face's districts can only reach other
    // faces across a river, and the Natural Earth rivers have no bridges.
    const Germany& g = germany();
    geos::Context& context = g.geometries.context();
    const GEOSContextHandle_t h = context.handle();
    std::vector<GEOSGeometry*> parts;
    for (std::size_t i = 0; i < g.geometries.size(); ++i)
        parts.push_back(GEOSGeom_clone_r(h, g.geometries.geometry(i)));
    const geos::GeometryPtr all =
        geos::own(context, GEOSGeom_createCollection_r(h, GEOS_GEOMETRYCOLLECTION, parts.data(),
                                                       unsigned(parts.size())));
    const geos::GeometryPtr country = geos::own(context, GEOSUnaryUnion_r(h, all.get()));
    std::vector<GEOSGeometry*> lines{GEOSBoundary_r(h, country.get())};
    for (const std::string& wkt : g.riverWkts)
    {
        geos::GeometryPtr river = geos::fromWkt(context, wkt);
        lines.push_back(GEOSGeomTypeId_r(h, river.get()) == GEOS_MULTIPOLYGON ||
                                GEOSGeomTypeId_r(h, river.get()) == GEOS_POLYGON
                            ? GEOSBoundary_r(h, river.get())
                            : river.release());
    }
    const geos::GeometryPtr lineSet =
        geos::own(context, GEOSGeom_createCollection_r(h, GEOS_GEOMETRYCOLLECTION, lines.data(),
                                                       unsigned(lines.size())));
    const geos::GeometryPtr noded = geos::own(context, GEOSUnaryUnion_r(h, lineSet.get()));
    const GEOSGeometry* input[] = {noded.get()};
    const geos::GeometryPtr faces = geos::own(context, GEOSPolygonize_r(h, input, 1));
    const Dataset dataset = g.dataset();
    // Faces of the country, not of the sea between the outline and a river's mouth; and the land
    // part (mainland, each island) a face lies in: only faces of one land part are banks of a river.
    const auto landPartOf = [&](int f)
    {
        const geos::GeometryPtr inner =
            geos::own(context, GEOSPointOnSurface_r(h, GEOSGetGeometryN_r(h, faces.get(), f)));
        for (int part = 0; part < GEOSGetNumGeometries_r(h, country.get()); ++part)
            if (GEOSContains_r(h, GEOSGetGeometryN_r(h, country.get(), part), inner.get()) == 1)
                return part;
        return -1;
    };
    std::vector<int> faceOf(dataset.regionCount(), -1);
    std::set<int> used;
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
    {
        const Point p = dataset.points()[r];
        const geos::GeometryPtr point = geos::own(context, GEOSGeom_createPointFromXY_r(h, p.x, p.y));
        for (int f = 0; f < GEOSGetNumGeometries_r(h, faces.get()); ++f)
            if (GEOSContains_r(h, GEOSGetGeometryN_r(h, faces.get(), f), point.get()) == 1 &&
                landPartOf(f) >= 0)
            {
                faceOf[r] = f;
                used.insert(f);
                break;
            }
    }
    std::map<int, std::set<int>> facesOfLandPart;
    for (int f : used)
        facesOfLandPart[landPartOf(f)].insert(f);
    ASSERT_TRUE(std::any_of(facesOfLandPart.begin(), facesOfLandPart.end(),
                            [](const auto& e) { return e.second.size() >= 2; }))
        << "the rivers should split the mainland into banks";
    for (bool adc : {false, true})
    {
        Feedback feedback;
        const PipelineResult result =
            Pipeline(configFor("partition.barrier", adc)).run(germanyJob(dataset, false), feedback);
        std::map<std::pair<std::uint32_t, int>, std::set<int>> banksOf; // (aggregate, land part) -> faces
        for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
            banksOf[{result.aggregation.regionAggregate[r], landPartOf(faceOf[r])}].insert(faceOf[r]);
        for (const auto& [key, set] : banksOf)
            EXPECT_EQ(set.size(), 1u)
                << (adc ? "ADC: " : "") << "aggregate " << key.first << " crosses a river";
        ASSERT_NO_FATAL_FAILURE(expectGuarantee(g.builder.table(), dataset, result, 3));
    }
}

TEST(Germany, ContiguityRepairLeavesOnlyIslandsApart)
{
    const Germany& g = germany();
    const Dataset dataset = g.dataset();
    Feedback feedback;
    const PipelineResult plain =
        Pipeline(configFor("partition.voronoi", false)).run(germanyJob(dataset, false), feedback);
    const PipelineResult repaired =
        Pipeline(configFor("partition.voronoi", false, true)).run(germanyJob(dataset, false), feedback);
    ASSERT_TRUE(repaired.contiguity.has_value());
    const auto dissolvedParts = [&](const PipelineResult& result)
    {
        std::vector<std::size_t> parts;
        for (const DissolvedAggregate& d : dissolve(g.geometries, result.aggregation, feedback))
            parts.push_back(d.parts);
        return parts;
    };
    // Islands: polygon parts of single districts that touch no other district (North Sea islands).
    std::size_t islandParts = 0;
    for (std::size_t i = 0; i < g.geometries.size(); ++i)
        if (GEOSGeomTypeId_r(g.geometries.context().handle(), g.geometries.geometry(i)) == GEOS_MULTIPOLYGON)
            islandParts += std::size_t(GEOSGetNumGeometries_r(g.geometries.context().handle(),
                                                              g.geometries.geometry(i))) -
                           1;
    const auto before = dissolvedParts(plain), after = dissolvedParts(repaired);
    std::size_t extraBefore = 0, extraAfter = 0;
    for (std::size_t p : before)
        extraBefore += p - 1;
    for (std::size_t p : after)
        extraAfter += p - 1;
    EXPECT_GT(extraBefore, islandParts) << "Voronoi alone should strand some districts";
    EXPECT_LE(extraAfter, islandParts + repaired.contiguity->islandPieces)
        << "after the repair only islands may stand apart";
    ASSERT_NO_FATAL_FAILURE(expectGuarantee(g.builder.table(), dataset, repaired, 3));
}
