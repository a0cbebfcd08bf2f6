#pragma once

#include "Types.h"

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
 * Multi-source shortest paths: every node is labelled with its nearest source (site) and the
 * distance, ties to the lower site index (labels compare as (distance, site)). Nodes no source
 * reaches keep kNoSite.
 *
 * moveSource() repairs the field exactly and locally: only the nodes of the moved source's tree
 * lose their label; they are re-seeded from their neighbours in other trees and from sources
 * attached to them, and the new attachments can only lower labels, so an improving Dijkstra from
 * these seeds reaches the same labels as a full solve (GEOMETRY-NOTES d: "a site move repaired
 * locally").
 */
class NearestSourceField
{
public:
    struct Label
    {
        double distance = std::numeric_limits<double>::infinity();
        SiteIndex site = kNoSite;
    };
    struct Change
    {
        std::uint32_t node;
        SiteIndex from;
        SiteIndex to;
    };

    NearestSourceField(const WeightedGraph& graph, std::vector<std::vector<Attachment>> attachments);

    const Label& label(std::uint32_t node) const { return mLabels[node]; }
    const std::vector<Attachment>& attachments(SiteIndex s) const { return mAttachments[s]; }
    std::size_t sources() const { return mAttachments.size(); }

    /**
     * Gives site s new attachments; appends every node whose label changed (its site, or only its
     * distance) to `changes`.
     */

    void moveSource(SiteIndex s, std::vector<Attachment> attachments, std::vector<Change>& changes);

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
    static bool better(double distance, SiteIndex site, const Label& label)
    {
        return distance < label.distance || (distance == label.distance && site < label.site);
    }
    void offer(double distance, SiteIndex site, std::uint32_t node);
    void propagate();
    void setLabel(std::uint32_t node, double distance, SiteIndex site);

    const WeightedGraph& mGraph;
    std::vector<std::vector<Attachment>> mAttachments;
    /** Sources attached to each node, with their distance. */
    std::vector<std::vector<std::pair<SiteIndex, double>>> mAttachedAt;
    std::vector<Label> mLabels;
    std::vector<std::vector<std::uint32_t>> mMembers;
    std::vector<std::uint32_t> mPosition;
    std::vector<Entry> mQueue; // binary heap
    std::vector<std::uint32_t> mTouched;
    std::vector<SiteIndex> mSiteBefore;
    std::vector<bool> mIsTouched;
};

} // namespace vbas
