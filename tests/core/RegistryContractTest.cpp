// Every registry list against its component's contract: the shape of each entry (id, name, help,
// option specs, needs) and its behaviour on a small random data set, so that a new strategy is
// checked the moment its registration line is added.

#include "Pipeline.h"
#include "Registry.h"
#include "SceneSupport.h"
#include "TestSupport.h"
#include "partition/Partitioner.h"
#include "quality/Metric.h"
#include "sitecount/SiteCounter.h"
#include "sitelocation/SiteLocator.h"
#include "suppression/Suppressor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace vbas;
using vbas::test::DatasetBuilder;
using vbas::test::GridScene;
using vbas::test::qi;

namespace
{
const Registry& registry()
{
    return Registry::builtIn();
}

bool isKey(const std::string& key)
{
    return !key.empty() && std::all_of(key.begin(), key.end(),
                                       [](char c)
                                       {
                                           return std::islower(static_cast<unsigned char>(c)) || c == '_' ||
                                                  std::isdigit(static_cast<unsigned char>(c));
                                       });
}

void expectSaneSpec(const OptionSpec& spec, const std::string& id)
{
    SCOPED_TRACE(id + " option " + spec.key);
    EXPECT_TRUE(isKey(spec.key)) << "keys are lower case letters, digits and underscores";
    EXPECT_FALSE(spec.label.empty());
    EXPECT_FALSE(spec.help.empty());
    switch (spec.type)
    {
    case OptionSpec::Type::Choice:
    {
        ASSERT_FALSE(spec.choices.empty());
        EXPECT_EQ(std::set<std::string>(spec.choices.begin(), spec.choices.end()).size(),
                  spec.choices.size());
        EXPECT_NE(std::find(spec.choices.begin(), spec.choices.end(), spec.defaultChoice), spec.choices.end())
            << "default '" << spec.defaultChoice << "' is not a choice";
        for (const std::string& choice : spec.choices)
            EXPECT_TRUE(isKey(choice)) << "choices are stored text: " << choice;
        break;
    }
    case OptionSpec::Type::Flag:
        EXPECT_TRUE(spec.defaultValue == 0.0 || spec.defaultValue == 1.0);
        break;
    case OptionSpec::Type::Integer:
        EXPECT_EQ(spec.defaultValue, std::floor(spec.defaultValue));
        [[fallthrough]];
    case OptionSpec::Type::Number:
        EXPECT_TRUE(std::isfinite(spec.defaultValue));
        EXPECT_LE(spec.minimum, spec.defaultValue);
        EXPECT_GE(spec.maximum, spec.defaultValue);
        EXPECT_TRUE(spec.choices.empty());
        break;
    }
}

/**
 * Options with which `entry` can be created: the defaults, except that an option whose default
 * means "not given" (sitecount.fixed's site_count) must be refused by name, and one above its
 * default must then do.
 */
template <typename Entry> StrategyOptions usableOptions(const Entry& entry)
{
    StrategyOptions options;
    for (std::size_t attempt = 0; attempt <= entry.options.size(); ++attempt)
    {
        try
        {
            EXPECT_TRUE(entry.make(options)) << entry.id;
            return options;
        }
        catch (const Error& error)
        {
            const auto spec = std::find_if(entry.options.begin(), entry.options.end(),
                                           [&](const OptionSpec& s) { return s.key == error.option(); });
            if (spec == entry.options.end() || spec->type == OptionSpec::Type::Choice ||
                options.has(spec->key))
            {
                ADD_FAILURE() << entry.id
                              << " refuses its default options, not by naming one of them: " << error.what();
                return options;
            }
            options.set(spec->key, spec->defaultValue + 1.0);
        }
    }
    return options;
}

/** The shape every entry of every component shares. */
template <typename Entry>
void expectWellFormed(const std::vector<Entry>& entries, const std::string& component)
{
    ASSERT_FALSE(entries.empty()) << component;
    std::set<std::string> ids;
    for (const Entry& entry : entries)
    {
        SCOPED_TRACE(entry.id);
        EXPECT_TRUE(ids.insert(entry.id).second) << "duplicate id";
        EXPECT_EQ(entry.id.rfind(component + ".", 0), 0u) << "ids start with their component";
        EXPECT_TRUE(isKey(entry.id.substr(std::min(entry.id.size(), component.size() + 1))));
        EXPECT_FALSE(entry.name.empty());
        EXPECT_FALSE(entry.help.empty());
        std::set<std::string> keys;
        for (const OptionSpec& spec : entry.options)
        {
            EXPECT_TRUE(keys.insert(spec.key).second) << "option " << spec.key << " declared twice";
            expectSaneSpec(spec, entry.id);
        }
        usableOptions(entry);
    }
}

/** Front ends show one parameter per key, so every strategy declaring a key declares the same spec. */
template <typename Entry>
void collectSpecs(const std::vector<Entry>& entries, std::multimap<std::string, const OptionSpec*>& specs)
{
    for (const Entry& entry : entries)
        for (const OptionSpec& spec : entry.options)
            specs.emplace(spec.key, &spec);
}

template <typename Entry>
void forEachOption(const std::vector<Entry>& entries, std::vector<std::string>& failures)
{
    for (const Entry& entry : entries)
        for (const OptionSpec& spec : entry.options)
        {
            const auto expectRefused = [&](StrategyOptions values, const std::string& what)
            {
                try
                {
                    values.validate(entry.options, entry.id);
                    failures.push_back(entry.id + " accepts " + what + " for " + spec.key);
                }
                catch (const Error& error)
                {
                    if (error.subject() != Subject::Option || error.option() != spec.key ||
                        std::string(error.what()).find(entry.id) == std::string::npos)
                        failures.push_back(entry.id + ": refusing " + what + " for " + spec.key +
                                           " does not name both: " + error.what());
                }
            };
            if (spec.type == OptionSpec::Type::Choice)
            {
                expectRefused(StrategyOptions().set(spec.key, "no_such_choice"), "an unknown choice");
                expectRefused(StrategyOptions().set(spec.key, 1.0), "a number");
                for (const std::string& choice : spec.choices)
                    StrategyOptions().set(spec.key, choice).validate(entry.options, entry.id);
                continue;
            }
            expectRefused(StrategyOptions().set(spec.key, "text"), "a text");
            expectRefused(StrategyOptions().set(spec.key, std::nan("")), "NaN");
            if (std::isfinite(spec.maximum))
                expectRefused(StrategyOptions().set(spec.key, spec.maximum + 1.0), "a value above the range");
            if (std::isfinite(spec.minimum))
                expectRefused(StrategyOptions().set(spec.key, spec.minimum - 1.0), "a value below the range");
            if (spec.type != OptionSpec::Type::Number)
                expectRefused(StrategyOptions().set(spec.key, spec.defaultValue + 0.5), "a fraction");
            StrategyOptions().set(spec.key, spec.defaultValue).validate(entry.options, entry.id);
        }
}

/** A 6 x 5 grid of regions with adjacency and random records over two quasi-identifiers. */
struct SmallCase
{
    GridScene scene;
    Dataset dataset;
    Count k = 3;

