#include "PoissonInterval.h"

#include "GammaDistribution.h"

#include <cmath>
#include <stdexcept>

namespace vbas
{

ConfidenceInterval exactPoissonInterval(double cases, double exposure, double confidence)
{
    if (!(cases >= 0.0) || std::isinf(cases))
        throw std::domain_error("Poisson interval: the count must be finite and at least 0");
    if (!(exposure > 0.0) || std::isinf(exposure))
        throw std::domain_error("Poisson interval: the exposure must be positive and finite");
    if (!(confidence > 0.0 && confidence < 1.0))
        throw std::domain_error("Poisson interval: the confidence level must lie strictly between 0 and 1");
    const double alpha = (1.0 - confidence) / 2.0;
    return {gammaQuantile(alpha, cases) / exposure, gammaQuantile(1.0 - alpha, cases + 1.0) / exposure};
}

} // namespace vbas
