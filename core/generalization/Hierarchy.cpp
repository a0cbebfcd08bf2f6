#include "Hierarchy.h"

#include "HierarchyKinds.h"
#include "base/Error.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace vbas
{
namespace
{
Error generalizationError(const std::string& message)
{
    return Error(Subject::Generalization, message);
}

std::string trimmed(const std::string& text)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::string kindIds()
{
    std::string ids;
    for (const HierarchyKind& kind : hierarchyKinds())
        ids += (ids.empty() ? "" : ", ") + std::string(kind.id);
    return ids;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const std::string& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}
} // namespace

Hierarchy::Hierarchy(std::string quasiIdentifier, const std::vector<CategoryValue>& values,
                     std::vector<Level> levels)
    : mQuasiIdentifier(std::move(quasiIdentifier))
    , mLevels(std::move(levels))
{
    for (const CategoryValue& value : values)
    {
        mLevel0Labels.push_back(value.text);
        mLevel0Null.push_back(value.null);
    }
    const std::size_t n = values.size();
    for (const Level& level : mLevels)
    {
        if (level.groupOf.size() != n || level.labels.size() != level.loss.size())
            throw generalizationError(mQuasiIdentifier + ": level " + level.name +
                                      " does not cover its values");
        for (const std::uint32_t group : level.groupOf)
            if (group >= level.labels.size())
                throw generalizationError(mQuasiIdentifier + ": level " + level.name +
                                          " names a group it lacks");
    }
    // Values equal at one level must stay equal at the next.
    for (std::size_t l = 0; l + 1 < mLevels.size(); ++l)
    {
        const Level& finer = mLevels[l];
        const Level& coarser = mLevels[l + 1];
        std::vector<std::uint32_t> next(finer.labels.size(), std::uint32_t(-1));
        std::vector<std::size_t> example(finer.labels.size(), 0);
        for (std::size_t c = 0; c < n; ++c)
        {
            const std::uint32_t group = finer.groupOf[c];
            if (next[group] == std::uint32_t(-1))
            {
                next[group] = coarser.groupOf[c];
                example[group] = c;
            }
            else if (next[group] != coarser.groupOf[c])
                throw generalizationError(
                    mQuasiIdentifier +
                    ": the levels do not nest: " + quotedValue(mLevel0Labels[example[group]]) + " and " +
                    quotedValue(mLevel0Labels[c]) + " share " + quotedValue(finer.labels[group]) +
                    " at level " + finer.name + " but not at level " + coarser.name + " (" +
                    quotedValue(coarser.labels[coarser.groupOf[example[group]]]) + ", " +
                    quotedValue(coarser.labels[coarser.groupOf[c]]) +
                    "); every group of a level must lie within one group of the next");
        }
    }
    if (mLevels.empty() || mLevels.back().labels.size() > 1)
    {
        Level all;
        all.name = "*";
        all.groupOf.assign(n, 0);
        all.labels = {"*"};
        all.loss = {1.0};
        mLevels.push_back(std::move(all));
    }
}

std::string Hierarchy::levelName(std::size_t level) const
{
    return level == 0 ? "0" : mLevels.at(level - 1).name;
}

std::size_t Hierarchy::levelNamed(const std::string& name) const
{
    for (std::size_t l = 0; l < mLevels.size(); ++l)
        if (mLevels[l].name == name)
            return l + 1;
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos && name.size() < 6 &&
        std::stoul(name) < levels())
        return std::stoul(name);
    std::vector<std::string> names;
    for (std::size_t l = 0; l < levels(); ++l)
        names.push_back(levelName(l));
    throw generalizationError(mQuasiIdentifier + ": no level " + quotedValue(name) + "; its levels are " +
                              joined(names) + " (0: the values as they are)");
}

std::size_t Hierarchy::removalLevel() const
{
    for (std::size_t level = 1; level + 1 < levels(); ++level)
    {
        std::optional<std::uint32_t> shared;
        bool one = true;
        for (std::uint32_t c = 0; c < categories() && one; ++c)
        {
            if (mLevel0Null[c] || mLevel0Labels[c].empty())
                continue;
            const std::uint32_t g = group(level, c);
            one = !shared || *shared == g;
            shared = g;
        }
        if (one)
            return level;
    }
    return levels() - 1;
}

