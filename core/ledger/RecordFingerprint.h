#pragma once

#include "KeyedHash.h"
#include "base/Feedback.h"
#include "base/Types.h"
#include "data/Dataset.h"
#include "generalization/Hierarchy.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vbas
{

/**
 * A bottom-k sample of a set (a MinHash variant): the `kCapacity` smallest keyed hashes of its members
 * and the exact number of members. Two samples estimate how many members the sets share (Broder 1997;
 * Cohen and Kaplan 2007): exactly while both sets fit in their samples, within a few percent beyond.
 */
struct MinHashSample
{
    static constexpr std::size_t kCapacity = 4096;

    /** The smallest hashes of the members, ascending, at most kCapacity. */
    std::vector<std::uint64_t> hashes;
    /** Members of the set. */
    Count members = 0;

    /** Whether the sample holds every member (overlaps with it are then exact). */
    bool whole() const { return hashes.size() == members; }
};

/** Estimated members two sets share, from their samples (exact when both samples are whole). */
double sharedMembers(const MinHashSample& a, const MinHashSample& b);

/**
 * The estimated share of a's members that are b's, from a's sampled members below b's largest sampled hash:
 * exactly 1 whenever a is within b (each of them is then one of b's smallest), however large the sets.
 */
double shareWithin(const MinHashSample& a, const MinHashSample& b);

/**
 * What a ledger keeps of the records of a release instead of the records (SPEC section 13): nothing in it
 * can be read back as a record, and without the ledger's key nothing can be matched against a guess. Rows are
 * compared by what they are, not by their text: their small area by where it lies (so that another code of
 * the same small areas matches), numbers by value ("30" and "30.0" alike).
 */
struct RecordFingerprint
{
    /** Records (weighted; people, when counted by person) in the release's input, dropped ones apart. */
    Count records = 0;
    /**
     * Digest of the multiset of (small area, quasi-identifier values) of the records: two sums of a keyed
     * hash of each distinct row with its count. Equal digests: the same records, whatever their order.
     */
    std::array<std::uint64_t, 2> digest{};
    /** Sample of the records as a set: each (small area, values, i-th such record). */
    MinHashSample rows;
    /** Sample of the record (person) ids, when the custodian named the field that holds them; empty
     * otherwise. */
    MinHashSample ids;
    /**
     * Per quasi-identifier (by name), a sample of its distinct values: rows of two releases compare only when
     * they have the same quasi-identifiers coded alike.
     */
    std::vector<std::pair<std::string, MinHashSample>> domains;

    bool hasIds() const { return ids.members > 0; }
};

/** The text a value is compared by: NULL apart, a number or a day by its value, else its text. */
std::string comparedValue(const CategoryValue& value);

/**
 * The fingerprint of the records of `dataset` (rows without a region apart) under `key`. `values[i]` gives
 * the value behind every category code of quasi-identifier i (as read, level 0), named `names[i]`;
 * `locations`, when not empty, where each region of the dataset lies (else its id stands for it); `rowIds`,
 * when not empty, the id of every input row of the dataset (from the record id field; never published).
 * Polls `feedback`.
 */
RecordFingerprint fingerprintRecords(const Dataset& dataset, const std::vector<std::string>& names,
                                     const std::vector<std::vector<CategoryValue>>& values,
                                     const std::vector<std::string>& locations,
                                     const std::vector<std::string>& rowIds, const HashKey& key,
                                     Feedback& feedback);

} // namespace vbas
