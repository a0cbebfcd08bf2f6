#pragma once

#include "StrategyOptions.h"
#include "base/Types.h"
#include "data/Dataset.h"
#include "model/Aggregation.h"
#include "rates/AgeBand.h"

#include <algorithm>
#include <string>
#include <vector>

namespace vbas
{

/**
 * People per small area and stratum (age band and sex) as a census publishes them: the population k-map
 * counts (issue 41). The strata need not cover every age: a class is counted in the bands it covers.
 */
struct PopulationTable
{
    /** The small areas, as the dataset's region ids; a region of the dataset left out has no people. */
    std::vector<std::string> areaIds;
    /** The age band of every stratum; empty when the table has no age split (nor then may strataSexes). */
    std::vector<AgeBand> strataAges;
    /** The sex of every stratum as text ("" for a table by age alone); empty when the table has no sex split.
     */
    std::vector<std::string> strataSexes;
    /** People per small area and stratum, area-major: people[area * strata() + stratum]. */
    std::vector<double> people;
    /** The quasi-identifier whose values are ages or age bands; "" when none is. */
    std::string ageField;
    /** The quasi-identifier whose values are the sexes of strataSexes; "" when none is. */
    std::string sexField;

    /** Strata per small area: 1 (a total) when the table is split neither by age nor by sex. */
    std::size_t strata() const { return std::max({strataAges.size(), strataSexes.size(), std::size_t(1)}); }
};

/**
 * k-map, the journalist model (El Emam and Dankar 2008): a case list is a sample of the population, so a
 * released (region, class) identifies no one when at least k people of the population share it, whatever
 * the number of cases. This counts them: the people of every small area in every class of the dataset,
 * summed over the table's strata the class covers (its age band or bands, its sex; NULL and a
 * generalization's
 * "*" cover them all, as a withheld value would). Made once per dataset (a generalized dataset has coarser
 * classes, so more people in each); the suppression, the refinements' ledger and the site-count search read
 * it in place of the records when k_counts is "population".
 */
class ClassPopulation
{
public:
    /**
     * The people of every (small area, class) of `dataset`. Throws Error(Population) naming what to fix when
     * a quasi-identifier is not in `table`, a class's value falls in no stratum or cuts one (exact ages
     * against five-year bands: fewer people share the value than its band holds), the table names an unknown
     * small area, or a small area holding records has no people.
     */
    static ClassPopulation build(const PopulationTable& table, const Dataset& dataset);

    std::size_t classes() const { return mClasses; }
    Count people(RegionIndex r, ClassId cls) const { return mPeople[std::size_t(r) * mClasses + cls]; }
    /** The people of small area r in every class, by class id. */
    const Count* row(RegionIndex r) const { return mPeople.data() + std::size_t(r) * mClasses; }
    /** The people of every class over all small areas. */
    std::vector<Count> totals() const;
    /** Flags every entry of aggregation.histograms whose aggregate holds fewer than k people of its class. */
    std::vector<bool> fewerThan(const Aggregation& aggregation, Count k) const;

private:
    std::size_t mClasses = 0;
    std::vector<Count> mPeople;
};

/** What k counts, chosen by the option k_counts (declared with the suppression, which applies it). */
struct KMap
{
    /** k_counts: "records" (people in the records, k-anonymity) or "population" (k-map). */
    static const OptionSpec& option();
    /** Whether `options` choose k-map. */
    static bool on(const StrategyOptions& options);
    /**
     * The rule every released class meets, for the log and the report: "k-map: every released class has at
     * least 5 people in its region's population", or "every released class holds at least 5 records".
     */
    static std::string describe(Count k, bool kMap);
};

} // namespace vbas
