#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace vbas
{

/**
 * A hash map from unsigned integer keys to small values in one flat array (open addressing, linear
 * probing, at most half full): a look-up reads a few adjacent slots, most often one cache line, and an entry
 * costs a key and a value.
 * Erasing shifts the entries after it back, so no tombstones pile up in tables whose entries come and go.
 * The largest key is reserved (it marks empty slots). Inserting or erasing may move any other entry:
 * pointers to values last until the next insert or erase.
 */
template <typename Key, typename Value> class OpenHashMap
{
public:
    OpenHashMap()
        : mSlots(kInitialCapacity)
    {
    }

    /** The value of `key`, or null when it has none. */
    const Value* find(Key key) const
    {
        const Slot& slot = mSlots[slotOf(key)];
        return slot.key == key ? &slot.value : nullptr;
    }
    Value* find(Key key) { return const_cast<Value*>(std::as_const(*this).find(key)); }

    /** The value of `key`, added value-initialized when it had none. */
    Value& insert(Key key)
    {
        std::size_t slot = slotOf(key);
        if (mSlots[slot].key == key)
            return mSlots[slot].value;
        if ((mSize + 1) * 2 > mSlots.size())
        {
            grow();
            slot = slotOf(key);
        }
        mSlots[slot] = {key, Value()};
        ++mSize;
        return mSlots[slot].value;
    }

    /** Removes the entry of `key`, which it must have. */
    void erase(Key key)
    {
        // Backward-shift deletion keeps probe sequences intact without tombstones.
        const std::size_t mask = mSlots.size() - 1;
        std::size_t hole = slotOf(key);
        mSlots[hole].key = kEmpty;
        --mSize;
        for (std::size_t next = (hole + 1) & mask; mSlots[next].key != kEmpty; next = (next + 1) & mask)
        {
            const std::size_t home = homeOf(mSlots[next].key);
            // Move `next` into the hole when its home lies cyclically outside (hole, next].
            const bool movable = hole <= next ? (home <= hole || home > next) : (home <= hole && home > next);
            if (movable)
            {
                mSlots[hole] = mSlots[next];
                mSlots[next].key = kEmpty;
                hole = next;
            }
        }
    }

    /** Entries held. */
    std::size_t size() const { return mSize; }
    /** Slots allocated (entries fit in half of them): what the map's memory grows with. */
    std::size_t capacity() const { return mSlots.size(); }

    /** Calls visit(key, value) for every entry, in no particular order. */
    template <typename Visit> void forEach(Visit&& visit) const
    {
        for (const Slot& slot : mSlots)
            if (slot.key != kEmpty)
                visit(slot.key, slot.value);
    }

private:
    static constexpr Key kEmpty = std::numeric_limits<Key>::max();
    static constexpr std::size_t kInitialCapacity = 16;

    struct Slot
    {
        Key key = kEmpty;
        Value value{};
    };

    std::size_t homeOf(Key key) const
    {
        return std::size_t(std::uint64_t(key) * 0x9E3779B97F4A7C15ULL >> 16) & (mSlots.size() - 1);
    }

    /** The slot of `key`, or the empty slot where it would go. */
    std::size_t slotOf(Key key) const
    {
        const std::size_t mask = mSlots.size() - 1;
        std::size_t slot = homeOf(key);
        while (mSlots[slot].key != kEmpty && mSlots[slot].key != key)
            slot = (slot + 1) & mask;
        return slot;
    }

    void grow()
    {
        std::vector<Slot> slots(mSlots.size() * 2);
        slots.swap(mSlots);
        for (const Slot& slot : slots)
            if (slot.key != kEmpty)
                mSlots[slotOf(slot.key)] = slot;
    }

    std::vector<Slot> mSlots;
    std::size_t mSize = 0;
};

} // namespace vbas
