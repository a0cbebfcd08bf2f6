#pragma once

#include "data/Dataset.h"
#include "geometry/RegionGeometries.h"
#include "ledger/ReleaseLedger.h"
#include "partition/SpatialContext.h"

#include <cstdint>
#include <vector>

namespace vbas
{

struct PopulationTable;

/**
 * The inputs of a run, apart from its configuration (PipelineConfig): the records with their regions (and
 * the values behind their codes), and what is known of the regions on the ground. Only the dataset is
 * required; a strategy that needs more (Needs in the registry) fails with an Error naming what is missing. A
 * Job refers to its dataset and geometries: they must outlive it and every run made with it.
 */
struct Job
{
    /** A job of the dataset alone: no polygons, obstacles nor parents. */
    Job(const Dataset& dataset_) // NOLINT(google-explicit-constructor): a dataset is the smallest job
        : dataset(&dataset_)
    {
    }

    const Dataset* dataset;
    /**
     * Planar polygons of the regions in region order: the aggregates' polygons and the sites' cells of a
     * release are made from them, and the region adjacency when a strategy or the contiguity repair needs
     * it and `spatial` does not hold it.
     */
    const RegionGeometries* geometries = nullptr;
    /** Obstacles for the partitions that use them, and the region adjacency when the caller has it. */
    SpatialContext spatial;
    /**
     * Parent code of every region (province, health authority); when given, no aggregate mixes regions
     * of different parents (SPEC section 5). Empty: no constraint.
     */
    std::vector<std::uint32_t> regionParent;
    /**
     * The earlier releases this one is held to (SPEC section 13): a ledger's entries, checkLedger()'s
     * decision on them and this release's small areas. The difference rule withholds the cells whose counts,
     * with every earlier release's, would pin a group of 1 to k - 1. Only releases on a given aggregation
     * (releaseGroups()) take them; needs the dataset's quasiIdentifierValues().
     */
    struct EarlierReleases
    {
        const std::vector<LedgerEntry>* entries = nullptr;
        std::vector<BoundRelease> bound;
        ReleaseTerritory territory;
    };
    const EarlierReleases* earlier = nullptr;
    /**
     * People per small area, age band and sex: what k counts under k-map (option k_counts "population"); it
     * must outlive the job. Null: none.
     */
    const PopulationTable* population = nullptr;
};

} // namespace vbas
