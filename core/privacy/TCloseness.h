#pragma once

#include "privacy/GroupCriterion.h"

#include <memory>

namespace vbas
{

/**
 * t-closeness (Li, Li and Venkatasubramanian 2007; ARX's distances): the Earth Mover's Distance between a
 * group's distribution of each sensitive field and the released table's is at most t. For a field of
 * categories every two values are equally far apart (EMD = half the L1 distance); for numbers, m values in
 * order are 1/(m - 1) apart (EMD = sum over i of |cumulated difference up to value i| / (m - 1)). Not
 * monotone: a passing group merged with a failing one may fail.
 */
class TCloseness : public GroupCriterion
{
public:
    explicit TCloseness(double t);

    /** Off (not created) at t = 0. */
    static std::unique_ptr<GroupCriterion> create(const StrategyOptions& options);
    static std::vector<OptionSpec> options();

    /** The distance of `group`'s field `field` from the table's, by the field's kind. */
    static double distance(const GroupValues& group, const TableValues& table, std::size_t field);

    std::string describe() const override;
    bool passes(const GroupValues& group, const TableValues& table) const override;
    bool readsTable() const override { return true; }
    bool monotone() const override { return false; }

private:
    double mT;
};

} // namespace vbas
