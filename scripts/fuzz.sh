#!/usr/bin/env bash
# Builds the core engine with clang, libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer
# into build-fuzz/ and fuzzes it for SECONDS (default 60). The corpus grows in fuzz-corpus/
# (kept between runs, not committed). A finding stops the run with the input saved as crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-60}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVBAS_FUZZ=ON \
    -DVBAS_BUILD_TESTS=OFF -DVBAS_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz -j "${JOBS:-2}" --target vbas_fuzz_core
mkdir -p fuzz-corpus
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    build-fuzz/fuzz/vbas_fuzz_core -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -print_final_stats=1 \
    -rss_limit_mb=4096 fuzz-corpus
