#include "NearestSourceField.h"

#include "CompressedLists.h"

#include <algorithm>
#include <functional>

namespace vbas
{

WeightedGraph WeightedGraph::fromEdges(std::size_t nodes, const std::vector<Edge>& edges)
{
    WeightedGraph graph;
    fillCompressedLists(
        nodes,
        [&](auto&& emit)
        {
            for (const Edge& e : edges)
            {
                emit(e.a, Arc{e.b, e.length});
                emit(e.b, Arc{e.a, e.length});
            }
        },
        graph.offsets, graph.arcs);
    return graph;
}

NearestSourceField::NearestSourceField(const WeightedGraph& graph,
                                       std::vector<std::vector<Attachment>> attachments)
    : mGraph(graph)
    , mAttachments(std::move(attachments))
    , mAttachedAt(graph.nodes())
    , mLabels(graph.nodes())
    , mMembers(mAttachments.size())
    , mPosition(graph.nodes(), 0)
    , mSiteBefore(graph.nodes(), kNoSite)
    , mIsTouched(graph.nodes(), false)
{
    for (SiteIndex s = 0; s < mAttachments.size(); ++s)
        for (const Attachment& a : mAttachments[s])
        {
            mAttachedAt[a.node].emplace_back(s, a.distance);
            offer(a.distance, s, a.node);
        }
    propagate();
    for (std::uint32_t node : mTouched)
        mIsTouched[node] = false;
    mTouched.clear();
}

void NearestSourceField::setLabel(std::uint32_t node, double distance, SiteIndex site)
{
    if (!mIsTouched[node])
    {
        mIsTouched[node] = true;
        mTouched.push_back(node);
        mSiteBefore[node] = mLabels[node].site;
    }
    Label& label = mLabels[node];
    if (label.site != site)
    {
        if (label.site != kNoSite)
        {
            std::vector<std::uint32_t>& from = mMembers[label.site];
            const std::uint32_t last = from.back();
            from[mPosition[node]] = last;
            mPosition[last] = mPosition[node];
            from.pop_back();
        }
        if (site != kNoSite)
        {
            mPosition[node] = std::uint32_t(mMembers[site].size());
            mMembers[site].push_back(node);
        }
    }
    label = {distance, site};
}

void NearestSourceField::offer(double distance, SiteIndex site, std::uint32_t node)
{
    if (!better(distance, site, mLabels[node]))
        return;
    setLabel(node, distance, site);
    mQueue.push_back({distance, site, node});
    std::push_heap(mQueue.begin(), mQueue.end(), std::greater<Entry>());
}

void NearestSourceField::propagate()
{
    while (!mQueue.empty())
    {
        std::pop_heap(mQueue.begin(), mQueue.end(), std::greater<Entry>());
        const Entry entry = mQueue.back();
        mQueue.pop_back();
        const Label& label = mLabels[entry.node];
        if (label.distance != entry.distance || label.site != entry.site)
            continue; // stale
        for (const WeightedGraph::Arc* arc = mGraph.begin(entry.node); arc != mGraph.end(entry.node); ++arc)
            offer(entry.distance + arc->length, entry.site, arc->to);
    }
}

void NearestSourceField::moveSource(SiteIndex s, std::vector<Attachment> attachments,
                                    std::vector<Change>& changes)
{
    for (const Attachment& a : mAttachments[s])
    {
        auto& here = mAttachedAt[a.node];
        here.erase(
            std::find_if(here.begin(), here.end(), [&](const auto& entry) { return entry.first == s; }));
    }
    // Free the tree of s: its nodes are re-labelled from their surroundings below.
    const std::vector<std::uint32_t> freed = mMembers[s];
    for (std::uint32_t node : freed)
        setLabel(node, std::numeric_limits<double>::infinity(), kNoSite);
    for (std::uint32_t node : freed)
    {
        for (const WeightedGraph::Arc* arc = mGraph.begin(node); arc != mGraph.end(node); ++arc)
        {
            const Label& around = mLabels[arc->to];
            if (around.site != kNoSite)
                offer(around.distance + arc->length, around.site, node);
        }
        for (const auto& [site, distance] : mAttachedAt[node])
            offer(distance, site, node);
    }
    mAttachments[s] = std::move(attachments);
    for (const Attachment& a : mAttachments[s])
    {
        mAttachedAt[a.node].emplace_back(s, a.distance);
        offer(a.distance, s, a.node);
    }
    propagate();
    for (std::uint32_t node : mTouched)
    {
        changes.push_back({node, mSiteBefore[node], mLabels[node].site});
        mIsTouched[node] = false;
    }
    mTouched.clear();
}

} // namespace vbas
