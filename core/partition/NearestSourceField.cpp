#include "NearestSourceField.h"

#include "base/CompressedLists.h"

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
                                       std::vector<std::vector<Attachment>> attachments,
                                       std::vector<double> weights)
    : mGraph(graph)
    , mAttachments(std::move(attachments))
    , mWeights(weights.empty() ? std::vector<double>(mAttachments.size(), 0.0) : std::move(weights))
    , mAttachedAt(graph.nodes())
    , mLabels(graph.nodes())
    , mHolders(mAttachments.size())
    , mWinnerBefore(graph.nodes(), kNoSite)
    , mIsTouched(graph.nodes(), false)
{
    for (SiteIndex s = 0; s < mAttachments.size(); ++s)
        for (const Attachment& a : mAttachments[s])
        {
            mAttachedAt[a.node].emplace_back(s, a.distance);
            offer(a.distance, s, a.node);
        }
    propagate();
    reportChanges(nullptr);
}

NearestSourceField::Label NearestSourceField::winner(std::uint32_t node) const
{
    Label best;
    double bestPower = std::numeric_limits<double>::infinity();
    for (const Label& label : mLabels[node])
    {
        const double p = power(label.distance, label.site);
        if (best.site == kNoSite || p < bestPower || (p == bestPower && label.site < best.site))
        {
            best = label;
            bestPower = p;
        }
    }
    return best;
}

bool NearestSourceField::dominates(double da, SiteIndex a, double db, SiteIndex b) const
{
    if (da > db)
        return false;
    if (a == b)
        return true;
    const double pa = power(da, a), pb = power(db, b);
    return pa < pb || (pa == pb && a < b);
}

void NearestSourceField::touch(std::uint32_t node)
{
    if (mIsTouched[node])
        return;
    mIsTouched[node] = true;
    mTouched.push_back(node);
    mWinnerBefore[node] = winner(node).site;
}

void NearestSourceField::dropLabel(std::uint32_t node, std::size_t index)
{
    std::vector<Label>& labels = mLabels[node];
    const Label dropped = labels[index];
    std::vector<std::uint32_t>& holders = mHolders[dropped.site];
    const std::uint32_t last = holders.back();
    holders[dropped.holderSlot] = last;
    for (Label& label : mLabels[last])
        if (label.site == dropped.site)
            label.holderSlot = dropped.holderSlot;
    holders.pop_back();
    labels[index] = labels.back();
    labels.pop_back();
}

void NearestSourceField::offer(double distance, SiteIndex site, std::uint32_t node)
{
    std::vector<Label>& labels = mLabels[node];
    for (const Label& label : labels)
        if (dominates(label.distance, label.site, distance, site))
            return;
    touch(node);
    for (std::size_t i = labels.size(); i-- > 0;)
        if (dominates(distance, site, labels[i].distance, labels[i].site))
            dropLabel(node, i);
    labels.push_back({distance, site, std::uint32_t(mHolders[site].size())});
    mHolders[site].push_back(node);
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
        const std::vector<Label>& labels = mLabels[entry.node];
        if (std::none_of(labels.begin(), labels.end(),
                         [&](const Label& label)
                         { return label.site == entry.site && label.distance == entry.distance; }))
            continue; // stale
        for (const WeightedGraph::Arc* arc = mGraph.begin(entry.node); arc != mGraph.end(entry.node); ++arc)
            offer(entry.distance + arc->length, entry.site, arc->to);
    }
}

void NearestSourceField::moveSource(SiteIndex s, std::vector<Attachment> attachments,
                                    std::vector<Change>& changes)
{
    replaceSource(s, std::move(attachments), mWeights[s], changes);
}

void NearestSourceField::reweighSource(SiteIndex s, double w, std::vector<Change>& changes)
{
    replaceSource(s, mAttachments[s], w, changes);
}

void NearestSourceField::replaceSource(SiteIndex s, std::vector<Attachment> attachments, double weight,
                                       std::vector<Change>& changes)
{
    for (const Attachment& a : mAttachments[s])
    {
        auto& here = mAttachedAt[a.node];
        here.erase(
            std::find_if(here.begin(), here.end(), [&](const auto& entry) { return entry.first == s; }));
    }
    // Drop every label of s; where one dominated a label of another site, that label was dropped
    // there too, so the holders are re-offered what reaches them from around.
    const std::vector<std::uint32_t> freed = mHolders[s];
    for (std::uint32_t node : freed)
    {
        touch(node);
        const std::vector<Label>& labels = mLabels[node];
        dropLabel(node, std::size_t(std::find_if(labels.begin(), labels.end(),
                                                 [&](const Label& label) { return label.site == s; }) -
                                    labels.begin()));
    }
    mWeights[s] = weight;
    for (std::uint32_t node : freed)
    {
        for (const WeightedGraph::Arc* arc = mGraph.begin(node); arc != mGraph.end(node); ++arc)
            for (const Label& around : mLabels[arc->to])
                offer(around.distance + arc->length, around.site, node);
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
    reportChanges(&changes);
}

void NearestSourceField::reportChanges(std::vector<Change>* changes)
{
    for (std::uint32_t node : mTouched)
    {
        if (changes != nullptr)
            changes->push_back({node, mWinnerBefore[node], winner(node).site});
        mIsTouched[node] = false;
    }
    mTouched.clear();
}

} // namespace vbas
