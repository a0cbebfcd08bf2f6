#pragma once

#include "CategoryValue.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vbas
{

/**
 * Raw records as category codes, as a front end hands them over (one row per record, or per
 * group of identical records when counts are given: a GROUP BY table is a valid input).
 *
 * Region references are interned: regionKeys holds each distinct region id the records name once,
 * and regionKey[row] indexes it, so validation resolves each distinct id once.
 */
struct RecordTable
{
    std::size_t quasiIdentifierCount = 0;
    std::vector<std::string> regionKeys;
    std::vector<std::uint32_t> regionKey;
    /** Row-major codes, rows() * quasiIdentifierCount values. */
    std::vector<std::uint32_t> codes;
    /** Count (weight) of each row; empty means every row is one record. */
    std::vector<std::int64_t> counts;
    /**
     * The person of each row (0, 1, ... in any order; rows of one person share a number), from a person id
     * field; empty: every record is a person of its own. With persons every count is a count of distinct
     * people: a person with several rows in one group counts once there (SPEC section 14).
     */
    std::vector<std::uint32_t> persons;
    /** Number of sensitive fields (SPEC section 10); their values are published, not generalized. */
    std::size_t sensitiveCount = 0;
    /**
     * Row-major codes of the sensitive fields, rows() * sensitiveCount values; each field's
     * values are encoded by the front end, NULL being a value of its own.
     */
    std::vector<std::uint32_t> sensitiveCodes;
    /**
     * The value behind every code of each sensitive field, as read (numbers are ordered for the criteria that
     * measure distances between values); empty when the front end does not give them.
     */
    std::vector<std::vector<CategoryValue>> sensitiveValues;
    /**
     * The value behind every category code of each quasi-identifier, as read (what the released classes
     * publish, what hierarchies are built from); empty when the front end does not give them.
     */
    std::vector<std::vector<CategoryValue>> quasiIdentifierValues;
    /**
     * When the release publishes count rows (a pre-aggregated input): per row, a key of its other published
     * values (sensitive and released fields), so that the released records of one (aggregate, class) with one
     * key are one published row with their summed count. Empty: every record is published as a row of its
     * own.
     */
    std::vector<std::uint32_t> publishedRowKeys;

    std::size_t rows() const { return regionKey.size(); }
};

} // namespace vbas
