#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace vbas
{

/**
 * A 128-bit secret keying the hashes of a release ledger: without it nobody can test a guessed record
 * against a ledger's fingerprints.
 */
struct HashKey
{
    std::uint64_t k0 = 0;
    std::uint64_t k1 = 0;
};

/** SipHash-2-4 of `bytes` under `key` (Aumasson and Bernstein 2012): a keyed hash with 64-bit output. */
std::uint64_t keyedHash(const HashKey& key, std::string_view bytes);

/** SipHash-2-4 of two 64-bit words (little-endian), for hashing a hash with a number. */
std::uint64_t keyedHash(const HashKey& key, std::uint64_t first, std::uint64_t second);

} // namespace vbas