    explicit SmallCase(std::uint64_t seed)
        : scene(6, 5, 10.0, seed)
        , dataset(build(scene, seed))
    {
    }

    static Dataset build(const GridScene& scene, std::uint64_t seed)
    {
        std::mt19937_64 generator(seed);
        DatasetBuilder builder({qi("age", 3), qi("sex", 2)});
        for (std::size_t r = 0; r < scene.points.size(); ++r)
            builder.region(std::to_string(r), scene.points[r].x, scene.points[r].y);
        for (int row = 0; row < 240; ++row)
            builder.records(std::to_string(generator() % scene.points.size()),
                            {std::uint32_t(generator() % 3), std::uint32_t(generator() % 2)});
        return builder.build();
    }

    PreparedData prepare() const
    {
        PipelineConfig config;
        config.k = k;
        Job job(dataset);
        job.spatial = scene.spatial;
        Feedback feedback;
        return Pipeline(config).prepare(job, feedback);
    }
};

void expectInside(const std::vector<Point>& sites, const BoundingBox& box)
{
    for (const Point& p : sites)
    {
        EXPECT_GE(p.x, box.minX);
        EXPECT_LE(p.x, box.maxX);
        EXPECT_GE(p.y, box.minY);
        EXPECT_LE(p.y, box.maxY);
    }
}

constexpr std::uint64_t kSeeds[] = {1, 7, 42};
} // namespace

TEST(RegistryContract, EveryEntryIsWellFormed)
{
    expectWellFormed(registry().siteCounters, "sitecount");
    expectWellFormed(registry().siteLocators, "sitelocation");
    expectWellFormed(registry().siteRefiners, "refinement");
    expectWellFormed(registry().partitioners, "partition");
    expectWellFormed(registry().boundaryRefiners, "boundary");
    expectWellFormed(registry().suppressors, "suppression");
    std::set<std::string> ids;
    for (const MetricEntry& entry : registry().metrics)
    {
        SCOPED_TRACE(entry.id);
        EXPECT_TRUE(ids.insert(entry.id).second);
        EXPECT_EQ(entry.id.rfind("quality.", 0), 0u);
        EXPECT_FALSE(entry.name.empty());
        EXPECT_FALSE(entry.meaning.empty());
        EXPECT_TRUE(entry.create(StrategyOptions{}));
    }
}

