#pragma once

// Readers of the rate tests' data files (data/tests, data/README.md): plain CSV without quotes and GAL
// neighbour lists, with the standard library only.

#include <gtest/gtest.h>

#include <cstddef>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ratetest
{

/** A CSV file's columns by header name, every value as text. */
inline std::map<std::string, std::vector<std::string>> readColumns(const std::string& path)
{
    std::ifstream file(path);
    EXPECT_TRUE(file.good()) << "cannot read " << path;
    std::string line;
    std::getline(file, line);
    std::vector<std::string> names;
    {
        std::istringstream header(line);
        for (std::string name; std::getline(header, name, ',');)
            names.push_back(name);
    }
    std::map<std::string, std::vector<std::string>> columns;
    while (std::getline(file, line))
    {
        std::istringstream fields(line);
        std::size_t column = 0;
        for (std::string field; std::getline(fields, field, ',') && column < names.size(); ++column)
            columns[names[column]].push_back(field);
    }
    return columns;
}

inline std::vector<double> numbers(const std::vector<std::string>& texts)
{
    std::vector<double> values;
    for (const std::string& text : texts)
        values.push_back(std::stod(text));
    return values;
}

/**
 * The neighbour lists of a GAL file ("0 N name key", then per region "id count" and a line of neighbour ids)
 * as indices into `ids` (the regions in the order of the data); the ids in the file are `ids` as text.
 */
inline std::vector<std::vector<std::size_t>> readGal(const std::string& path,
                                                     const std::vector<std::string>& ids)
{
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < ids.size(); ++i)
        index[ids[i]] = i;
    std::ifstream file(path);
    EXPECT_TRUE(file.good()) << "cannot read " << path;
    std::string line;
    std::getline(file, line);
    std::vector<std::vector<std::size_t>> neighbours(ids.size());
    std::string id;
    std::size_t count = 0;
    while (file >> id >> count)
    {
        EXPECT_EQ(index.count(id), 1u) << path << ": unknown id " << id;
        for (std::size_t k = 0; k < count; ++k)
        {
            std::string neighbour;
            file >> neighbour;
            EXPECT_EQ(index.count(neighbour), 1u) << path << ": unknown neighbour " << neighbour;
            neighbours[index[id]].push_back(index[neighbour]);
        }
    }
    return neighbours;
}

/** 1, 2, ..., n as text: the ids of a GAL file that numbers its regions in data order. */
inline std::vector<std::string> rowNumbers(std::size_t n)
{
    std::vector<std::string> ids;
    for (std::size_t i = 1; i <= n; ++i)
        ids.push_back(std::to_string(i));
    return ids;
}

} // namespace ratetest
