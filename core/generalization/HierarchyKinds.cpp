#include "HierarchyKinds.h"

#include <map>

namespace vbas
{

const std::vector<HierarchyKind>& hierarchyKinds()
{
    static const std::vector<HierarchyKind> kinds{
        {"interval",
         "interval W1 W2 ... [bottom B] [top T]: numbers in bands of width W1, then W2... (each a "
         "multiple of the one before); values below B read '<B', from T on 'T+'",
         &intervalHierarchy},
        {"date",
         "date week month quarter year (some of them, in this order): dates by ISO week ('2004-W21'), "
         "month ('2004-05'), quarter ('2004-Q2') or year",
         &dateHierarchy},
        {"prefix",
         "prefix L1 L2 ... (decreasing): codes cut to their first L1, then L2... characters ('J45.9' "
         "-> 'J45' -> 'J')",
         &prefixHierarchy},
        {"table", "table: the ARX table (value;level 1;level 2;...) given for the field", &tableHierarchy},
    };
    return kinds;
}

const HierarchyKind* findHierarchyKind(const std::string& id)
{
    for (const HierarchyKind& kind : hierarchyKinds())
        if (id == kind.id)
            return &kind;
    return nullptr;
}

std::string quotedValue(const std::string& text)
{
    return "'" + text + "'";
}

Hierarchy::Level levelOfKeys(std::string name, const std::vector<CategoryValue>& values,
                             const std::vector<std::string>& keys)
{
    Hierarchy::Level level;
    level.name = std::move(name);
    std::map<std::string, std::uint32_t> groupOfKey;
    std::size_t nonNull = 0;
    for (std::size_t c = 0; c < values.size(); ++c)
        if (!values[c].null)
        {
            groupOfKey.emplace(keys[c], 0);
            ++nonNull;
        }
    std::vector<double> members;
    for (auto& [key, group] : groupOfKey)
    {
        group = std::uint32_t(level.labels.size());
        level.labels.push_back(key);
        members.push_back(0.0);
    }
    level.groupOf.resize(values.size());
    for (std::size_t c = 0; c < values.size(); ++c)
        if (!values[c].null)
        {
            level.groupOf[c] = groupOfKey.at(keys[c]);
            members[level.groupOf[c]] += 1.0;
        }
    for (const double m : members)
        level.loss.push_back(nonNull > 1 ? (m - 1.0) / double(nonNull - 1) : 0.0);
    addNullGroup(level, values);
    return level;
}

void addNullGroup(Hierarchy::Level& level, const std::vector<CategoryValue>& values)
{
    level.groupOf.resize(values.size());
    for (std::size_t c = 0; c < values.size(); ++c)
    {
        if (!values[c].null)
            continue;
        if (!level.nullGroup)
        {
            level.nullGroup = std::uint32_t(level.labels.size());
            level.labels.emplace_back();
            level.loss.push_back(0.0);
        }
        level.groupOf[c] = *level.nullGroup;
    }
}

} // namespace vbas
