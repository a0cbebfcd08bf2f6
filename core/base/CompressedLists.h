#pragma once

#include <cstddef>
#include <numeric>
#include <vector>

namespace vbas
{

/**
 * Fills compressed lists (CSR): entries[offsets[l] .. offsets[l + 1]) is list l, in the order its
 * entries were emitted. `forEachEntry(emit)` must call `emit(list, entry)` for every entry, the same
 * way each time: it runs twice, once to count and once to place (a counting sort, linear time).
 * Throws std::out_of_range for a list at or above `lists`.
 */
template <typename Entry, typename ForEachEntry>
void fillCompressedLists(std::size_t lists, ForEachEntry forEachEntry, std::vector<std::size_t>& offsets,
                         std::vector<Entry>& entries)
{
    offsets.assign(lists + 1, 0);
    forEachEntry([&](std::size_t list, const Entry&) { ++offsets.at(list + 1); });
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    entries.resize(offsets[lists]);
    std::vector<std::size_t> cursor(offsets.begin(), offsets.end() - 1);
    forEachEntry([&](std::size_t list, const Entry& entry) { entries[cursor[list]++] = entry; });
}

} // namespace vbas
