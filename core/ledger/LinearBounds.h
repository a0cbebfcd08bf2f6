#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace vbas
{

/**
 * The range a variable can take under linear equalities over non-negative variables: the system
 * sum_j A[i][j] x_j = b_i, x >= 0, and for one variable x_t its minimum and maximum (linear programming, the
 * two-phase simplex method with Bland's rule, which cannot cycle). An audit of published tables asks it how
 * far the counts they publish pin an unpublished one (Fischetti and Salazar 2003). Sized for the small
 * systems of one region's cells: dense, double precision, integral data.
 */
class LinearBounds
{
public:
    /** One equality: the variables it sums with their coefficients, and its right-hand side. */
    struct Equation
    {
        std::vector<std::pair<std::size_t, double>> terms;
        double value = 0.0;
    };

    /** The system of `variables` non-negative variables and `equations`; solves its first phase. */
    LinearBounds(std::size_t variables, const std::vector<Equation>& equations);

    /** Whether some x >= 0 satisfies every equation. */
    bool feasible() const { return mFeasible; }
    /** The least value of variable `t` (the system must be feasible). */
    double minimum(std::size_t t) const;
    /** The greatest value of variable `t`; nullopt when unbounded. */
    std::optional<double> maximum(std::size_t t) const;

private:
    /** Optimizes `direction` * x_t from the feasible basis; nullopt when unbounded. */
    std::optional<double> optimize(std::size_t t, double direction) const;

    std::size_t mVariables = 0;
    std::size_t mRows = 0;
    std::size_t mColumns = 0; //!< variables, then the right-hand side
    /** The tableau after the first phase: mRows rows of mColumns, the basis of each row. */
    std::vector<double> mTableau;
    std::vector<std::size_t> mBasis;
    bool mFeasible = false;
};

} // namespace vbas
