#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace vbas
{

/**
 * The value behind one category code of a quasi-identifier, as the front end read it. Codes are the
 * Dataset's (0..categories-1); the front end gives the value of every code
 * (RecordTable::quasiIdentifierValues).
 */
struct CategoryValue
{
    bool null = false;
    /** The value as published without generalization (numbers and dates too). */
    std::string text;
    /** The number, when the field is numeric (else kinds that need one parse `text`). */
    std::optional<double> number;
    /** Days since 1970-01-01, when the field is a date or date-time (else parsed from `text`). */
    std::optional<std::int64_t> day;
};

} // namespace vbas
