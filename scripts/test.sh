#!/usr/bin/env bash
# README's test command: installs the dependencies, builds everything and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-2}"
# A short fuzz run of the engine under the sanitizers (longer runs: scripts/fuzz.sh SECONDS).
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"