std::size_t Hierarchy::groups(std::size_t level) const
{
    return level == 0 ? mLevel0Labels.size() : mLevels.at(level - 1).labels.size();
}

std::uint32_t Hierarchy::group(std::size_t level, std::uint32_t category) const
{
    return level == 0 ? category : mLevels[level - 1].groupOf[category];
}

const std::string& Hierarchy::label(std::size_t level, std::uint32_t group) const
{
    return level == 0 ? mLevel0Labels.at(group) : mLevels.at(level - 1).labels.at(group);
}

bool Hierarchy::isNull(std::size_t level, std::uint32_t group) const
{
    if (level == 0)
        return mLevel0Null.at(group);
    const std::optional<std::uint32_t>& nullGroup = mLevels.at(level - 1).nullGroup;
    return nullGroup && *nullGroup == group;
}

double Hierarchy::loss(std::size_t level, std::uint32_t group) const
{
    return level == 0 ? 0.0 : mLevels[level - 1].loss[group];
}

std::string QuasiIdentifierHierarchy::describeLevel(std::size_t level) const
{
    const std::string name = hierarchy.levelName(level);
    if (level == 0)
        return "as it is";
    if (name == "*")
        return "not released (all '*')";
    // Each kind's level names ("10", "month", "3", "2") in a sentence on the field.
    if (spec.kind == "interval")
        return "in bands of " + name;
    if (spec.kind == "date")
        return "by " + (name == "week" ? std::string("ISO week") : name);
    if (spec.kind == "prefix")
        return "cut to its first " + (name == "1" ? std::string("character") : name + " characters");
    if (spec.kind == "table")
        return "at level " + name + " of its table";
    return "at level " + name;
}

std::string HierarchySpec::text() const
{
    std::string text = field + ": " + kind;
    for (const std::string& argument : arguments)
        text += " " + argument;
    return maxLevel.empty() ? text : text + " max " + maxLevel;
}

std::vector<HierarchySpec> parseGeneralization(const std::string& text)
{
    std::vector<HierarchySpec> specs;
    std::set<std::string> fields;
    std::string part;
    std::istringstream parts(text);
    std::vector<std::string> pieces;
    for (std::string line; std::getline(parts, line);)
    {
        std::istringstream inLine(line);
        while (std::getline(inLine, part, ';'))
            pieces.push_back(trimmed(part));
    }
    for (const std::string& piece : pieces)
    {
        if (piece.empty())
            continue;
        const std::size_t colon = piece.find(':');
        if (colon == std::string::npos)
            throw generalizationError(
                quotedValue(piece) +
                " has no ':'; write one quasi-identifier per part, as 'age: interval 5 10'");
        HierarchySpec spec;
        spec.field = trimmed(piece.substr(0, colon));
        if (spec.field.empty())
            throw generalizationError(quotedValue(piece) + " names no field before ':'");
        std::istringstream words(piece.substr(colon + 1));
        std::vector<std::string> tokens;
        for (std::string word; words >> word;)
            tokens.push_back(word);
        if (tokens.empty())
            throw generalizationError(spec.field + ": no kind of hierarchy; use one of " + kindIds());
        spec.kind = tokens.front();
        if (spec.kind != HierarchySpec::kNone && findHierarchyKind(spec.kind) == nullptr)
            throw generalizationError(spec.field + ": " + quotedValue(spec.kind) +
                                      " is no kind of hierarchy; use one of " + kindIds() + ", or " +
                                      HierarchySpec::kNone + " to keep its values as they are");
        tokens.erase(tokens.begin());
        if (spec.kind == HierarchySpec::kNone && !tokens.empty())
            throw generalizationError(spec.field +
                                      ": 'none' keeps the values as they are and takes nothing "
                                      "after it; write '" +
                                      spec.field + ": none'");
        const auto max = std::find(tokens.begin(), tokens.end(), "max");
        if (max != tokens.end())
        {
            if (max + 2 != tokens.end())
                throw generalizationError(spec.field + ": 'max' takes one level and ends the part, as in "
                                                       "'age: interval 5 10 max 10'");
            spec.maxLevel = tokens.back();
            tokens.erase(max, tokens.end());
        }
        spec.arguments = tokens;
        if (!fields.insert(spec.field).second)
            throw generalizationError(spec.field + " has two hierarchies; give one per field");
        specs.push_back(std::move(spec));
    }
    return specs;
}

