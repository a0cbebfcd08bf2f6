#include "Pipeline.h"
#include "PropertyCheck.h"
#include "SceneSupport.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <random>

using namespace vbas;
using namespace vbas::test;

namespace
{
struct SpatialVariant
{
    std::string partitioner;
    bool adc;
    bool parents;
    bool contiguity;
};

void PrintTo(const SpatialVariant& v, std::ostream* out)
{
    *out << v.partitioner << (v.adc ? " + ADC" : "") << (v.parents ? " + parents" : "")
         << (v.contiguity ? " + contiguity" : "");
}

std::vector<SpatialVariant> allVariants()
{
    std::vector<SpatialVariant> variants;
    for (const auto& entry : Registry::builtIn().partitioners)
        for (bool adc : {false, true})
            for (bool parents : {false, true})
                for (bool contiguity : {false, true})
                    variants.push_back({entry.id, adc, parents, contiguity});
    return variants;
}
} // namespace

class SpatialGuarantee : public ::testing::TestWithParam<SpatialVariant>
{
};

TEST_P(SpatialGuarantee, HoldsOnRandomRiverScenesAndIsDeterministic)
{
    const SpatialVariant& variant = GetParam();
    std::mt19937_64 generator(std::hash<std::string>{}(variant.partitioner) + variant.adc * 2 +
                              variant.parents * 4 + variant.contiguity * 8);
    for (int trial = 0; trial < 12; ++trial)
    {
        SCOPED_TRACE("trial " + std::to_string(trial));
        const std::size_t columns = 4 + generator() % 12, rows = 3 + generator() % 10;
        GridScene scene(columns, rows, 10.0, generator());
        const double w = double(columns) * 10.0, h = double(rows) * 10.0;
        const auto at = [&](double fx, double fy)
        {
            return std::to_string(fx * w) + " " + std::to_string(fy * h);
        };
        const double u = double(generator() % 100) / 100.0, v = double(generator() % 100) / 100.0;
        scene.setObstacles({"LINESTRING (" + at(-0.1, u) + ", " + at(0.5, v) + ", " + at(1.1, u) + ")",
                            "POLYGON ((" + at(0.6, 0.6) + ", " + at(0.8, 0.6) + ", " + at(0.8, 0.9) + ", " +
                                at(0.6, 0.6) + "))"});
        DatasetBuilder builder({qi("a"), qi("b")});
        for (std::size_t r = 0; r < scene.points.size(); ++r)
        {
            builder.region(std::to_string(r), scene.points[r].x, scene.points[r].y);
            const std::size_t records = generator() % 12; // some regions without records
            for (std::size_t i = 0; i < records; ++i)
                builder.records(std::to_string(r),
                                {std::uint32_t(generator() % 3), std::uint32_t(generator() % 2)});
        }
        builder.records("0", {0, 0}, 2);
        const Dataset dataset = builder.build();
        PipelineConfig config;
        config.k = 2 + generator() % 3;
        config.siteCounter = "sitecount.fixed";
        config.options.set("site_count", double(1 + generator() % (scene.points.size() / 2 + 1)));
        config.siteLocator =
            Registry::builtIn().siteLocators[generator() % Registry::builtIn().siteLocators.size()].id;
        config.partitioner = variant.partitioner;
        config.siteRefiner = variant.adc ? "refinement.adc" : "";
        config.repairContiguity = variant.contiguity;
        Job job(dataset);
        job.spatial = scene.spatial;
        if (variant.parents)
            for (std::size_t r = 0; r < scene.points.size(); ++r)
                job.regionParent.push_back(std::uint32_t((r % columns) * 3 / columns));
        const Pipeline pipeline(config);
        Feedback feedback;
        const PipelineResult first = pipeline.run(job, feedback);
        ASSERT_NO_FATAL_FAILURE(expectGuarantee(builder.table(), dataset, first, config.k));
        for (RegionIndex a = 0; variant.parents && a < dataset.regionCount(); ++a)
            for (RegionIndex b = a + 1; b < dataset.regionCount(); ++b)
            {
                if (first.aggregation.regionAggregate[a] == first.aggregation.regionAggregate[b])
                {
                    ASSERT_EQ(job.regionParent[a], job.regionParent[b]);
                }
            }

        const PipelineResult second = pipeline.run(job, feedback);
        EXPECT_EQ(first.aggregation.regionAggregate, second.aggregation.regionAggregate);
        EXPECT_EQ(recordFates(dataset, first), recordFates(dataset, second));
    }
}

INSTANTIATE_TEST_SUITE_P(AllPartitions, SpatialGuarantee, ::testing::ValuesIn(allVariants()),
                         [](const auto& testInfo)
                         {
                             const SpatialVariant& v = testInfo.param;
                             return testName(v.partitioner + (v.adc ? "_adc" : "") +
                                             (v.parents ? "_parents" : "") +
                                             (v.contiguity ? "_contiguity" : ""));
                         });
