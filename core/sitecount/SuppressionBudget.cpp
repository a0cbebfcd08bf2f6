#include "SuppressionBudget.h"

#include "SiteCounter.h"

namespace vbas
{

const OptionSpec& suppressionBudgetOption()
{
    static const OptionSpec spec = OptionSpec::number(
        "suppression_budget", "Most records to withhold (% of all records)", 1.0, 0.0, 100.0,
        "The release makes as many regions as it can while withholding at most this share of the records "
        "(records that would stand out in their region, for k or for the variety of sensitive values): 1 "
        "is common. Finer maps withhold more records.");
    return spec;
}

void checkSuppressionBudget(double percent)
{
    if (!(percent > 0.0 && percent <= 100.0))
        throw optionError(suppressionBudgetOption().key,
                          "the suppression budget must be a percentage above 0 and at most 100");
}

Count suppressionBudget(Count records, double percent)
{
    return Count(floorDecimal(static_cast<long double>(records) * percent / 100.0L));
}

} // namespace vbas
