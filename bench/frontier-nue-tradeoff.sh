#!/usr/bin/env bash
# Withheld records against detail (issue 12): the default release's suppression stages (the refinement,
# then the region moves) of `Frontier_Eastern` with more and more non-uniform entropy (NUE) allowed, so
# that the target "30 % fewer withheld than balanced density at NUE within 5 % of its" can be read against
# what each further percent of NUE buys. The allowance is the refinement's `suppression_entropy_slack`; the
# region moves keep NUE where the refinement left it, so the release's NUE is at most (1 + allowance) times
# balanced density's. Prints one row per s and allowance; asserts nothing.
#
#   bench/frontier-nue-tradeoff.sh [ALLOWANCES] [SITES]   # default: "5 10 20 40 1e9", 200,400,800
#
# Needs the build (scripts/build.sh); about 25 s per allowance at the default site counts.
set -euo pipefail
cd "$(dirname "$0")/.."
bench="${BUILD_DIR:-build}/bench/vbas_bench"
allowances=${1:-5 10 20 40 1e9}
sites=${2:-200,400,800}

printf '%-5s %-10s %9s %9s %9s %8s %8s %8s\n' s "NUE max" withheld BD k-means "vs BD" "vs k-m" "NUE/BD"
for allowance in $allowances; do
    VBAS_FRONTIER_SITES=$sites VBAS_FRONTIER_OPTIONS="suppression_entropy_slack=$allowance" \
        "$bench" --benchmark_filter=Frontier_Eastern/ 2> /dev/null |
        awk -v allowance="$allowance" '
            # A table row ends in: s regions released withheld % DM DM* NUE seconds.
            NF >= 10 && $(NF - 8) ~ /^[0-9]+$/ {
                s = $(NF - 8); withheld = $(NF - 5); nue = $(NF - 1)
                if ($0 ~ /^balanced density  /) { bd[s] = withheld; bdNue[s] = nue }
                else if ($0 ~ /^k-means /) { km[s] = withheld }
                else if ($0 ~ /^refinement\.suppression \+ boundary\.suppression \(/ && $0 !~ /any border/) {
                    label = allowance + 0 >= 1e9 ? "none" : "+" allowance "%"
                    printf "%-5s %-10s %9d %9d %9d %7.1f%% %7.1f%% %+7.1f%%\n", s, label, withheld, bd[s], km[s],
                        100 * (withheld / bd[s] - 1), 100 * (withheld / km[s] - 1), 100 * (nue / bdNue[s] - 1)
                }
            }'
done | sort -s -n -k1,1
