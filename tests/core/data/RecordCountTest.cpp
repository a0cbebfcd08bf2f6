#include "data/RecordCount.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace vbas
{
namespace
{

TEST(RecordCount, WholeNumbersFromZeroAreCounts)
{
    EXPECT_EQ(wholeRecordCount(0.0), Count(0));
    EXPECT_EQ(wholeRecordCount(1.0), Count(1));
    EXPECT_EQ(wholeRecordCount(4096.0), Count(4096));
    EXPECT_EQ(wholeRecordCount(9007199254740992.0), Count(9007199254740992ULL)) << "2^53 is still exact";
}

TEST(RecordCount, EverythingElseIsNone)
{
    EXPECT_FALSE(wholeRecordCount(-1.0));
    EXPECT_FALSE(wholeRecordCount(2.5));
    EXPECT_FALSE(wholeRecordCount(9007199254740994.0)) << "beyond 2^53 doubles skip whole numbers";
    EXPECT_FALSE(wholeRecordCount(std::nan("")));
    EXPECT_FALSE(wholeRecordCount(std::numeric_limits<double>::infinity()));
}

} // namespace
} // namespace vbas