TEST(RegistryContract, EveryRefinerHasItsOwnSwitchKey)
{
    std::set<std::string> keys;
    const auto expectOwnKeys = [&keys](const auto& entries)
    {
        for (const auto& entry : entries)
        {
            EXPECT_TRUE(isKey(entry.switchKey)) << entry.id;
            EXPECT_TRUE(keys.insert(entry.switchKey).second) << entry.id;
            EXPECT_EQ(registry().findOption(entry.switchKey), nullptr) << "a switch key is no option key";
        }
    };
    expectOwnKeys(registry().siteRefiners);
    expectOwnKeys(registry().boundaryRefiners);
    for (const auto& entry : registry().siteLocators)
        EXPECT_TRUE(entry.switchKey.empty()) << entry.id;
}

TEST(RegistryContract, AKeySharedByStrategiesHasOneSpec)
{
    std::multimap<std::string, const OptionSpec*> specs;
    collectSpecs(registry().siteCounters, specs);
    collectSpecs(registry().siteLocators, specs);
    collectSpecs(registry().siteRefiners, specs);
    collectSpecs(registry().partitioners, specs);
    collectSpecs(registry().boundaryRefiners, specs);
    collectSpecs(registry().suppressors, specs);
    ASSERT_FALSE(specs.empty());
    for (const auto& [key, spec] : specs)
    {
        const OptionSpec& first = *specs.find(key)->second;
        EXPECT_EQ(spec->type, first.type) << key;
        EXPECT_EQ(spec->label, first.label) << key;
        EXPECT_EQ(spec->defaultValue, first.defaultValue) << key;
        EXPECT_EQ(spec->minimum, first.minimum) << key;
        EXPECT_EQ(spec->maximum, first.maximum) << key;
        EXPECT_EQ(spec->choices, first.choices) << key;
        EXPECT_EQ(spec->defaultChoice, first.defaultChoice) << key;
        EXPECT_EQ(spec->advanced, first.advanced) << key;
        EXPECT_EQ(registry().findOption(key)->key, key);
    }
}

TEST(RegistryContract, OutOfRangeAndUnknownValuesAreRefusedNamingTheKeyAndStrategy)
{
    std::vector<std::string> failures;
    forEachOption(registry().siteCounters, failures);
    forEachOption(registry().siteLocators, failures);
    forEachOption(registry().siteRefiners, failures);
    forEachOption(registry().partitioners, failures);
    forEachOption(registry().boundaryRefiners, failures);
    forEachOption(registry().suppressors, failures);
    for (const std::string& failure : failures)
        ADD_FAILURE() << failure;
}

TEST(RegistryContract, PipelineRefusesUnknownKeysAndBadValuesOfTheChosenStrategies)
{
    PipelineConfig config;
    config.options.set("no_such_option", 1.0);
    try
    {
        Pipeline{config};
        ADD_FAILURE() << "an unknown option key was accepted";
    }
    catch (const Error& error)
    {
        EXPECT_EQ(error.option(), "no_such_option");
    }
    // Every option of every strategy, out of its range while that strategy is chosen.
    const auto refused = [](PipelineConfig bad, const std::string& key)
    {
        try
        {
            Pipeline{bad};
        }
        catch (const Error& error)
        {
            return error.subject() == Subject::Option && error.option() == key;
        }
        return false;
    };
    for (const auto& entry : registry().siteCounters)
        for (const OptionSpec& spec : entry.options)
        {
            PipelineConfig bad;
            bad.siteCounter = entry.id;
            bad.options = usableOptions(entry);
            if (spec.type == OptionSpec::Type::Choice)
                bad.options.set(spec.key, "no_such_choice");
            else
                bad.options.set(spec.key, std::nan(""));
            EXPECT_TRUE(refused(bad, spec.key)) << entry.id << " " << spec.key;
        }
    for (const auto& entry : registry().siteRefiners)
        for (const OptionSpec& spec : entry.options)
        {
            PipelineConfig bad;
            bad.siteRefiner = entry.id;
            bad.options.set(spec.key,
                            spec.type == OptionSpec::Type::Choice ? std::string("x") : std::string());
            EXPECT_TRUE(refused(bad, spec.key)) << entry.id << " " << spec.key;
        }
    for (const auto& entry : registry().boundaryRefiners)
        for (const OptionSpec& spec : entry.options)
        {
            PipelineConfig bad;
            bad.boundaryRefiner = entry.id;
            bad.options.set(spec.key, std::nan(""));
            EXPECT_TRUE(refused(bad, spec.key)) << entry.id << " " << spec.key;
        }
}

