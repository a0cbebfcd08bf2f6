# vbas_discover_test_suites(TARGET): one ctest per GoogleTest suite of TARGET, named by the suite and running its
# tests in one process (--gtest_filter=SUITE.*). The suites are listed from the built executable when ctest
# starts, as gtest_discover_tests lists tests. A headless QGIS test process spends most of a second starting
# QGIS, more than most tests take: a suite's tests share one start. A test that skips (GTEST_SKIP) inside a
# passing suite shows in the suite's output, not in ctest's count of skipped tests.
set(_vbas_test_suites_template ${CMAKE_CURRENT_LIST_DIR}/VbasTestSuites.ctest.in)

function(vbas_discover_test_suites target)
    set(EXECUTABLE "$<TARGET_FILE:${target}>")
    set(TARGET ${target})
    set(configured ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.ctest.in)
    set(script ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake)
    configure_file(${_vbas_test_suites_template} ${configured} @ONLY)
    file(GENERATE OUTPUT ${script} INPUT ${configured})
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
endfunction()
