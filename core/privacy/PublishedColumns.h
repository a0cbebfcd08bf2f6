#pragma once

#include "base/Feedback.h"
#include "base/Types.h"
#include "data/Dataset.h"
#include "generalization/Hierarchy.h"
#include "model/Aggregation.h"
#include "privacy/RepeatedPersons.h"

#include <optional>
#include <string>
#include <vector>

namespace vbas
{

/** A published field that is no quasi-identifier: its name and whether l-diversity protects it. */
struct PublishedField
{
    std::string name;
    bool sensitive = false;
};

/**
 * The published rows as an outsider reads them: each row's released region and class (its quasi-identifiers
 * as published), its small area (never published: what an outsider would like to learn), the codes of the
 * published non-quasi-identifier fields, and what the row counts for (its person, or its records).
 */
struct PublishedRows
{
    std::vector<std::uint32_t> region;
    std::vector<std::uint32_t> smallArea;
    std::vector<std::uint32_t> cls;
    /** Per published field, the code of each row (codes stand for the values as written). */
    std::vector<std::vector<std::uint32_t>> fields;
    /** The person of each row, when rows are people's; empty: each row counts `records`. */
    std::vector<std::uint32_t> person;
    /** The records each row stands for (a pre-aggregated table); empty: 1 each. */
    std::vector<Count> records;

    std::size_t size() const { return region.size(); }
};

/**
 * The published rows of a release: the rows of `dataset` (level 0) that `released` marks, with their
 * region of `aggregation`, their class (the quasi-identifiers at `levels` of `hierarchies`; empty levels or
 * no hierarchies: as they are) and their codes of the published fields, `publishedCodes` holding `fieldCount`
 * codes per input row.
 */
PublishedRows publishedRows(const Dataset& dataset, const Hierarchies* hierarchies,
                            const std::vector<std::size_t>& levels, const Aggregation& aggregation,
                            const std::vector<bool>& released,
                            const std::vector<std::uint32_t>& publishedCodes, std::size_t fieldCount);

/** Above these, a published field (or pair) is refused (SPEC section 14; docs/publishing.md). */
inline constexpr double kMaxPlacement = 0.2;
inline constexpr double kMaxShareBelowK = 0.05;

/** What one published field, or a pair of them, reveals together with the region and the class. */
struct ColumnFigures
{
    /** Indices into the fields: one, or two for a pair. */
    std::vector<std::size_t> fields;
    /**
     * How well the field places rows in their small area inside their region, beyond the region alone: the
     * share of rows whose small area the other rows with their region and value name (leave one out; ties
     * shared), against the share the region's largest small area gives, scaled so that 0 is no better than
     * the region and 1 is every row placed: (placed - largest) / (rows - largest), over the rows of regions
     * of more than one small area. Negative: worse than guessing the largest.
     */
    double placement = 0.0;
    /** Share of the published rows (weighted) in (region, class, value) groups of fewer than k. */
    double shareBelowK = 0.0;
    /** Share of the published rows in groups of one (one person, or one record). */
    double shareUnique = 0.0;
    /** Whether the uniqueness figures apply (a field protected by l-diversity is judged on placement only).
     */
    bool judgedOnGroups = true;

    bool refused() const
    {
        return placement > kMaxPlacement || (judgedOnGroups && shareBelowK > kMaxShareBelowK);
    }
};

/**
 * Judges every published field and every pair of them against the region and the class (SPEC section 14):
 * placement for all; groups below k and unique rows for the insensitive ones (a sensitive field splits groups
 * by design, and l-diversity protects it). In the order: each field, then each pair (i < j). Polls
 * `feedback`.
 */
std::vector<ColumnFigures> judgePublishedColumns(const PublishedRows& rows,
                                                 const std::vector<PublishedField>& fields, Count k,
                                                 Feedback& feedback);

/** "'dob' puts 95.2 % of the published rows in groups of fewer than 5 ...": why `figures` is refused. */
std::string refusalText(const ColumnFigures& figures, const std::vector<PublishedField>& fields, Count k);

/**
 * The fields a release publishes besides the region and the quasi-identifiers (ReleaseRequest::published),
 * which the release checks before anything is written (SPEC section 14).
 */
struct PublishedFields
{
    std::vector<PublishedField> fields;
    /** `fields.size()` codes per input row of the job's dataset. */
    const std::vector<std::uint32_t>* codes = nullptr;
    /** Whether the released rows themselves are published; without them no field is judged. */
    bool rowsPublished = false;
};

/** What the checks of the published fields found (ReleaseResult::fieldChecks). */
struct FieldChecks
{
    /** Without person ids: how often rows repeat one another, as repeated persons would. */
    std::optional<RepeatedRows> repeated;
    /** Each published field and pair, judged with the region and the class (when the rows are published). */
    std::vector<ColumnFigures> columns;

    /** The first refused field or pair; null when none is. */
    const ColumnFigures* refused() const;
};

/**
 * The checks of `published` on a release of `dataset` (level 0): repeated rows when the dataset does not
 * count people, and when the rows are published, every field and pair judged on the rows `released` marks, in
 * their region of `aggregation` and their class at `levels` of `hierarchies`.
 */
FieldChecks checkPublishedFields(const Dataset& dataset, const PublishedFields& published,
                                 const Hierarchies* hierarchies, const std::vector<std::size_t>& levels,
                                 const Aggregation& aggregation, const std::vector<bool>& released, Count k,
                                 Feedback& feedback);

} // namespace vbas
