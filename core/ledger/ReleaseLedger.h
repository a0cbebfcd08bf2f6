#pragma once

#include "base/Types.h"
#include "data/Dataset.h"
#include "generalization/Hierarchy.h"
#include "ledger/DifferenceAudit.h"
#include "ledger/RecordFingerprint.h"
#include "ledger/ValueSets.h"
#include "model/Aggregation.h"
#include "suppression/ReleaseCriterion.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vbas
{

/** Small area id -> id of its region as published, one pair per small area, sorted by small area. */
using AreaRegions = std::vector<std::pair<std::string, std::string>>;

/**
 * The records a release published in one (region, class) cell. The region is named by its smallest small-area
 * id, which two releases on the same aggregation share whatever ids they give their regions; the class by
 * its published quasi-identifier labels (classKeys()), each standing for the values its LabelValues say.
 */
struct PublishedCell
{
    std::string region;
    std::string cls;
    Count count = 0;
};

/** What the labels of one released quasi-identifier stand for: each label with the values it covers. */
struct LabelValues
{
    std::string quasiIdentifier;
    std::vector<std::pair<std::string, ValueSet>> labels;
};

/**
 * One publishable release as a release ledger keeps it (SPEC section 13): when, how, on which small areas and
 * aggregation, what it published (counts and what their labels stand for), and a fingerprint of its records
 * that holds no record.
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
    /** The criteria besides k it was held to, in words ("distinct 2-diversity"); empty: none. */
    std::string criteria;
    std::vector<std::string> quasiIdentifiers;
    /** The level each quasi-identifier was released at: "0" as it is, else the level's name ("10", "*"). */
    std::vector<std::string> levels;
    /** What the levels' hierarchies were built as (GeneralizationReport::builtAs; empty: none). */
    Generalization generalization;
    std::vector<std::string> sensitiveFields;
    AreaRegions aggregation;
    /** Where each small area of `aggregation` lies (a point in it, as text), in its order; empty: unknown. */
    std::vector<std::string> locations;
    /** Per quasi-identifier, the values each published label stands for. */
    std::vector<LabelValues> labelValues;
    RecordFingerprint records;
    std::vector<PublishedCell> cells;
    /** Earlier entries the custodian stated hold other people's records (they do not bind this release). */
    std::vector<std::int64_t> otherPeople;
    /** When and why the custodian withdrew it (never published): it binds nothing; empty: in force. */
    std::string withdrawnAt;
    std::string withdrawnReason;
    /** What it needs to be made again (the versions, the algorithm and its parameters), as the front end
     * wrote it (JSON in QGIS); empty for entries recorded before it was kept. */
    std::string provenance;

    bool withdrawn() const { return !withdrawnAt.empty(); }
    /** Distinct regions of its aggregation. */
    std::size_t regions() const;
    /** "release 3 of 2026-11-20T10:15:02Z (vbas:aggregateregions, k = 5, 40 regions)". */
    std::string describe() const;
};

/** Whether two aggregations put the same small areas in the same groups (the ids of the regions aside). */
bool sameAggregation(const AreaRegions& a, const AreaRegions& b);

/** Above this share of the smaller release's records (by id, or rows compared by value) two releases overlap.
 */
inline constexpr double kOverlapShare = 0.01;
/** With ids in both, releases whose rows (compared by value) coincide beyond this share hold the same people
 * under other ids. */
inline constexpr double kSameRowsShare = 0.5;
/** A share of the records held by the other release from which one is taken to lie within it. */
inline constexpr double kWithinShare = 0.99;

/** How the records of a release relate to those of an earlier one, and how the ledger told. */
struct RecordComparison
{
    /** The earlier release's records to this one's. */
    RecordRelation relation = RecordRelation::Disjoint;
    /** Estimated shares of the earlier and of this release's records that the other holds too. */
    double shareOfEarlier = 0.0;
    double shareOfNow = 0.0;
    /** Judged by ids; else by rows compared by value, which count like records of different people alike. */
    bool byIds = false;
    /** The rows could not be compared: other quasi-identifiers, or their values coded otherwise. */
    bool incomparable = false;

    bool overlapping() const { return relation != RecordRelation::Disjoint; }
    /** Why, in a user's words: "about 95 % of the smaller release's records by small area and values". */
    std::string text() const;
};

/**
 * Compares two releases' records (the fingerprint tells only new records from earlier ones): identical by
 * digest; otherwise by ids when both have them, and by rows compared by value too, so that the same people
 * under fresh ids are told; rows that cannot be compared (other quasi-identifiers, values coded otherwise)
 * count as overlapping, as nothing shows they are other people's.
 */
RecordComparison compareRecords(const RecordFingerprint& earlier, const RecordFingerprint& now);

/** The small areas of a release and, when it is made on a given aggregation, their regions. */
struct ReleaseTerritory
{
    /** Every small area with its region's id, sorted by small area; regions empty for an aggregation of its
     * own. */
    AreaRegions areas;
    /** Where each lies (as LedgerEntry::locations), in the same order; empty: unknown. */
    std::vector<std::string> locations;
};

