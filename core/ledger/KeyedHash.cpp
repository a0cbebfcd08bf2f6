#include "KeyedHash.h"

namespace vbas
{
namespace
{
constexpr std::uint64_t rotl(std::uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

/** SipHash's state and its rounds. */
struct SipState
{
    std::uint64_t v0, v1, v2, v3;

    explicit SipState(const HashKey& key)
        : v0(key.k0 ^ 0x736f6d6570736575ULL)
        , v1(key.k1 ^ 0x646f72616e646f6dULL)
        , v2(key.k0 ^ 0x6c7967656e657261ULL)
        , v3(key.k1 ^ 0x7465646279746573ULL)
    {
    }
    void round()
    {
        v0 += v1;
        v1 = rotl(v1, 13);
        v1 ^= v0;
        v0 = rotl(v0, 32);
        v2 += v3;
        v3 = rotl(v3, 16);
        v3 ^= v2;
        v0 += v3;
        v3 = rotl(v3, 21);
        v3 ^= v0;
        v2 += v1;
        v1 = rotl(v1, 17);
        v1 ^= v2;
        v2 = rotl(v2, 32);
    }
    void absorb(std::uint64_t m)
    {
        v3 ^= m;
        round();
        round();
        v0 ^= m;
    }
    std::uint64_t finish()
    {
        v2 ^= 0xff;
        for (int i = 0; i < 4; ++i)
            round();
        return v0 ^ v1 ^ v2 ^ v3;
    }
};

std::uint64_t littleEndianWord(const unsigned char* bytes, std::size_t size)
{
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < size; ++i)
        word |= std::uint64_t(bytes[i]) << (8 * i);
    return word;
}
} // namespace

std::uint64_t keyedHash(const HashKey& key, std::string_view bytes)
{
    SipState state(key);
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t whole = bytes.size() / 8 * 8;
    for (std::size_t i = 0; i < whole; i += 8)
        state.absorb(littleEndianWord(data + i, 8));
    state.absorb(littleEndianWord(data + whole, bytes.size() - whole) | (std::uint64_t(bytes.size()) << 56));
    return state.finish();
}

std::uint64_t keyedHash(const HashKey& key, std::uint64_t first, std::uint64_t second)
{
    SipState state(key);
    state.absorb(first);
    state.absorb(second);
    state.absorb(std::uint64_t(16) << 56);
    return state.finish();
}

} // namespace vbas
