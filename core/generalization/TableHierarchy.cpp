#include "HierarchyKinds.h"
#include "base/Error.h"

#include <map>
#include <sstream>

namespace vbas
{
namespace
{
std::string cell(std::string text)
{
    const std::size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos)
        return {};
    text = text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
        text = text.substr(1, text.size() - 2);
    return text;
}
} // namespace

Hierarchy tableHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                         const std::vector<std::string>& arguments, const std::string* table)
{
    const auto fail = [&](const std::string& what)
    {
        return Error(Subject::Generalization, field + ": " + what);
    };
    if (!arguments.empty())
        throw fail("a table hierarchy takes no arguments (its levels are the table's columns)");
    if (table == nullptr)
        throw fail("the table hierarchy needs its table, a file named " + field + ".csv");
    std::string text = *table;
    if (text.rfind("\xEF\xBB\xBF", 0) == 0)
        text.erase(0, 3);
    std::map<std::string, std::vector<std::string>> rows;
    std::size_t columns = 0;
    std::istringstream lines(text);
    std::size_t lineNumber = 0;
    for (std::string line; std::getline(lines, line);)
    {
        ++lineNumber;
        if (cell(line).empty())
            continue;
        std::vector<std::string> cells;
        std::istringstream parts(line);
        for (std::string part; std::getline(parts, part, ';');)
            cells.push_back(cell(part));
        if (!line.empty() && cell(line).back() == ';')
            cells.emplace_back();
        if (cells.size() < 2)
            throw fail("line " + std::to_string(lineNumber) +
                       " of its table has no level; each line is value;level 1;level 2;...");
        if (columns == 0)
            columns = cells.size();
        else if (cells.size() != columns)
            throw fail("line " + std::to_string(lineNumber) + " of its table has " +
                       std::to_string(cells.size()) + " cells, the lines before " + std::to_string(columns) +
                       "; give every value all levels");
        const std::string value = cells.front();
        cells.erase(cells.begin());
        const auto [row, added] = rows.emplace(value, cells);
        if (!added && row->second != cells)
            throw fail(quotedValue(value) + " is listed twice in its table with other levels; list it once");
    }
    if (rows.empty())
        throw fail("its table is empty; give one line per value: value;level 1;level 2;...");

    std::vector<Hierarchy::Level> levels;
    for (std::size_t l = 0; l + 1 < columns; ++l)
    {
        std::vector<std::string> keys;
        for (const CategoryValue& value : values)
        {
            if (value.null)
            {
                keys.emplace_back();
                continue;
            }
            const auto row = rows.find(value.text);
            if (row == rows.end())
                throw fail(quotedValue(value.text) +
                           " is a value of the records but not in its table; add a line "
                           "for it");
            keys.push_back(row->second[l]);
        }
        levels.push_back(levelOfKeys(std::to_string(l + 1), values, keys));
    }
    return Hierarchy(field, values, std::move(levels));
}

} // namespace vbas
