#include "Schema.h"

#include "base/Error.h"

namespace vbas
{

Schema::Schema(std::vector<QuasiIdentifier> quasiIdentifiers)
    : mQuasiIdentifiers(std::move(quasiIdentifiers))
{
    mCategories.reserve(mQuasiIdentifiers.size());
    for (const QuasiIdentifier& qi : mQuasiIdentifiers)
        mCategories.push_back(qi.declaredCategories);
}

void Schema::setObservedCategories(std::size_t i, std::uint64_t observed)
{
    const QuasiIdentifier& qi = mQuasiIdentifiers.at(i);
    if (qi.declaredCategories == 0)
    {
        mCategories.at(i) = observed;
        return;
    }
    if (observed > qi.declaredCategories)
        throw Error(Subject::QuasiIdentifier,
                    "quasi-identifier '" + qi.name + "' has " + std::to_string(observed) +
                        " distinct values (NULL counts as one) but " + std::to_string(qi.declaredCategories) +
                        " categories were declared; declare at least " + std::to_string(observed) +
                        " or leave the count empty to use the observed number");
}

long double Schema::maxCombs() const
{
    long double product = 1.0L;
    for (std::uint64_t categories : mCategories)
        product *= static_cast<long double>(categories);
    return product;
}

} // namespace vbas
