#include "data/DistinctRows.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace vbas
{

DistinctRows::DistinctRows(std::size_t width, std::uint64_t expectedRows)
    : mWidth(width)
    , mPartitions(std::size_t(1) << kPartitionBits)
{
    // A little more than an even share: the rows spread by hash, the share of each varies by a few per cent.
    // The hint is the planner's estimate, stale at times: beyond 2^26 rows, the partitions grow as they fill.
    const std::uint64_t hint = std::min<std::uint64_t>(expectedRows, std::uint64_t(1) << 26);
    const std::uint64_t share = (hint >> kPartitionBits) + (hint >> (kPartitionBits + 4));
    for (std::vector<std::uint32_t>& partition : mPartitions)
        partition.reserve(std::size_t(share) * width);
}

std::uint64_t DistinctRows::hashOf(const std::uint32_t* ids) const
{
    std::uint64_t hash = 0x9e3779b97f4a7c15ULL;
    for (std::size_t i = 0; i < mWidth; ++i)
        hash = (hash ^ ids[i]) * 0xbf58476d1ce4e5b9ULL;
    // Murmur3's finalizer: every bit of every id reaches the bits the partition and the slot are taken from.
    hash ^= hash >> 33;
    hash *= 0xff51afd7ed558ccdULL;
    hash ^= hash >> 33;
    hash *= 0xc4ceb9fe1a85ec53ULL;
    return hash ^ (hash >> 33);
}

void DistinctRows::add(const std::uint32_t* ids)
{
    ++mRowsAdded;
    std::vector<std::uint32_t>& partition = mPartitions[hashOf(ids) >> (64 - kPartitionBits)];
    partition.insert(partition.end(), ids, ids + mWidth);
}

void DistinctRows::finish()
{
    const std::size_t stride = mWidth + 1;
    std::vector<std::uint32_t> slots;
    mSize = 0;
    for (std::vector<std::uint32_t>& partition : mPartitions)
    {
        const std::size_t rows = partition.size() / std::max<std::size_t>(mWidth, 1);
        // At most half full: linear probing then visits about 1.5 slots for a row already counted.
        std::size_t capacity = 16;
        while (capacity < 2 * rows)
            capacity *= 2;
        slots.assign(capacity * stride, 0);
        std::size_t distinct = 0;
        for (std::size_t row = 0; row < rows; ++row)
        {
            const std::uint32_t* ids = partition.data() + row * mWidth;
            std::size_t slot = std::size_t(hashOf(ids)) & (capacity - 1);
            std::uint32_t* entry = slots.data() + slot * stride;
            while (entry[0] != 0 && !std::equal(ids, ids + mWidth, entry + 1))
            {
                slot = (slot + 1) & (capacity - 1);
                entry = slots.data() + slot * stride;
            }
            if (entry[0] == 0)
            {
                std::copy(ids, ids + mWidth, entry + 1);
                ++distinct;
            }
            else if (entry[0] == std::numeric_limits<std::uint32_t>::max())
                throw std::overflow_error("more identical rows than a 32-bit count holds");
            ++entry[0];
        }
        std::vector<std::uint32_t> counted;
        counted.reserve(distinct * stride);
        for (std::size_t slot = 0; slot < capacity; ++slot)
            if (slots[slot * stride] != 0)
                counted.insert(counted.end(), slots.begin() + std::ptrdiff_t(slot * stride),
                               slots.begin() + std::ptrdiff_t((slot + 1) * stride));
        partition.swap(counted);
        mSize += distinct;
    }
}

bool DistinctRows::nextRow(Position& position, const std::uint32_t*& ids, std::uint32_t& count) const
{
    const std::size_t stride = mWidth + 1;
    while (position.partition < mPartitions.size() &&
           position.offset >= mPartitions[position.partition].size())
    {
        ++position.partition;
        position.offset = 0;
    }
    if (position.partition == mPartitions.size())
        return false;
    const std::uint32_t* entry = mPartitions[position.partition].data() + position.offset;
    count = entry[0];
    ids = entry + 1;
    position.offset += stride;
    return true;
}

void DistinctRows::clear()
{
    for (std::vector<std::uint32_t>& partition : mPartitions)
        std::vector<std::uint32_t>().swap(partition);
    mSize = 0;
}

} // namespace vbas
