#include "ledger/KeyedHash.h"

#include <gtest/gtest.h>

#include <string>

using namespace vbas;

namespace
{
/** The key of the reference vectors: bytes 00 01 .. 0f. */
constexpr HashKey kReferenceKey{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};

std::string bytesUpTo(int n)
{
    std::string bytes;
    for (int i = 0; i < n; ++i)
        bytes += char(i);
    return bytes;
}
} // namespace

// The reference outputs of SipHash-2-4 (Aumasson and Bernstein 2012, appendix A and vectors.h).
TEST(KeyedHash, GivesSipHashReferenceVectors)
{
    EXPECT_EQ(keyedHash(kReferenceKey, bytesUpTo(0)), 0x726fdb47dd0e0e31ULL);
    EXPECT_EQ(keyedHash(kReferenceKey, bytesUpTo(15)), 0xa129ca6149be45e5ULL);
}

TEST(KeyedHash, TwoWordsHashAsTheirSixteenBytes)
{
    const std::uint64_t first = 0x0706050403020100ULL, second = 0x0f0e0d0c0b0a0908ULL;
    EXPECT_EQ(keyedHash(kReferenceKey, first, second), keyedHash(kReferenceKey, bytesUpTo(16)));
    // Another key, another hash.
    EXPECT_NE(keyedHash(HashKey{1, 2}, first, second), keyedHash(kReferenceKey, first, second));
}
