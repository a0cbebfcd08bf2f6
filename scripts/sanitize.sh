#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer into build-sanitize/ and
# runs the whole test suite there. Leak reports from QGIS and Qt at exit are switched off in the
# headless QGIS runs (tests/processing); the engine's own tests keep leak detection.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
BUILD_DIR=build-sanitize scripts/build.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVBAS_SANITIZE=ON -DVBAS_BUILD_BENCH=OFF
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --test-dir build-sanitize --output-on-failure -j "${JOBS:-2}"
