#include "Pareto.h"

namespace vbas
{
namespace
{
bool dominates(const std::vector<double>& a, const std::vector<double>& b)
{
    bool strictlyBetter = false;
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        if (a[i] > b[i])
            return false;
        if (a[i] < b[i])
            strictlyBetter = true;
    }
    return strictlyBetter;
}
} // namespace

std::vector<bool> paretoOptimal(const std::vector<std::vector<double>>& objectives)
{
    std::vector<bool> optimal(objectives.size(), true);
    for (std::size_t i = 0; i < objectives.size(); ++i)
        for (std::size_t j = 0; j < objectives.size() && optimal[i]; ++j)
            if (j != i && dominates(objectives[j], objectives[i]))
                optimal[i] = false;
    return optimal;
}

} // namespace vbas
