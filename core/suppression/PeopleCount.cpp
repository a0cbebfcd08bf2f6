#include "PeopleCount.h"

#include <algorithm>
#include <utility>

namespace vbas
{

std::vector<Count> peopleOfEntries(const RegionSet& regions, const Aggregation& aggregation,
                                   const std::vector<bool>& withheld, Feedback& feedback)
{
    const Dataset& dataset = regions.dataset();
    if (!dataset.countsPeople())
        return {};
    std::vector<Count> people(aggregation.histograms.allEntries().size(), 0);
    const std::vector<std::size_t> rowEntry = aggregation.releasedEntryOfRows(dataset, withheld);
    feedback.checkCanceled();
    std::vector<std::pair<std::size_t, std::uint32_t>> entryPersons;
    entryPersons.reserve(dataset.rows());
    for (std::size_t row = 0; row < dataset.rows(); ++row)
        if (rowEntry[row] != HistogramTable::kNoEntry)
            entryPersons.emplace_back(rowEntry[row], dataset.rowPerson(row));
    std::sort(entryPersons.begin(), entryPersons.end());
    entryPersons.erase(std::unique(entryPersons.begin(), entryPersons.end()), entryPersons.end());
    for (const auto& [entry, person] : entryPersons)
        ++people[entry];
    return people;
}

std::vector<bool> fewerPeopleThan(const RegionSet& regions, const Aggregation& aggregation,
                                  const std::vector<bool>& withheld, Count k, Feedback& feedback)
{
    std::vector<bool> fewer(aggregation.histograms.allEntries().size(), false);
    const std::vector<Count> people = peopleOfEntries(regions, aggregation, withheld, feedback);
    for (std::size_t e = 0; e < people.size(); ++e)
        fewer[e] = !withheld[e] && people[e] < k;
    return fewer;
}

} // namespace vbas
