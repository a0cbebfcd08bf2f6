#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vbas
{

/**
 * Identical rows counted as they stream in, a row being a tuple of `width` ids (one per column, from
 * TextIds): how a fast reader groups the records of a large table before they are coded. One hash table over
 * all distinct rows would cost a cache and TLB miss per row once it outgrows the caches; so rows are first
 * appended to one of 256 partitions by their hash, and finish() counts each partition in a table small
 * enough to stay in cache, leaving each partition's distinct rows with their counts in place of its rows.
 */
class DistinctRows
{
public:
    /**
     * Rows of `width` ids (1 or more); `expectedRows`, when known (else 0), saves growing the partitions row
     * by row.
     */
    DistinctRows(std::size_t width, std::uint64_t expectedRows);
    /** Counts one more row of ids (`width` of them). */
    void add(const std::uint32_t* ids);
    /**
     * Counts the identical rows added; then nextRow() gives the distinct ones. Throws std::overflow_error
     * when one row comes more often than a 32-bit count holds.
     */
    void finish();
    /** Returns the number of distinct rows (after finish()). */
    std::size_t size() const { return mSize; }
    /** Returns the number of rows counted, identical ones included. */
    std::uint64_t rowsAdded() const { return mRowsAdded; }

    /** Where nextRow() is; start from a default one. */
    struct Position
    {
        std::size_t partition = 0;
        std::size_t offset = 0;
    };
    /**
     * Sets `ids` and `count` to the distinct row at `position`, in no particular order, and moves `position`
     * on; returns false after the last.
     */
    bool nextRow(Position& position, const std::uint32_t*& ids, std::uint32_t& count) const;
    /** Frees the memory. */
    void clear();

private:
    static constexpr int kPartitionBits = 8;
    std::uint64_t hashOf(const std::uint32_t* ids) const;

    std::size_t mWidth;
    /** Before finish(): each partition's rows, `width` ids each; after: its distinct rows, count first. */
    std::vector<std::vector<std::uint32_t>> mPartitions;
    std::size_t mSize = 0;
    std::uint64_t mRowsAdded = 0;
};

} // namespace vbas
