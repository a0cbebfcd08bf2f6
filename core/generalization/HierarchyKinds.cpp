#include "HierarchyKinds.h"

#include <cmath>
#include <cstdlib>
#include <map>

namespace vbas
{

const std::vector<HierarchyKind>& hierarchyKinds()
{
    static const std::vector<HierarchyKind> kinds{
        {"interval",
         "interval W1 W2 ... [bottom B] [top T]: numbers in bands of width W1, then W2... (each a multiple "
         "of the one before) starting at B; the values below B are one band, those from T on another "
         "('90+'); one bottom or top per width codes each level's ends apart (finest first: 'top 85 80 80')",
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
        {kAutomaticKind,
         "auto: numbers in bands of round widths for their range (ages: 5, 10, 20), the lowest and "
         "highest bands widened where the data are sparse until each holds k records ('85+'); the "
         "default for numeric quasi-identifiers",
         nullptr, &automaticIntervals},
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

std::optional<double> numberOf(const CategoryValue& value)
{
    if (value.null)
        return std::nullopt;
    if (value.number)
        return value.number;
    if (value.text.empty())
        return std::nullopt;
    char* end = nullptr;
    const double number = std::strtod(value.text.c_str(), &end);
    if (end == nullptr || *end != '\0' || !std::isfinite(number))
        return std::nullopt;
    return number;
}

bool isEmptyText(const CategoryValue& value)
{
    return !value.null && value.text.empty() && !value.number && !value.day;
}

bool numericValues(const std::vector<CategoryValue>& values)
{
    bool any = false;
    for (const CategoryValue& value : values)
    {
        if (value.null || isEmptyText(value))
            continue;
        const std::string& text = value.text;
        const std::size_t digits = text.find_first_not_of("+-");
        const bool leadingZero = !value.number && digits != std::string::npos && text[digits] == '0' &&
                                 digits + 1 < text.size() && text[digits + 1] != '.';
        if (!numberOf(value) || leadingZero)
            return false;
        any = true;
    }
    return any;
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

void addEmptyTextGroup(Hierarchy::Level& level, const std::vector<CategoryValue>& values)
{
    level.groupOf.resize(values.size());
    std::optional<std::uint32_t> group;
    for (std::size_t c = 0; c < values.size(); ++c)
    {
        if (!isEmptyText(values[c]))
            continue;
        if (!group)
        {
            group = std::uint32_t(level.labels.size());
            level.labels.emplace_back();
            level.loss.push_back(0.0);
        }
        level.groupOf[c] = *group;
    }
}

} // namespace vbas
