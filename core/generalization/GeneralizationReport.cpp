#include "GeneralizationReport.h"

namespace vbas
{

std::vector<std::string> GeneralizationReport::levelNames() const
{
    std::vector<std::string> names;
    for (std::size_t j = 0; j < levels.size(); ++j)
        names.push_back(hierarchies && (*hierarchies)[j] ? (*hierarchies)[j]->hierarchy.levelName(levels[j])
                                                         : "0");
    return names;
}

} // namespace vbas
