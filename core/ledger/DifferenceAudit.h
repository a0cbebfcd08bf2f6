#pragma once

#include "base/Feedback.h"
#include "base/Types.h"
#include "ledger/ValueSets.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vbas
{

/** How the records of a release relate to those of another, as far as the ledger can tell (SPEC section 13).
 */
enum class RecordRelation : std::uint8_t
{
    Identical, //!< the same records
    Within, //!< every record of the first is one of the second's (an earlier quarter within a year to date)
    Containing, //!< every record of the second is one of the first's
    Disjoint,   //!< no record in common (other people, or the next quarter's)
    Partial,    //!< some in common, some not (a corrected table, a new extract)
};

/** The relation of b to a, from that of a to b. */
RecordRelation reversed(RecordRelation relation);

/** One release as the audit reads it: its k, what its labels stand for and the counts it published. */
struct AuditedRelease
{
    Count k = 0;
    /**
     * Per quasi-identifier of the audit (the union of every release's), the values each of this release's
     * labels stands for; empty: the release does not publish the quasi-identifier (every value, "*").
     */
    std::vector<std::vector<ValueSet>> labels;
    struct Cell
    {
        /** The region atoms (parts of the common refinement of every release's regions) its region covers. */
        std::vector<std::uint32_t> regionAtoms;
        /** Per quasi-identifier, the index of its label in `labels` (any value where none is published). */
        std::vector<std::uint32_t> labels;
        Count count = 0;
    };
    std::vector<Cell> cells;
};

/** What the audit decided about the last release's cells. */
struct AuditOutcome
{
    /** Per cell of the last release: withheld, as its count with the earlier ones would pin a group of 1 to k
     * - 1. */
    std::vector<bool> withheld;
    /** Groups (a part of the records in a part of the values and regions) the earlier releases pin already.
     */
    std::size_t pinnedBefore = 0;
    /** Parts of the audit too large to solve as one system, compared cell by cell with equal cells instead.
     */
    std::size_t comparedCellByCell = 0;
};

/**
 * The difference rule over values, across all releases together (SPEC section 13): the records of the
 * releases are split into the parts that their relations allow (records of the first only, of both, ...),
 * each part's count in every atom of the common refinement of the releases' regions and values is an unknown,
 * and every published cell is an equation over them. A part's count in an atom is pinned when every solution
 * puts it between 1 and k - 1 (bounds by linear programming, LinearBounds), k the largest of the releases
 * holding those records. The last release's cells that would pin a group the earlier releases did not pin
 * already are withheld, one at a time, until none does. Releases whose records only partly overlap (a
 * corrected table) are also compared cell by cell where their cells are equal: a count may not differ by 1 to
 * k - 1. `relations[i][j]` is the relation of release i's records to release j's.
 */
AuditOutcome auditReleases(const std::vector<AuditedRelease>& releases,
                           const std::vector<std::vector<RecordRelation>>& relations, Feedback& feedback);

} // namespace vbas
