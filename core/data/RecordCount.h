#pragma once

#include "base/Types.h"

#include <optional>

namespace vbas
{

/**
 * The one rule for a row's record count (COUNT_FIELD): a whole number from 0 (the row holds no records)
 * to 2^53, beyond which a double no longer holds every whole number. Returns std::nullopt for anything
 * else (negative, fractional, not a number, too large).
 */
std::optional<Count> wholeRecordCount(double count);

} // namespace vbas