/** An earlier release that binds this one: its entry and how its records relate to this one's. */
struct BoundRelease
{
    std::size_t entry;
    RecordComparison records;
};

/** What the ledger allows a release. */
struct LedgerDecision
{
    /** The entries on this release's small areas that it is held to (the difference rule), in ledger order.
     */
    std::vector<BoundRelease> bound;
    /** The largest k of the bound entries whose records overlap this release's: its k may not be lower. */
    Count kFloor = 0;
    /** A line per earlier entry that concerns these records or small areas, for the log and the report. */
    std::vector<std::string> notes;
};

/**
 * Checks a release against the ledger's `entries` (SPEC section 13 as amended by issue 39). One aggregation
 * per territory: an entry in force on any of the same small areas (the same ids, or the same places under
 * other ids) binds the release to its aggregation or a coarsening of it, unless `otherPeople` names it and
 * the records share nothing by content. A release that makes its own aggregation (`ownAggregation`) is then
 * refused; one on a given aggregation is refused when that splits a region of the overlay of the entries that
 * bind it. A refusal throws Error(Subject::Ledger) naming the entry and the safe ways. Withdrawn entries bind
 * nothing.
 */
LedgerDecision checkLedger(const std::vector<LedgerEntry>& entries, const RecordFingerprint& now,
                           const ReleaseTerritory& territory, bool ownAggregation,
                           const std::vector<std::int64_t>& otherPeople = {});

/**
 * The published text of every class of `dataset` (its values as read, level 0) released at `levels`: each
 * quasi-identifier's value, or its hierarchy's label at its level. `values[i]` gives the value of every
 * code of quasi-identifier i; `levels` empty: every one as it is.
 */
std::vector<std::string> classKeys(const Dataset& dataset,
                                   const std::vector<std::vector<CategoryValue>>& values,
                                   const Hierarchies* hierarchies, const std::vector<std::size_t>& levels);

/**
 * What each label a release of `dataset` publishes stands for, per quasi-identifier named `names`: the values
 * (level 0, `values`) of every code generalized into it at `levels` (empty: as they are).
 */
std::vector<LabelValues> releasedLabelValues(const std::vector<std::string>& names,
                                             const std::vector<std::vector<CategoryValue>>& values,
                                             const Hierarchies* hierarchies,
                                             const std::vector<std::size_t>& levels);

/**
 * The cells a release publishes: the released records of each (aggregate, class) by aggregateKeys() and
 * classKeys(), from the fate of every row of `dataset` (level 0) and their aggregates in `aggregation`;
 * people, when the dataset counts people.
 */
std::vector<PublishedCell> publishedCells(const Dataset& dataset, const std::vector<std::string>& classKeys,
                                          const Aggregation& aggregation,
                                          const std::vector<bool>& rowReleased);

/** The key of each aggregate in PublishedCell::region: its smallest member's small-area id. */
std::vector<std::string> aggregateKeys(const Dataset& dataset, const Aggregation& aggregation);

/**
 * The earlier releases a release on a given aggregation is held to, ready for the difference audit (SPEC
 * section 13): their cells over the common refinement of every release's small areas and values, the
 * relations of their records, and the way to read this release's own cells the same way.
 */
class DifferenceRule : public ReleaseCriterion
{
public:
    /**
     * `bound` as checkLedger() gave them for `entries` (with their cells); `territory` this release's small
     * areas in the order of `dataset`'s regions' ids; `names` its quasi-identifiers, `labels` what its labels
     * stand for (releasedLabelValues()), `classLabels[c]` the index of each label of class c of the dataset
     * it releases.
     */
    DifferenceRule(const std::vector<LedgerEntry>& entries, const std::vector<BoundRelease>& bound,
                   const Dataset& dataset, const ReleaseTerritory& territory,
                   const std::vector<LabelValues>& labels,
                   std::vector<std::vector<std::uint32_t>> classLabels);

    /**
     * The entries that `withheld` leaves released and that the audit withholds (auditReleases()), their
     * counts in people when the dataset counts people.
     */
    std::vector<bool> withhold(const RegionSet& regions, const Aggregation& aggregation,
                               const std::vector<bool>& withheld, const std::vector<Count>& published,
                               Count k, Feedback& feedback) const override;
    /** The releases it holds this one to. */
    std::size_t releases() const { return mEarlier.size(); }

private:
    std::vector<AuditedRelease> mEarlier;
    std::vector<std::vector<RecordRelation>> mRelations; //!< among the earlier and this one (last)
    /** The region atom of each region of the dataset. */
    std::vector<std::uint32_t> mRegionAtom;
    /** This release's labels per quasi-identifier of the audit, and each class's label indices. */
    std::vector<std::vector<ValueSet>> mLabels;
    std::vector<std::vector<std::uint32_t>> mClassLabels;
};

} // namespace vbas
