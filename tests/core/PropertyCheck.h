#pragma once

#include "ReleaseCheck.h"

#include <gtest/gtest.h>

namespace vbas::test
{

/** Fails the test when checkRelease() finds the guarantee or conservation broken. */
inline void expectGuarantee(const RecordTable& table, const Dataset& dataset, const PipelineResult& result,
                            Count k)
{
    const std::string problem = checkRelease(table, dataset, result, k);
    ASSERT_TRUE(problem.empty()) << problem;
}

} // namespace vbas::test
