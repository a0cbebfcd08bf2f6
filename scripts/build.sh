#!/usr/bin/env bash
# Configures and builds everything (core, QGIS provider, plugin, runner, tests, benchmarks) into
# build/. Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVBAS_REQUIRE_QGIS=ON "$@"
cmake --build "$BUILD_DIR" -j "${JOBS:-2}"