TEST(RegistryContract, RequiredOptionsAreNamedInTheMessage)
{
    PipelineConfig config;
    config.siteCounter = "sitecount.fixed";
    try
    {
        Pipeline{config};
        FAIL() << "sitecount.fixed without a site count was accepted";
    }
    catch (const Error& error)
    {
        EXPECT_EQ(error.option(), "site_count");
        EXPECT_EQ(error.detail(), "sitecount.fixed needs the number of sites; set it to 1 or more");
    }
    config.siteCounter = "sitecount.gaps_entropy";
    config.options.set("gaps_model", "custom").set("gaps_c", 0.0);
    try
    {
        Pipeline{config};
        FAIL() << "the custom GAPS model with c = 0 was accepted";
    }
    catch (const Error& error)
    {
        EXPECT_EQ(error.option(), "gaps_c");
    }
}

TEST(RegistryContract, SiteCountersGiveAtLeastOneSiteOnceClampedAndRepeat)
{
    for (const std::uint64_t seed : kSeeds)
    {
        const SmallCase small(seed);
        const PreparedData data = small.prepare();
        for (const auto& entry : registry().siteCounters)
        {
            SCOPED_TRACE(entry.id);
            Feedback feedback;
            // Through a pipeline, which lets counters that search the release probe it.
            PipelineConfig config;
            config.siteCounter = entry.id;
            config.options = usableOptions(entry);
            const Pipeline pipeline(config);
            std::uint64_t raw = 0, again = 0;
            const std::uint64_t clamped = pipeline.estimateSiteCount(data, feedback, &raw);
            EXPECT_EQ(pipeline.estimateSiteCount(data, feedback, &again), clamped);
            EXPECT_EQ(again, raw);
            EXPECT_EQ(clampSiteCount(raw, data.regions), clamped);
            EXPECT_GE(clamped, 1u);
            EXPECT_LE(clamped, data.regions.nonEmptyCount());
        }
    }
}

TEST(RegistryContract, SiteLocatorsPlaceTheRequestedSitesInsideTheBoundingBox)
{
    for (const std::uint64_t seed : kSeeds)
    {
        const SmallCase small(seed);
        const PreparedData data = small.prepare();
        const BoundingBox box = boundingBox(data.regions.points());
        for (const auto& entry : registry().siteLocators)
            for (const std::size_t count : {std::size_t(1), std::size_t(4), std::size_t(9)})
            {
                SCOPED_TRACE(entry.id + " asked for " + std::to_string(count));
                const auto locator = entry.make(usableOptions(entry));
                Feedback feedback;
                const std::vector<Point> sites = locator->locate(data.regions, count, feedback);
                EXPECT_EQ(sites.size(), count);
                expectInside(sites, box);
                const std::vector<Point> again = locator->locate(data.regions, count, feedback);
                ASSERT_EQ(again.size(), sites.size());
                for (std::size_t i = 0; i < sites.size(); ++i)
                    EXPECT_TRUE(again[i].x == sites[i].x && again[i].y == sites[i].y) << "not deterministic";
            }
    }
}

TEST(RegistryContract, RefinersKeepDistinctSitesInsideTheBoxForEveryPartitioner)
{
    for (const std::uint64_t seed : kSeeds)
    {
        const SmallCase small(seed);
        const PreparedData data = small.prepare();
        const BoundingBox box = boundingBox(data.regions.points());
        Feedback feedback;
        const std::vector<Point> seeds =
            registry().siteLocators.front().make(StrategyOptions{})->locate(data.regions, 6, feedback);
        for (const auto& refinerEntry : registry().siteRefiners)
            for (const auto& partitionerEntry : registry().partitioners)
            {
                SCOPED_TRACE(refinerEntry.id + " with " + partitionerEntry.id);
                const auto refiner = refinerEntry.make(usableOptions(refinerEntry));
                const auto partitioner = partitionerEntry.make(usableOptions(partitionerEntry));
                RefinementReport report;
                const Sites refined = refiner->refine(data.regions, data.partitionInput(), data.k,
                                                      *partitioner, seeds, report, feedback);
                const std::vector<Point>& sites = refined.points;
                EXPECT_TRUE(refined.weights.empty() || refined.weights.size() == sites.size())
                    << "weights, when given, one per site";
                EXPECT_EQ(sites.size(), seeds.size()) << "distinct seeds keep their number";
                expectInside(sites, box);
                std::set<std::pair<double, double>> distinct;
                for (const Point& p : sites)
                    distinct.insert({p.x, p.y});
                EXPECT_EQ(distinct.size(), sites.size());
                EXPECT_LE(report.movesAccepted, report.movesTried);
                EXPECT_FALSE(report.stopReason.empty());
                RefinementReport again;
                const Sites repeatedSites = refiner->refine(data.regions, data.partitionInput(), data.k,
                                                            *partitioner, seeds, again, feedback);
                const std::vector<Point>& repeated = repeatedSites.points;
                EXPECT_EQ(repeatedSites.weights, refined.weights) << "not deterministic";
                ASSERT_EQ(repeated.size(), sites.size());
                for (std::size_t i = 0; i < sites.size(); ++i)
                    EXPECT_TRUE(repeated[i].x == sites[i].x && repeated[i].y == sites[i].y)
                        << "not deterministic";
            }
    }
}

