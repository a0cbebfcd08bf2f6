#pragma once

#include "RegionGeometries.h"
#include "base/Feedback.h"

#include <cstdint>
#include <vector>

namespace vbas
{

/** Why a site has no cell in the study area: no point of the area is nearer to it than to every other site.
 */
enum class NoCell : std::uint8_t
{
    SameLocation, //!< another site stands at its location and holds the cell
    Hidden,       //!< power weights: every point is nearer (by power) to another site, so its cell is empty
    OutsideArea,  //!< its cell lies outside the study area (or only touches its border)
};

/** A site without a cell in the study area, and why. */
struct SiteWithoutCell
{
    SiteIndex site = 0;
    NoCell reason = NoCell::OutsideArea;
};

/** The Voronoi or power cell of every site clipped to the study area (the union of the regions). */
struct ClippedCells
{
    /** Per site: its clipped cell as polygon or multipolygon WKB; empty for a site in withoutCell. */
    std::vector<std::vector<unsigned char>> wkb;
    /** The sites without a cell, in site order: every site is here or has its cell. */
    std::vector<SiteWithoutCell> withoutCell;
};

/**
 * Clips the cell of every site (power cells with `weights`) to the study area. A cell is the convex hull of
 * its vertices; cells lying wholly inside the area are kept without computing an intersection
 * (GEOMETRY-NOTES section c). Throws Error when GEOS cannot clip a cell, rather than leave it out.
 */
ClippedCells clippedVoronoiCells(const RegionGeometries& regions, const std::vector<Point>& sites,
                                 const std::vector<double>& weights, Feedback& feedback);

} // namespace vbas