Hierarchies buildHierarchies(const std::vector<HierarchySpec>& specs,
                             const std::map<std::string, std::string>& tables,
                             const std::vector<std::string>& quasiIdentifiers,
                             const std::vector<std::vector<CategoryValue>>& values,
                             const AutomaticBanding& automatic)
{
    std::vector<HierarchySpec> all = specs;
    const auto specOf = [&all](const std::string& field)
    {
        return std::find_if(all.begin(), all.end(), [&](const HierarchySpec& s) { return s.field == field; });
    };
    for (const auto& [field, table] : tables)
    {
        const auto spec = specOf(field);
        if (spec == all.end())
            all.push_back({field, "table", {}, {}});
        else if (spec->kind != "table")
            throw generalizationError(field + " has a table and the hierarchy '" + spec->kind +
                                      "'; give one of them");
    }
    if (automatic.byDefault)
        for (std::size_t j = 0; j < quasiIdentifiers.size(); ++j)
            if (specOf(quasiIdentifiers[j]) == all.end() && numericValues(values.at(j)))
                all.push_back({quasiIdentifiers[j], kAutomaticKind, {}, {}});
    Hierarchies hierarchies(quasiIdentifiers.size());
    const std::vector<Count> noRecords;
    for (const HierarchySpec& spec : all)
    {
        const auto found = std::find(quasiIdentifiers.begin(), quasiIdentifiers.end(), spec.field);
        if (found == quasiIdentifiers.end())
            throw generalizationError(
                spec.field +
                " is not a quasi-identifier; hierarchies are for the "
                "quasi-identifiers: " +
                (quasiIdentifiers.empty() ? std::string("(none)") : joined(quasiIdentifiers)));
        if (spec.kind == HierarchySpec::kNone)
            continue;
        const std::size_t j = std::size_t(found - quasiIdentifiers.begin());
        const auto table = tables.find(spec.field);
        if (spec.kind == "table" && table == tables.end())
            throw generalizationError(spec.field + ": the table hierarchy needs its table, a file named " +
                                      spec.field + ".csv (value;level 1;level 2;...)");
        const HierarchyKind* kind = findHierarchyKind(spec.kind);
        HierarchySpec built = spec;
        if (kind->resolve != nullptr)
        {
            built =
                kind->resolve(spec, values.at(j),
                              j < automatic.records.size() ? automatic.records[j] : noRecords, automatic.k);
            if (built.kind == HierarchySpec::kNone)
                continue;
            kind = findHierarchyKind(built.kind);
        }
        Hierarchy hierarchy = kind->build(built.field, values.at(j), built.arguments,
                                          table == tables.end() ? nullptr : &table->second);
        const std::size_t maxLevel =
            spec.maxLevel.empty() ? hierarchy.removalLevel() - 1 : hierarchy.levelNamed(spec.maxLevel);
        built.maxLevel = hierarchy.levelName(maxLevel);
        const bool automaticKind = spec.kind == kAutomaticKind;
        hierarchies[j] =
            QuasiIdentifierHierarchy{std::move(hierarchy), maxLevel, std::move(built), automaticKind};
    }
    return hierarchies;
}

bool generalizes(const Hierarchies& hierarchies)
{
    return std::any_of(hierarchies.begin(), hierarchies.end(), [](const auto& qi) { return qi.has_value(); });
}

Generalization Generalization::parse(const std::string& text, std::map<std::string, std::string> tables,
                                     bool bandNumbers)
{
    return {parseGeneralization(text), std::move(tables), bandNumbers};
}

std::string Generalization::text() const
{
    std::string text;
    for (const HierarchySpec& spec : specs)
        text += (text.empty() ? "" : "; ") + spec.text();
    return text;
}

Generalization Generalization::builtAs(const Hierarchies& hierarchies) const
{
    Generalization built;
    for (const auto& qi : hierarchies)
        if (qi)
        {
            built.specs.push_back(qi->spec);
            if (const auto table = tables.find(qi->spec.field); table != tables.end())
                built.tables.insert(*table);
        }
    return built;
}

} // namespace vbas
