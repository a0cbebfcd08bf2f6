#pragma once

#include "Registry.h"
#include "StrategyOptions.h"
#include "base/Feedback.h"
#include "data/Dataset.h"
#include "privacy/Criteria.h"
#include "privacy/LDiversity.h"

#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace vbas::test
{

/** Builds a Dataset from readable rows: region id, quasi-identifier codes and a count. */
class DatasetBuilder
{
public:
    explicit DatasetBuilder(std::vector<QuasiIdentifier> quasiIdentifiers = {})
        : mSchema(std::move(quasiIdentifiers))
    {
        mRecords.quasiIdentifierCount = mSchema.size();
    }

    DatasetBuilder& region(const std::string& id, double x, double y)
    {
        mRegions.push_back({id, {x, y}});
        return *this;
    }

    /**
     * Adds `count` identical records (one row with a count when counts are on, else `count` rows)
     * with the codes of their sensitive fields, if any (see sensitiveFields()).
     */
    DatasetBuilder& records(const std::string& regionId, std::vector<std::uint32_t> codes,
                            std::int64_t count = 1, std::vector<std::uint32_t> sensitive = {})
    {
        const auto [it, added] = mKeyIndex.emplace(regionId, std::uint32_t(mRecords.regionKeys.size()));
        if (added)
            mRecords.regionKeys.push_back(regionId);
        const std::int64_t rows = mWeighted ? 1 : count;
        for (std::int64_t i = 0; i < rows; ++i)
        {
            mRecords.regionKey.push_back(it->second);
            mRecords.codes.insert(mRecords.codes.end(), codes.begin(), codes.end());
            mRecords.sensitiveCodes.insert(mRecords.sensitiveCodes.end(), sensitive.begin(), sensitive.end());
            if (mWeighted)
                mRecords.counts.push_back(count);
        }
        return *this;
    }

    /** Rows carry counts from now on (call before adding records). */
    DatasetBuilder& weighted()
    {
        mWeighted = true;
        return *this;
    }

    /** Records carry `count` sensitive fields from now on (call before adding records). */
    DatasetBuilder& sensitiveFields(std::size_t count)
    {
        mRecords.sensitiveCount = count;
        return *this;
    }

    /** The person of every row added so far, in order (RecordTable::persons). */
    DatasetBuilder& persons(std::vector<std::uint32_t> persons)
    {
        mRecords.persons = std::move(persons);
        return *this;
    }

    /**
     * Publishes the rows added so far as count rows keyed by their sensitive values (RecordTable::
     * publishedRowKeys), as a front end publishing a count table with its sensitive fields does.
     */
    DatasetBuilder& countRowsBySensitiveValues()
    {
        std::map<std::vector<std::uint32_t>, std::uint32_t> keys;
        const std::size_t width = mRecords.sensitiveCount;
        mRecords.publishedRowKeys.clear();
        for (std::size_t row = 0; row < mRecords.rows(); ++row)
        {
            const auto first = mRecords.sensitiveCodes.begin() + std::ptrdiff_t(row * width);
            mRecords.publishedRowKeys.push_back(
                keys.try_emplace(std::vector<std::uint32_t>(first, first + std::ptrdiff_t(width)),
                                 std::uint32_t(keys.size()))
                    .first->second);
        }
        return *this;
    }

    /** The value behind every category code of each quasi-identifier (RecordTable::quasiIdentifierValues). */
    DatasetBuilder& values(std::vector<std::vector<CategoryValue>> values)
    {
        mRecords.quasiIdentifierValues = std::move(values);
        return *this;
    }

    const RecordTable& table() const { return mRecords; }

    Dataset build(DatasetOptions options = {}) const
    {
        Feedback feedback;
        return Dataset::build(mRegions, mSchema, mRecords, options, feedback);
    }

private:
    Schema mSchema;
    std::vector<RegionInput> mRegions;
    RecordTable mRecords;
    std::unordered_map<std::string, std::uint32_t> mKeyIndex;
    bool mWeighted = false;
};

/** Turns l-diversity `rule` on in `options`, as a front end does (off when its l is below 2). */
inline StrategyOptions& withDiversity(StrategyOptions& options, const DiversityRule& rule)
{
    static const char* const measures[] = {"distinct", "entropy", "recursive"};
    options.set("l", rule.enabled() ? double(rule.l) : 0.0);
    options.set("l_measure", measures[int(rule.measure)]);
    options.set("c", rule.c);
    return options;
}

/** The criteria l-diversity `rule` alone makes (none when its l is below 2). */
inline Criteria criteriaOf(const DiversityRule& rule)
{
    StrategyOptions options;
    return Criteria::fromOptions(Registry::builtIn(), withDiversity(options, rule));
}

/** Feedback that keeps warnings and infos for assertions. */
class RecordingFeedback : public Feedback
{
public:
    std::vector<std::string> warnings;
    std::vector<std::string> infos;
    /** Every progress report, as overall fractions of the run. */
    std::vector<double> progress;
    void warning(const std::string& message) override { warnings.push_back(message); }
    void info(const std::string& message) override { infos.push_back(message); }

protected:
    void onProgress(double overall) override { progress.push_back(overall); }
};

/** A test name from a strategy id or any text: characters gtest refuses become underscores. */
inline std::string testName(std::string text)
{
    for (char& c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return text;
}

/** The ids of registered strategies, as test parameters. */
template <typename Entry> std::vector<std::string> idsOf(const std::vector<Entry>& entries)
{
    std::vector<std::string> ids;
    for (const Entry& entry : entries)
        ids.push_back(entry.id);
    return ids;
}

/** One quasi-identifier with `categories` declared categories (0: observed). */
inline QuasiIdentifier qi(const std::string& name, std::uint64_t categories = 0)
{
    return {name, categories};
}

} // namespace vbas::test
