#include "LinearBounds.h"

#include <cmath>
#include <limits>

namespace vbas
{
namespace
{
constexpr double kTolerance = 1e-9;

/** A dense simplex tableau: rows of coefficients with the right-hand side last, and the basic column of each.
 */
struct Tableau
{
    std::size_t rows = 0, columns = 0;
    std::vector<double> cells;
    std::vector<std::size_t> basis;

    double& at(std::size_t row, std::size_t column) { return cells[row * columns + column]; }
    double at(std::size_t row, std::size_t column) const { return cells[row * columns + column]; }

    void pivot(std::size_t row, std::size_t column, std::vector<double>& objective)
    {
        const double scale = at(row, column);
        for (std::size_t c = 0; c < columns; ++c)
            at(row, c) /= scale;
        for (std::size_t r = 0; r < rows; ++r)
        {
            const double factor = at(r, column);
            if (r == row || factor == 0.0)
                continue;
            for (std::size_t c = 0; c < columns; ++c)
                at(r, c) -= factor * at(row, c);
        }
        const double factor = objective[column];
        if (factor != 0.0)
            for (std::size_t c = 0; c < columns; ++c)
                objective[c] -= factor * at(row, c);
        basis[row] = column;
    }

    /**
     * Minimizes the objective (reduced costs, its value negated in the last cell) over the first `usable`
     * columns with Bland's rule; false when unbounded.
     */
    bool minimize(std::vector<double>& objective, std::size_t usable)
    {
        for (;;)
        {
            std::size_t entering = usable;
            for (std::size_t c = 0; c < usable; ++c)
                if (objective[c] < -kTolerance)
                {
                    entering = c;
                    break;
                }
            if (entering == usable)
                return true;
            std::size_t leaving = rows;
            double best = std::numeric_limits<double>::infinity();
            for (std::size_t r = 0; r < rows; ++r)
            {
                const double coefficient = at(r, entering);
                if (coefficient <= kTolerance)
                    continue;
                const double ratio = at(r, columns - 1) / coefficient;
                if (ratio < best - kTolerance ||
                    (ratio <= best + kTolerance && leaving < rows && basis[r] < basis[leaving]))
                {
                    best = std::min(best, ratio);
                    leaving = r;
                }
            }
            if (leaving == rows)
                return false;
            pivot(leaving, entering, objective);
        }
    }
};
} // namespace

LinearBounds::LinearBounds(std::size_t variables, const std::vector<Equation>& equations)
    : mVariables(variables)
{
    // Phase one: an artificial variable per equation, their sum minimized.
    Tableau tableau;
    tableau.rows = equations.size();
    tableau.columns = variables + equations.size() + 1;
    tableau.cells.assign(tableau.rows * tableau.columns, 0.0);
    tableau.basis.resize(tableau.rows);
    std::vector<double> objective(tableau.columns, 0.0);
    for (std::size_t r = 0; r < equations.size(); ++r)
    {
        const double sign = equations[r].value < 0 ? -1.0 : 1.0;
        for (const auto& [variable, coefficient] : equations[r].terms)
            tableau.at(r, variable) += sign * coefficient;
        tableau.at(r, variables + r) = 1.0;
        tableau.at(r, tableau.columns - 1) = sign * equations[r].value;
        tableau.basis[r] = variables + r;
        for (std::size_t c = 0; c < variables; ++c)
            objective[c] -= tableau.at(r, c);
        objective[tableau.columns - 1] -= tableau.at(r, tableau.columns - 1);
    }
    tableau.minimize(objective, variables + equations.size());
    mFeasible = -objective[tableau.columns - 1] <= 1e-7;
    if (!mFeasible)
        return;
    // Artificials still basic (at zero): pivot them out, or drop their row when it is redundant.
    std::vector<bool> keep(tableau.rows, true);
    for (std::size_t r = 0; r < tableau.rows; ++r)
    {
        if (tableau.basis[r] < variables)
            continue;
        std::size_t column = variables;
        for (std::size_t c = 0; c < variables; ++c)
            if (std::abs(tableau.at(r, c)) > kTolerance)
            {
                column = c;
                break;
            }
        if (column < variables)
            tableau.pivot(r, column, objective);
        else
            keep[r] = false;
    }
    // The first phase's tableau without the artificial columns and the redundant rows.
    mColumns = variables + 1;
    for (std::size_t r = 0; r < tableau.rows; ++r)
    {
        if (!keep[r])
            continue;
        for (std::size_t c = 0; c < variables; ++c)
            mTableau.push_back(tableau.at(r, c));
        mTableau.push_back(tableau.at(r, tableau.columns - 1));
        mBasis.push_back(tableau.basis[r]);
    }
    mRows = mBasis.size();
}

std::optional<double> LinearBounds::optimize(std::size_t t, double direction) const
{
    Tableau tableau{mRows, mColumns, mTableau, mBasis};
    // Reduced costs of direction * x_t in the current basis.
    std::vector<double> objective(mColumns, 0.0);
    objective[t] = direction;
    for (std::size_t r = 0; r < mRows; ++r)
        if (mBasis[r] == t)
            for (std::size_t c = 0; c < mColumns; ++c)
                objective[c] -= direction * tableau.at(r, c);
    if (!tableau.minimize(objective, mVariables))
        return std::nullopt;
    return -direction * objective[mColumns - 1];
}

double LinearBounds::minimum(std::size_t t) const
{
    return optimize(t, 1.0).value_or(0.0);
}

std::optional<double> LinearBounds::maximum(std::size_t t) const
{
    const std::optional<double> negated = optimize(t, -1.0);
    if (!negated)
        return std::nullopt;
    return *negated;
}

} // namespace vbas