TEST(RegistryContract, PartitionersAssignEveryRegionToAValidSite)
{
    for (const std::uint64_t seed : kSeeds)
    {
        const GridScene scene(6, 5, 10.0, seed);
        std::mt19937_64 generator(seed);
        std::vector<Point> sites;
        for (int s = 0; s < 5; ++s)
            sites.push_back(scene.points[generator() % scene.points.size()]);
        for (const auto& entry : registry().partitioners)
        {
            SCOPED_TRACE(entry.id);
            const auto partitioner = entry.make(usableOptions(entry));
            Feedback feedback;
            const Partition partition = partitioner->partition(scene.input(), sites, feedback);
            ASSERT_EQ(partition.regionSite.size(), scene.points.size());
            for (const SiteIndex site : partition.regionSite)
                EXPECT_LT(site, partition.sites.size());
            EXPECT_EQ(partitioner->partition(scene.input(), sites, feedback).regionSite,
                      partition.regionSite);
        }
    }
}

TEST(RegistryContract, PartitionersThatNeedAdjacencyDeclareIt)
{
    // Without adjacency, a partitioner either works or has declared that it needs it.
    const GridScene scene(4, 3, 10.0, 5);
    PartitionInput input = scene.input();
    input.spatial.adjacency.reset();
    for (const auto& entry : registry().partitioners)
    {
        Feedback feedback;
        try
        {
            entry.make(usableOptions(entry))
                ->partition(input, std::vector<Point>{scene.points[0], scene.points[5]}, feedback);
        }
        catch (const Error&)
        {
            EXPECT_TRUE(entry.needs.adjacency) << entry.id << " needs adjacency but does not declare it";
        }
    }
}

TEST(RegistryContract, SuppressorsMeetTheSuppressorContract)
{
    for (const std::uint64_t seed : kSeeds)
    {
        const SmallCase small(seed);
        const HistogramTable& groups = small.dataset.regionHistograms();
        for (const auto& entry : registry().suppressors)
            for (const Count k : {Count(2), Count(3), Count(6)})
            {
                SCOPED_TRACE(entry.id + " k = " + std::to_string(k));
                const auto suppressor = entry.make(usableOptions(entry));
                Feedback feedback;
                const std::vector<bool> flags = suppressor->suppress(groups, k, feedback);
                ASSERT_EQ(flags.size(), groups.allEntries().size()) << "one flag per entry";
                for (std::size_t e = 0; e < flags.size(); ++e)
                {
                    if (!flags[e])
                    {
                        EXPECT_GE(groups.allEntries()[e].count, k) << "entry " << e << " released below k";
                    }
                }
                EXPECT_EQ(suppressor->suppress(groups, k, feedback), flags) << "not deterministic";
            }
    }
}

TEST(RegistryContract, MetricsAreFiniteAndMatchTheResult)
{
    for (const std::uint64_t seed : kSeeds)
    {
        const SmallCase small(seed);
        PipelineConfig config;
        config.k = small.k;
        Job job(small.dataset);
        job.spatial = small.scene.spatial;
        const Pipeline pipeline(config);
        Feedback feedback;
        const PreparedData data = pipeline.prepare(job, feedback);
        const PipelineResult result = pipeline.run(job, feedback);
        const RatingInput input{data.regions, result.partition, result.aggregation, result.suppression,
                                data.k};
        for (const MetricEntry& entry : registry().metrics)
        {
            SCOPED_TRACE(entry.id);
            const double value = entry.create(StrategyOptions{})->compute(input);
            EXPECT_TRUE(std::isfinite(value));
            EXPECT_EQ(value, entry.create(StrategyOptions{})->compute(input));
            EXPECT_DOUBLE_EQ(value, result.metric(entry.id));
        }
    }
}
