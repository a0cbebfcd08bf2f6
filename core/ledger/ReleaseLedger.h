#pragma once

#include "Types.h"
#include "data/Dataset.h"
#include "generalization/Hierarchy.h"
#include "ledger/RecordFingerprint.h"
#include "partition/Aggregation.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace vbas
{

/** Small area id -> id of its region as published, one pair per small area, sorted by small area. */
using AreaRegions = std::vector<std::pair<std::string, std::string>>;

/**
 * The records a release published in one (region, class) cell. The region is named by its smallest small-area
 * id, which two releases on the same aggregation share whatever ids they give their regions; the class by
 * its published quasi-identifier values (classKeys()).
 */
struct PublishedCell
{
    std::string region;
    std::string cls;
    Count count = 0;
};

/**
 * One publishable release as a release ledger keeps it (SPEC section 13): when, how, on which aggregation,
 * what it published, and a fingerprint of its records that holds no record.
 */
struct LedgerEntry
{
    /** The ledger's number for it (1, 2, ...); 0 until it is recorded. */
    std::int64_t id = 0;
    /** When it was recorded, ISO 8601 in UTC. */
    std::string recordedAt;
    /** The algorithm that made it, e.g. "vbas:aggregateregions". */
    std::string algorithm;
    Count k = 0;
    /** l of l-diversity (0: off) and its measure ("distinct", "entropy"). */
    Count l = 0;
    std::string diversityMeasure;
    std::vector<std::string> quasiIdentifiers;
    /** The level each quasi-identifier was released at: "0" as it is, else the level's name ("10", "*"). */
    std::vector<std::string> levels;
    /** The GENERALIZATION text the levels' hierarchies were built from (empty: none). */
    std::string generalization;
    std::vector<std::string> sensitiveFields;
    AreaRegions aggregation;
    RecordFingerprint records;
    std::vector<PublishedCell> cells;
    /** What it needs to be made again (the versions, the algorithm and its parameters), as the front end
     * wrote it (JSON in QGIS); empty for entries recorded before it was kept. */
    std::string reproduction;

    /** Distinct regions of its aggregation. */
    std::size_t regions() const;
    /** "release 3 of 2026-11-20T10:15:02Z (vbas:aggregateregions, k = 5, 40 regions)". */
    std::string describe() const;
};

/** Whether two aggregations put the same small areas in the same groups (the ids of the regions aside). */
bool sameAggregation(const AreaRegions& a, const AreaRegions& b);

/** Above this share of the smaller release's records shared, two releases' records overlap. */
inline constexpr double kOverlapShare = 0.01;

/** How the records of a new release relate to those of an earlier one. */
struct RecordOverlap
{
    enum class Relation
    {
        Disjoint,    //!< at most kOverlapShare of the smaller one's records shared
        Identical,   //!< the same records (the same digest and number)
        Overlapping, //!< more than kOverlapShare shared
    } relation = Relation::Disjoint;
    /** Estimated share of the smaller release's records (ids) that the other holds too. */
    double sharedShare = 0.0;
    /** Judged by record ids; else by small areas and values, which cannot tell two like records apart. */
    bool byIds = false;
};

/**
 * Compares two releases' records: identical by digest; otherwise by their id samples when both have ids,
 * else by their samples of (small area, values) rows, which count like records of different people as
 * shared (so that an overlap is never missed).
 */
RecordOverlap compareRecords(const RecordFingerprint& earlier, const RecordFingerprint& now);

/** What the ledger allows a release. */
struct LedgerDecision
{
    /** The entries on this release's aggregation whose records overlap its own (difference rule). */
    std::vector<std::size_t> keepDifferencesWith;
    /** A line per earlier entry that overlaps, for the log and the report. */
    std::vector<std::string> notes;
};

/**
 * Checks a release of the records `now` against the ledger's `entries` (SPEC section 13). With
 * `aggregation` null the release makes an aggregation of its own: records that overlap any entry's refuse
 * it. With an aggregation given, an overlap with an entry on a different aggregation refuses it and the
 * entries on the same one are kept for the difference rule. A refusal throws Error(Subject::Ledger) naming
 * the earlier release and the safe way.
 */
LedgerDecision checkLedger(const std::vector<LedgerEntry>& entries, const RecordFingerprint& now,
                           const AreaRegions* aggregation);

/**
 * The published text of every class of `dataset` (its values as read, level 0) released at `levels`: each
 * quasi-identifier's value, or its hierarchy's label at its level. `values[i]` gives the value of every
 * code of quasi-identifier i; `levels` empty: every one as it is.
 */
std::vector<std::string> classKeys(const Dataset& dataset,
                                   const std::vector<std::vector<CategoryValue>>& values,
                                   const Hierarchies* hierarchies, const std::vector<std::size_t>& levels);

/**
 * The cells a release publishes: the released records of each (aggregate, class) by aggregateKeys() and
 * classKeys(), from the fate of every row of `dataset` (level 0) and their aggregates in `aggregation`.
 */
std::vector<PublishedCell> publishedCells(const Dataset& dataset, const std::vector<std::string>& classKeys,
                                          const Aggregation& aggregation,
                                          const std::vector<bool>& rowReleased);

/** The key of each aggregate in PublishedCell::region: its smallest member's small-area id. */
std::vector<std::string> aggregateKeys(const Dataset& dataset, const Aggregation& aggregation);

/**
 * The counts earlier releases of overlapping records published on the same aggregation, by cell, as the
 * difference rule reads them: no released cell may differ from one of them by 1 to k - 1.
 */
class CellHistory
{
public:
    CellHistory(const std::vector<const std::vector<PublishedCell>*>& earlier,
                std::vector<std::string> classKeys);

    /** Per entry of `aggregation`'s histograms, the counts the earlier releases published in its cell (0 for
     * none). */
    std::vector<std::vector<Count>> countsOfEntries(const Dataset& dataset,
                                                    const Aggregation& aggregation) const;

private:
    std::size_t mReleases;
    std::vector<std::string> mClassKeys;
    /** Per cell (region and class key), the count of each earlier release. */
    std::unordered_map<std::string, std::vector<Count>> mCells;
};

} // namespace vbas
