#pragma once

#include "Error.h"
#include "StrategyOptions.h"

#include <memory>
#include <string>
#include <vector>

namespace vbas
{

class SiteCounter;
class SiteLocator;
class SiteRefiner;
class Partitioner;
class Suppressor;
class Metric;

/**
 * One registered strategy: a stable id (stored in saved models and scripts: never rename), a
 * display name, a one-line help a user can act on, and its factory.
 */
template <typename Interface> struct StrategyEntry
{
    std::string id;
    std::string name;
    std::string help;
    std::unique_ptr<Interface> (*create)(const StrategyOptions& options);
};

/** A registered quality metric; `paretoObjective` metrics form the sweep's comparison vector. */
struct MetricEntry
{
    std::string id;
    std::string name;
    std::string meaning;
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
    std::vector<StrategyEntry<Suppressor>> suppressors;
    std::vector<MetricEntry> metrics;

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
