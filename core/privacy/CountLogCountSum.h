#pragma once

#include "base/Types.h"

namespace vbas
{

/**
 * The sum of c ln c over the counts c of one field's values in a group (the entropy's part that depends on
 * more than the total), kept exactly: every term, the double c ln c, is a whole multiple of 2^-52 (it is 0
 * for c = 1 and at least 1 otherwise), so a sum of them scaled by 2^52 is an integer. A sum kept up to date
 * as counts change, in any order, is then bit for bit the one counted afresh.
 */
class CountLogCountSum
{
public:
    void add(Count count) { mScaled += scaled(count); }
    /** A value's count changed from `before` to `after` (0: the value is absent). */
    void change(Count before, Count after) { mScaled += scaled(after) - scaled(before); }
    /** The sum, rounded once to the nearest double. */
    double value() const;

private:
    /** Wide enough for N ln N scaled by 2^52 with N up to the largest Count. */
    __extension__ using Scaled = __int128;
    static Scaled scaled(Count count);

    Scaled mScaled = 0;
};

} // namespace vbas
