#include "GeneralizedData.h"

namespace vbas
{

std::vector<std::vector<Count>> categoryRecords(const Dataset& dataset)
{
    const std::vector<Count> totals = dataset.regionHistograms().classTotals(dataset.classes().size());
    std::vector<std::vector<Count>> records(dataset.schema().size());
    for (std::size_t j = 0; j < records.size(); ++j)
        records[j].assign(dataset.schema().categories(j), 0);
    for (ClassId c = 0; c < totals.size(); ++c)
        for (std::size_t j = 0; j < records.size(); ++j)
            records[j].at(dataset.classes().codes(c)[j]) += totals[c];
    return records;
}

Dataset generalizedDataset(const Dataset& dataset, const Hierarchies& hierarchies,
                           const std::vector<std::size_t>& levels)
{
    const std::size_t q = dataset.schema().size();
    std::vector<std::vector<std::uint32_t>> codeMap(q);
    std::vector<std::vector<CategoryValue>> groupValues(q);
    for (std::size_t j = 0; j < q; ++j)
    {
        if (!hierarchies[j] || levels[j] == 0)
            continue;
        const Hierarchy& hierarchy = hierarchies[j]->hierarchy;
        codeMap[j].resize(hierarchy.categories());
        for (std::uint32_t code = 0; code < hierarchy.categories(); ++code)
            codeMap[j][code] = hierarchy.group(levels[j], code);
        for (std::uint32_t group = 0; group < hierarchy.groups(levels[j]); ++group)
            groupValues[j].push_back(
                {hierarchy.isNull(levels[j], group), hierarchy.label(levels[j], group), {}, {}});
    }
    return dataset.generalized(codeMap, groupValues);
}

std::vector<double> classLoss(const Dataset& generalized, const Hierarchies& hierarchies,
                              const std::vector<std::size_t>& levels)
{
    const ClassDictionary& classes = generalized.classes();
    const std::size_t q = generalized.schema().size();
    std::vector<double> loss(classes.size(), 0.0);
    if (q == 0)
        return loss;
    for (ClassId c = 0; c < classes.size(); ++c)
    {
        double sum = 0.0;
        for (std::size_t j = 0; j < q; ++j)
            if (hierarchies[j])
                sum += hierarchies[j]->hierarchy.loss(levels[j], classes.codes(c)[j]);
        loss[c] = sum / double(q);
    }
    return loss;
}

} // namespace vbas
