#include "RecordFingerprint.h"

#include "base/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vbas
{
namespace
{
/** The second lane of the digest: the same hash under a different key. */
HashKey secondLane(const HashKey& key)
{
    return {key.k1 ^ 0x9e3779b97f4a7c15ULL, key.k0 ^ 0xc2b2ae3d27d4eb4fULL};
}

/** Keeps the `kCapacity` smallest distinct hashes of a stream, in amortized O(1) per hash. */
class BottomK
{
public:
    void add(std::uint64_t hash)
    {
        if (mHashes.size() >= MinHashSample::kCapacity && hash >= mBound)
            return;
        mHashes.push_back(hash);
        if (mHashes.size() >= 4 * MinHashSample::kCapacity)
            shrink();
    }
    std::vector<std::uint64_t> smallest()
    {
        shrink();
        return std::move(mHashes);
    }

private:
    void shrink()
    {
        std::sort(mHashes.begin(), mHashes.end());
        mHashes.erase(std::unique(mHashes.begin(), mHashes.end()), mHashes.end());
        if (mHashes.size() > MinHashSample::kCapacity)
            mHashes.resize(MinHashSample::kCapacity);
        if (mHashes.size() == MinHashSample::kCapacity)
            mBound = mHashes.back();
    }
    std::vector<std::uint64_t> mHashes;
    std::uint64_t mBound = ~std::uint64_t(0);
};

/** The text of a class: its quasi-identifier values as compared, NULL apart from any text. */
std::string classText(const std::uint32_t* codes, const std::vector<std::vector<CategoryValue>>& values)
{
    std::string text;
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        text += comparedValue(values[i].at(codes[i]));
        text += '\x1f';
    }
    return text;
}
} // namespace

std::string comparedValue(const CategoryValue& value)
{
    if (value.null)
        return std::string("\x1e", 1);
    if (value.day)
        return "d" + std::to_string(*value.day);
    if (value.number && std::isfinite(*value.number))
    {
        char text[32];
        std::snprintf(text, sizeof text, "n%.17g", *value.number + 0.0);
        return text;
    }
    return "t" + value.text;
}

double sharedMembers(const MinHashSample& a, const MinHashSample& b)
{
    if (a.members == 0 || b.members == 0)
        return 0.0;
    // The smallest hashes of the union, and how many of them both samples hold.
    const std::size_t k = std::min({MinHashSample::kCapacity, a.hashes.size() + b.hashes.size()});
    std::size_t taken = 0, both = 0;
    auto i = a.hashes.begin(), j = b.hashes.begin();
    while (taken < k && (i != a.hashes.end() || j != b.hashes.end()))
    {
        if (j == b.hashes.end() || (i != a.hashes.end() && *i < *j))
            ++i;
        else if (i == a.hashes.end() || *j < *i)
            ++j;
        else
        {
            ++both;
            ++i;
            ++j;
        }
        ++taken;
    }
    if (a.whole() && b.whole())
        return double(both);
    // Jaccard J estimated on the union's sample; |A n B| = J |A u B| = J (|A| + |B|) / (1 + J).
    const double jaccard = double(both) / double(taken);
    return jaccard * double(a.members + b.members) / (1.0 + jaccard);
}

double shareWithin(const MinHashSample& a, const MinHashSample& b)
{
    if (a.members == 0 || b.members == 0)
        return 0.0;
    const std::uint64_t below = b.whole() ? ~std::uint64_t(0) : b.hashes.back();
    std::size_t sampled = 0, within = 0;
    for (const std::uint64_t hash : a.hashes)
    {
        if (hash > below)
            break;
        ++sampled;
        within += std::binary_search(b.hashes.begin(), b.hashes.end(), hash) ? 1 : 0;
    }
    return sampled == 0 ? std::min(1.0, sharedMembers(a, b) / double(a.members))
                        : double(within) / double(sampled);
}

RecordFingerprint fingerprintRecords(const Dataset& dataset, const std::vector<std::string>& names,
                                     const std::vector<std::vector<CategoryValue>>& values,
                                     const std::vector<std::string>& locations,
                                     const std::vector<std::string>& rowIds, const HashKey& key,
                                     Feedback& feedback)
{
    if (values.size() != dataset.schema().size() || names.size() != values.size())
        throw Error(Subject::QuasiIdentifier, "the values of " + std::to_string(values.size()) +
                                                  " quasi-identifiers were given for " +
                                                  std::to_string(dataset.schema().size()));
    if (!rowIds.empty() && rowIds.size() != dataset.rows())
        throw Error(Subject::Records, "record ids were given for " + std::to_string(rowIds.size()) + " of " +
                                          std::to_string(dataset.rows()) + " rows");
    if (!locations.empty() && locations.size() != dataset.regionCount())
        throw Error(Subject::Regions, "locations were given for " + std::to_string(locations.size()) +
                                          " of " + std::to_string(dataset.regionCount()) + " small areas");
    const HashKey second = secondLane(key);
    std::vector<std::uint64_t> classHash(dataset.classes().size());
    for (ClassId c = 0; c < classHash.size(); ++c)
        classHash[c] = keyedHash(key, classText(dataset.classes().codes(c), values));

    RecordFingerprint fingerprint;
    BottomK rows;
    const HistogramTable& histograms = dataset.regionHistograms();
    for (RegionIndex r = 0; r < dataset.regionCount(); ++r)
    {
        if (r % 256 == 0)
            feedback.checkCanceled();
        const std::uint64_t regionHash =
            keyedHash(key, locations.empty() ? "id:" + dataset.regionId(r) : "at:" + locations[r]);
        for (const ClassCount& entry : histograms.entries(r))
        {
            const std::uint64_t row = keyedHash(key, regionHash, classHash[entry.cls]);
            fingerprint.digest[0] += keyedHash(key, row, entry.count);
            fingerprint.digest[1] += keyedHash(second, row, entry.count);
            for (Count i = 0; i < entry.count; ++i)
                rows.add(keyedHash(second, row, i));
            fingerprint.records += entry.count;
        }
    }
    fingerprint.rows.hashes = rows.smallest();
    fingerprint.rows.members = fingerprint.records;

    for (std::size_t i = 0; i < values.size(); ++i)
    {
        BottomK distinct;
        for (const CategoryValue& value : values[i])
            distinct.add(keyedHash(second, "v:" + comparedValue(value)));
        MinHashSample sample;
        sample.hashes = distinct.smallest();
        sample.members =
            sample.hashes.size() < MinHashSample::kCapacity ? sample.hashes.size() : values[i].size();
        fingerprint.domains.emplace_back(names[i], std::move(sample));
    }

    if (!rowIds.empty())
    {
        std::vector<std::uint64_t> ids;
        ids.reserve(rowIds.size());
        for (std::size_t row = 0; row < rowIds.size(); ++row)
            if (dataset.rowRegion(row) != kNoRegion)
                ids.push_back(keyedHash(second, rowIds[row]));
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        fingerprint.ids.members = ids.size();
        ids.resize(std::min(ids.size(), MinHashSample::kCapacity));
        fingerprint.ids.hashes = std::move(ids);
    }
    return fingerprint;
}

} // namespace vbas
