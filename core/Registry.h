#pragma once

#include "StrategyOptions.h"
#include "base/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace vbas
{

class SiteCounter;
class SiteLocator;
class SiteRefiner;
class BoundaryRefiner;
class Partitioner;
class Suppressor;
class Metric;
class GroupCriterion;

/** What a strategy needs from a front end besides the records and region points. */
struct Needs
{
    /** The region adjacency (from the region polygons) is required. */
    bool adjacency = false;
    /** Obstacles are used when given (others ignore them). */
    bool obstacles = false;
    /** Reads the suppression budget (PipelineConfig::suppressionBudget). */
    bool suppressionBudget = false;
};

/**
 * One registered strategy: a stable id (stored in saved models and scripts: never rename), a
 * display name, a one-line help a user can act on (naming options by their keys, never a front
 * end's parameter), its factory, the options it reads, what it needs and, for refiners, the key
 * of the switch that turns it on (front ends show it as they show option keys).
 */
template <typename Interface> struct StrategyEntry
{
    using Factory = std::unique_ptr<Interface> (*)(const StrategyOptions& options);

    StrategyEntry(std::string id_, std::string name_, std::string help_, Factory create_,
                  std::vector<OptionSpec> options_ = {}, Needs needs_ = {}, std::string switchKey_ = {})
        : id(std::move(id_))
        , name(std::move(name_))
        , help(std::move(help_))
        , create(create_)
        , options(std::move(options_))
        , needs(needs_)
        , switchKey(std::move(switchKey_))
    {
    }

    std::string id;
    std::string name;
    std::string help;
    Factory create;
    std::vector<OptionSpec> options;
    Needs needs;
    std::string switchKey;

    /** Checks `values` against this strategy's options (Error(Option) naming the key), then creates it. */
    std::unique_ptr<Interface> make(const StrategyOptions& values) const
    {
        values.validate(options, id);
        return create(values);
    }
};

/** What a metric's value is, so that front ends show it rounded to what matters. */
enum class MetricUnit
{
    Records, //!< a number of records (or a group's size): whole, exact
    Metres,  //!< a distance: whole metres
    Score,   //!< any other figure: three significant digits
};

/**
 * A registered quality metric: `meaning` is one sentence saying what its value means in practice;
 * `paretoObjective` metrics form the sweep's comparison vector.
 */
struct MetricEntry
{
    std::string id;
    std::string name;
    std::string meaning;
    MetricUnit unit;
    bool paretoObjective;
    std::unique_ptr<Metric> (*create)(const StrategyOptions& options);
};

/**
 * The strategies of every component, in one explicit list (Strategies.cpp) so front ends can
 * offer them by id. Adding a strategy: its file, one line in Strategies.cpp.
 */
class Registry
{
public:
    /** The built-in strategies. */
    static const Registry& builtIn();

    std::vector<StrategyEntry<SiteCounter>> siteCounters;
    std::vector<StrategyEntry<SiteLocator>> siteLocators;
    std::vector<StrategyEntry<SiteRefiner>> siteRefiners;
    std::vector<StrategyEntry<Partitioner>> partitioners;
    std::vector<StrategyEntry<BoundaryRefiner>> boundaryRefiners;
    std::vector<StrategyEntry<Suppressor>> suppressors;
    /** Privacy criteria besides k (l-diversity, t-closeness...): each on when its options say so. */
    std::vector<StrategyEntry<GroupCriterion>> criteria;
    std::vector<MetricEntry> metrics;

    /** The spec of option `key` as the first strategy declaring it has it, or nullptr. */
    const OptionSpec* findOption(const std::string& key) const;
    /** Throws Error(Option) for a key of `values` that no registered strategy declares. */
    void checkKnownOptions(const StrategyOptions& values) const;

    /** Entry with `id`; throws Error(Strategy) naming the known ids when there is none. */
    template <typename Entry>
    static const Entry& find(const std::vector<Entry>& entries, const std::string& id, const char* component)
    {
        std::string known;
        for (const Entry& entry : entries)
        {
            if (entry.id == id)
                return entry;
            known += (known.empty() ? "" : ", ") + entry.id;
        }
        throw Error(Subject::Strategy,
                    "unknown " + std::string(component) + " '" + id + "'; use one of: " + known);
    }
};

} // namespace vbas
