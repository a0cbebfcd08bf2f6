#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vbas
{

/** One quasi-identifier: a column whose combination with others can single a person out. */
struct QuasiIdentifier
{
    std::string name;
    /** Number of categories declared by the user; 0 means "use the number observed". */
    std::uint64_t declaredCategories = 0;
};

/**
 * The quasi-identifiers of a release and their category counts |q_i| (SPEC section 1).
 * Values reach the engine as category codes 0..|q_i|-1; NULL is a category of its own.
 */
class Schema
{
public:
    Schema() = default;
    explicit Schema(std::vector<QuasiIdentifier> quasiIdentifiers);

    std::size_t size() const { return mQuasiIdentifiers.size(); }
    bool empty() const { return mQuasiIdentifiers.empty(); }
    const QuasiIdentifier& at(std::size_t i) const { return mQuasiIdentifiers.at(i); }

    /** Category count used for MaxCombs: declared, else observed (set by Dataset). */
    std::uint64_t categories(std::size_t i) const { return mCategories.at(i); }
    /** Records the observed category count of QI i; throws when it exceeds a declared count. */
    void setObservedCategories(std::size_t i, std::uint64_t observed);

    /**
     * MaxCombs e = product of |q_i| (1 for no quasi-identifiers). Long double: with thousands of
     * categories e is far beyond 2^64, and the estimators only need its magnitude.
     */
    long double maxCombs() const;

private:
    std::vector<QuasiIdentifier> mQuasiIdentifiers;
    std::vector<std::uint64_t> mCategories;
};

} // namespace vbas
