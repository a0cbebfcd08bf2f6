#pragma once

#include "base/Types.h"

#include <limits>
#include <vector>

namespace vbas
{

/** An undirected graph with edge lengths, in compressed rows. */
struct WeightedGraph
{
    struct Arc
    {
        std::uint32_t to;
        double length;
    };
    struct Edge
    {
        std::uint32_t a;
        std::uint32_t b;
        double length;
    };

    std::vector<std::size_t> offsets{0};
    std::vector<Arc> arcs;

    std::size_t nodes() const { return offsets.size() - 1; }
    const Arc* begin(std::uint32_t node) const { return arcs.data() + offsets[node]; }
    const Arc* end(std::uint32_t node) const { return arcs.data() + offsets[node + 1]; }

    static WeightedGraph fromEdges(std::size_t nodes, const std::vector<Edge>& edges);
};

/** Where a source enters the graph: a node and the distance from the source to it. */
struct Attachment
{
    std::uint32_t node;
    double distance;
};

/**
 * Multi-source shortest paths under power weights (SPEC section 11): node v goes to the source s
 * with the least d_s(v)² − w_s, d_s the shortest path length from s, ties to the lower site index.
 * Nodes no source reaches have no site.
 *
 * With weights the winner at a node need not win along its whole shortest path, so every node keeps
 * the labels (d, s) that no other label there dominates: label a dominates b when d_a ≤ d_b and
 * (d_a² − w_a, a) < (d_b² − w_b, b). Extending both by an edge of length e adds 2·e·d + e² to the
 * keys, so a dominated label can never win further on and is dropped (a Pareto Dijkstra, exact).
 * With all weights 0 a node keeps one label: the plain nearest-source Dijkstra.
 *
 * moveSource() and reweighSource() repair the field exactly and locally: only the nodes holding a
 * label of the changed source lose it; a label of another source that one of those dominated was
 * dropped there, so those nodes are re-offered their neighbours' labels and the sources attached to
 * them; the source's new labels can only dominate, so an improving Dijkstra from these seeds reaches
 * the same labels as a full solve (GEOMETRY-NOTES d: "a site move repaired locally").
 */
class NearestSourceField
{
public:
    struct Label
    {
        double distance = std::numeric_limits<double>::infinity();
        SiteIndex site = kNoSite;
        /** Where this node sits in the site's list of label holders (bookkeeping). */
        std::uint32_t holderSlot = 0;
    };
    /** A node whose labels changed, with its winning site before and after (kNoSite: none). */
    struct Change
    {
        std::uint32_t node;
        SiteIndex from;
        SiteIndex to;
    };

    /** `weights`: one per source, or empty (all 0). */
    NearestSourceField(const WeightedGraph& graph, std::vector<std::vector<Attachment>> attachments,
                       std::vector<double> weights = {});

    /** The labels of `node` that can still win here or further on (one when weights are 0). */
    const std::vector<Label>& labels(std::uint32_t node) const { return mLabels[node]; }
    /** The winning label of `node`: least d² − w, ties to the lower site; site kNoSite if unreached. */
    Label winner(std::uint32_t node) const;
    /** The power distance d² − w of a path of length d from site s. */
    double power(double distance, SiteIndex s) const { return distance * distance - mWeights[s]; }
    const std::vector<Attachment>& attachments(SiteIndex s) const { return mAttachments[s]; }
    double weight(SiteIndex s) const { return mWeights[s]; }
    std::size_t sources() const { return mAttachments.size(); }

    /** Gives site s new attachments; appends every node whose labels changed to `changes`. */
    void moveSource(SiteIndex s, std::vector<Attachment> attachments, std::vector<Change>& changes);
    /** Gives site s the weight w; appends every node whose labels changed to `changes`. */
    void reweighSource(SiteIndex s, double w, std::vector<Change>& changes);

private:
    struct Entry
    {
        double distance;
        SiteIndex site;
        std::uint32_t node;
        bool operator>(const Entry& other) const
        {
            return distance != other.distance ? distance > other.distance : site > other.site;
        }
    };
    /** Whether label (d_a, a) dominates (d_b, b), see the class comment; a site's own longer path too. */
    bool dominates(double da, SiteIndex a, double db, SiteIndex b) const;
    void replaceSource(SiteIndex s, std::vector<Attachment> attachments, double weight,
                       std::vector<Change>& changes);
    void offer(double distance, SiteIndex site, std::uint32_t node);
    void propagate();
    void touch(std::uint32_t node);
    void dropLabel(std::uint32_t node, std::size_t index);
    void reportChanges(std::vector<Change>* changes);

    const WeightedGraph& mGraph;
    std::vector<std::vector<Attachment>> mAttachments;
    std::vector<double> mWeights;
    /** Sources attached to each node, with their distance. */
    std::vector<std::vector<std::pair<SiteIndex, double>>> mAttachedAt;
    std::vector<std::vector<Label>> mLabels;
    /** Per site: the nodes holding one of its labels. */
    std::vector<std::vector<std::uint32_t>> mHolders;
    std::vector<Entry> mQueue; // binary heap
    std::vector<std::uint32_t> mTouched;
    std::vector<SiteIndex> mWinnerBefore;
    std::vector<bool> mIsTouched;
};

} // namespace vbas
