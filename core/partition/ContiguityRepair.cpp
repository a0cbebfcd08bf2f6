#include "ContiguityRepair.h"

#include <algorithm>
#include <map>

namespace vbas
{
namespace
{
/** Pieces: connected components of the regions of each site, over same-site adjacency. */
std::vector<std::vector<RegionIndex>> piecesOf(const RegionAdjacency& adjacency,
                                               const std::vector<SiteIndex>& regionSite)
{
    const std::size_t n = regionSite.size();
    std::vector<std::uint32_t> piece(n, std::uint32_t(-1));
    std::vector<std::vector<RegionIndex>> pieces;
    std::vector<RegionIndex> stack;
    for (RegionIndex start = 0; start < n; ++start)
    {
        if (piece[start] != std::uint32_t(-1))
            continue;
        pieces.emplace_back();
        piece[start] = std::uint32_t(pieces.size() - 1);
        stack.assign(1, start);
        while (!stack.empty())
        {
            const RegionIndex r = stack.back();
            stack.pop_back();
            pieces.back().push_back(r);
            for (auto it = adjacency.neighboursBegin(r); it != adjacency.neighboursEnd(r); ++it)
                if (regionSite[it->region] == regionSite[r] && piece[it->region] == std::uint32_t(-1))
                {
                    piece[it->region] = piece[start];
                    stack.push_back(it->region);
                }
        }
    }
    return pieces;
}
} // namespace

ContiguityReport repairContiguity(const RegionAdjacency& adjacency, const std::vector<Count>& weights,
                                  const std::vector<std::uint32_t>& regionParent,
                                  std::vector<SiteIndex>& regionSite)
{
    ContiguityReport report;
    bool first = true;
    for (std::size_t round = 0; round < regionSite.size() + 1; ++round)
    {
        std::vector<std::vector<RegionIndex>> pieces = piecesOf(adjacency, regionSite);
        // The main piece of each site: most records, then most regions, then lowest region.
        std::map<SiteIndex, std::size_t> main;
        std::vector<Count> records(pieces.size(), 0);
        for (std::size_t p = 0; p < pieces.size(); ++p)
        {
            for (RegionIndex r : pieces[p])
                records[p] += weights[r];
            const SiteIndex site = regionSite[pieces[p].front()];
            const auto found = main.find(site);
            const auto beats = [&](std::size_t a, std::size_t b)
            {
                if (records[a] != records[b])
                    return records[a] > records[b];
                if (pieces[a].size() != pieces[b].size())
                    return pieces[a].size() > pieces[b].size();
                return *std::min_element(pieces[a].begin(), pieces[a].end()) <
                       *std::min_element(pieces[b].begin(), pieces[b].end());
            };
            if (found == main.end() || beats(p, found->second))
                main[site] = p;
        }
        std::size_t moved = 0, islands = 0, stranded = 0;
        for (std::size_t p = 0; p < pieces.size(); ++p)
        {
            const SiteIndex site = regionSite[pieces[p].front()];
            if (main[site] == p)
                continue;
            ++stranded;
            std::map<SiteIndex, double> border;
            for (RegionIndex r : pieces[p])
                for (auto it = adjacency.neighboursBegin(r); it != adjacency.neighboursEnd(r); ++it)
                {
                    const SiteIndex other = regionSite[it->region];
                    const bool sameParent =
                        regionParent.empty() || regionParent[it->region] == regionParent[r];
                    if (other != site && sameParent)
                        border[other] += adjacency.pairs()[it->pair].sharedLength;
                }
            if (border.empty())
            {
                ++islands;
                continue;
            }
            const auto target = std::max_element(border.begin(), border.end(),
                                                 [](const auto& a, const auto& b) {
                                                     return a.second < b.second ||
                                                            (a.second == b.second && a.first > b.first);
                                                 });
            for (RegionIndex r : pieces[p])
                regionSite[r] = target->first;
            moved += pieces[p].size();
        }
        if (first)
        {
            report.strandedPieces = stranded;
            first = false;
        }
        report.regionsMoved += moved;
        report.islandPieces = islands;
        if (moved == 0)
            break;
    }
    return report;
}

} // namespace vbas
