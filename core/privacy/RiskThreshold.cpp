#include "RiskThreshold.h"

#include "base/Error.h"

#include <cmath>
#include <sstream>
#include <string>

namespace vbas
{
namespace
{
std::string shown(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}
} // namespace

Count kForRiskThreshold(double threshold)
{
    if (!(threshold > 0.0 && threshold <= 0.5))
        throw Error(Subject::K, "the risk threshold must be above 0 and at most 0.5 (got " +
                                    shown(threshold) +
                                    "): it is the highest re-identification probability allowed, and "
                                    "above 0.5 no group of two or more records could meet it; e.g. 0.2 "
                                    "for groups of at least 5");
    const double inverse = 1.0 / threshold;
    // Beyond 2^53 doubles are no longer whole numbers apart; no data set holds such a k anyway.
    if (inverse > 9007199254740992.0)
        throw Error(Subject::K, "the risk threshold " + shown(threshold) +
                                    " is too small: it asks for more records per group than any data "
                                    "set holds; give a threshold such as 0.05 or 0.2");
    const double nearest = std::round(inverse);
    if (std::abs(inverse - nearest) <= 1e-9 * nearest)
        return Count(nearest);
    return Count(std::ceil(inverse));
}

} // namespace vbas
