#!/usr/bin/env bash
# Writes the reference releases of cases.txt with vbas_process, for vbasreferencereleasetest.cpp.
#
#   tests/processing/data/reference/make-reference.sh build/runner/vbas_process [OUTPUT_FOLDER]
#
# For each case NAME, into OUTPUT_FOLDER (default: this folder):
#   NAME_aggregates.csv  OUTPUT_REVIEW without geometry: every published field of the aggregated regions
#                        plus the withheld counts (the published OUTPUT holds the same rows, fewer fields)
#   NAME_mapping.csv     OUTPUT_MAPPING without geometry: small area id, aggregate_id (only algorithms
#                        that make one)
#   NAME_records.csv     OUTPUT_RECORDS as a multiset: each distinct released row, as vbas_process wrote
#                        it, once, with its number of copies in a last column reference_count. Rows come
#                        in a random order on every run (docs/publishing.md), so the order is dropped;
#                        nothing else is, and the file stays small.
# Nothing is rounded by this script: values are as QGIS's CSV writer writes them (floating-point numbers
# with 15 significant digits, hence the test's relative tolerance of 1e-9).
#
# Regenerate only when a release is meant to change (README.md says when).
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 PATH/TO/vbas_process [OUTPUT_FOLDER]" >&2
    exit 2
fi
tool=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out=$(realpath "${2:-$here}")
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

while read -ra words; do
    [[ ${#words[@]} -eq 0 || ${words[0]} == \#* ]] && continue
    name=${words[0]}
    algorithm=${words[1]}
    arguments=()
    for assignment in "${words[@]:2}"; do
        key=${assignment%%=*}
        value=${assignment#*=}
        [[ $value == data/* ]] && value=$repo/$value
        arguments+=("--$key=$value")
    done
    arguments+=("--OUTPUT=$work/$name-published.csv" "--OUTPUT_REVIEW=$work/$name-review.csv"
                "--OUTPUT_RECORDS=$work/$name-records.csv")
    mapping=no
    # The help whole first: grep -q leaving the pipe early would fail it under pipefail.
    help=$("$tool" help "$algorithm")
    if grep -q '^  OUTPUT_MAPPING:' <<< "$help"; then
        mapping=yes
        arguments+=("--OUTPUT_MAPPING=$work/$name-mapping.csv")
    fi
    # A release from a script needs a ledger or NO_LEDGER (the test keeps none either).
    if grep -q '^  NO_LEDGER:' <<< "$help"; then
        arguments+=("--NO_LEDGER=true")
    fi
    echo "== $name: $algorithm" >&2
    "$tool" run "$algorithm" "${arguments[@]}" >"$work/$name.log"

    cp "$work/$name-review.csv" "$out/${name}_aggregates.csv"
    [[ $mapping == yes ]] && cp "$work/$name-mapping.csv" "$out/${name}_mapping.csv"
    # The multiset of the records: identical lines counted (CSV lines as written, so every field as
    # text), sorted in the C locale so that two runs give the same file.
    {
        printf '%s,reference_count\n' "$(head -n 1 "$work/$name-records.csv")"
        tail -n +2 "$work/$name-records.csv" | LC_ALL=C sort | LC_ALL=C uniq -c |
            sed -E 's/^ *([0-9]+) (.*)$/\2,\1/'
    } >"$out/${name}_records.csv"
done <"$here/cases.txt"
