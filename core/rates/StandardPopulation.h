#pragma once

#include "AgeBand.h"
#include "StrategyOptions.h"

#include <string>
#include <vector>

namespace vbas
{

/**
 * A standard population for direct age standardization (SPEC section 15): its age groups and their
 * populations, shipped as data/standard-populations/<id>.csv and compiled into the engine (sources and
 * attribution in data/README.md).
 */
struct StandardPopulation
{
    std::string id;     //!< stable: stored in saved models and scripts, never renamed
    std::string name;   //!< as a dialog shows it
    std::string source; //!< one sentence: who publishes it, from what
    std::vector<AgeBand> groups;
    std::vector<double> populations;

    /**
     * Returns the standard population of each of `bands`, summed over the groups the band covers (a band
     * given more than once, as age bands by sex are, shares its population equally). Throws Error(Option
     * "standard_population") naming the band when it starts or ends inside one of this standard's groups,
     * overlaps another band, or covers no group.
     */
    std::vector<double> forBands(const std::vector<AgeBand>& bands) const;
};

/** The standard populations shipped, by stable id: us2000, who2000_2025, esp2013. */
const std::vector<StandardPopulation>& standardPopulations();

/** The standard population `id`; throws Error(Option "standard_population") naming the known ids. */
const StandardPopulation& findStandardPopulation(const std::string& id);

/** The option choosing it ("standard_population", a Choice of the ids, default us2000). */
const OptionSpec& standardPopulationOption();

} // namespace vbas
