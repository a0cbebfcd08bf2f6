#pragma once

#include "ReleaseCheck.h"

#include <gtest/gtest.h>

namespace vbas::test
{

/** Fails the test when checkRelease() finds the guarantee, l-diversity or conservation broken. */
inline void expectGuarantee(const RecordTable& table, const Dataset& dataset, const PipelineResult& result,
                            Count k, const DiversityRule& diversity = {})
{
    const std::string problem = checkRelease(table, dataset, result, k, diversity);
    ASSERT_TRUE(problem.empty()) << problem;
}

} // namespace vbas::test
