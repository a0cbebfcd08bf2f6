#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/** The distinct texts of one column, each numbered in the order it first came (0, 1, 2...). */
class VbasTextIds
{
public:
    /** The id of `text`, a new one when it is the first time. */
    std::uint32_t idOf(std::string_view text);
    std::string_view text(std::uint32_t id) const;
    std::size_t size() const { return mPlaces.size(); }

private:
    void grow();

    std::string mTexts;
    /** Where each text starts in mTexts and its length. */
    std::vector<std::pair<std::size_t, std::size_t>> mPlaces;
    /** 0 when empty, else the text's id + 1 in the low 32 bits and its hash's high 32 bits above. */
    std::vector<std::uint64_t> mSlots;
};

/**
 * Identical rows counted as they stream in, a row being a tuple of `width` ids (one per column, from
 * VbasTextIds). One hash table over all distinct rows would cost a cache and TLB miss per row (15 s for
 * 35 M rows into 14.5 M distinct ones on our machine); so rows are first appended to one of 256 partitions
 * by their hash, and finish() counts each partition in a table that stays in cache (2 s), leaving each
 * partition's distinct rows with their counts in place of its rows.
 */
class VbasDistinctRows
{
public:
    /** Rows of `width` ids; `expectedRows`, when known (else 0), saves growing the partitions row by row. */
    VbasDistinctRows(std::size_t width, std::uint64_t expectedRows);
    /** Counts one more row of ids (`width` of them). */
    void add(const std::uint32_t* ids);
    /** Counts the identical rows added; then nextRow() gives the distinct ones. */
    void finish();
    /** The distinct rows (after finish()). */
    std::size_t size() const { return mSize; }
    /** The rows counted, identical ones included. */
    std::uint64_t rowsAdded() const { return mRowsAdded; }

    /** Where nextRow() is; start from a default one. */
    struct Position
    {
        std::size_t partition = 0;
        std::size_t offset = 0;
    };
    /**
     * The distinct row at `position` into `ids` and `count`, in no particular order, and `position` moved
     * on; false after the last.
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
