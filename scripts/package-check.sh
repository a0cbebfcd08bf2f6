#!/usr/bin/env bash
# Installs the VBAS packages the way a user does, into a clean root of their Debian (a throw-away copy of
# scripts/debian-root.sh's pristine root: nothing of the build, nothing installed by hand), with
# `apt-get install ./...deb`, which fetches their Depends from Debian:
#   1. vbas-qgis-cli alone, the engine and vbas_process: no QGIS desktop may come with it, and
#      scripts/demo.sh runs through vbas_process (the demo release, then the next quarter on its regions),
#      vbas:checkanonymity passing each released table;
#   2. then vbas-qgis, the QGIS plugin: stock qgis_process lists no vbas algorithm and says how to enable it,
#      then, enabled, lists them, and scripts/demo.sh runs through it the same way.
# Run as root, on the host.
#
#   scripts/package-check.sh SUITE DEB     # SUITE: bookworm (Debian 12) or trixie (Debian 13); DEB: the
#                                          # vbas-qgis package, with vbas-qgis-cli of its version beside it
#
# Only the .debs, data/demo and scripts/demo.sh (with this script) are copied into the root.
set -euo pipefail
cd "$(dirname "$0")/.."

# The digest of what a demo release published (demo-output/publish/ or FOLDER): every cell of every .csv, its
# rows in sorted order, and every row of every layer of every .gpkg, geometry blobs byte for byte. Not the
# CSV files' bytes: the released records are shuffled from the system's randomness on every run, and GDAL
# 3.6 (Debian 12) quotes numbers where GDAL 3.10 (Debian 13) does not. Not the GeoPackages' own timestamps,
# and not map.png, which each QGIS draws with its own fonts.
published_digest() {
    python3 - "${1:-demo-output/publish}" << 'EOF'
import csv, hashlib, os, sqlite3, sys

digest = hashlib.sha256()
for folder, _, files in sorted(os.walk(sys.argv[1])):
    for name in sorted(files):
        path = os.path.join(folder, name)
        digest.update(os.path.relpath(path, sys.argv[1]).encode() + b"\0")
        if name.endswith(".csv"):
            header, *rows = csv.reader(open(path, newline="", encoding="utf-8"))
            digest.update(repr([header] + sorted(rows)).encode())
        elif name.endswith(".gpkg"):
            database = sqlite3.connect(path)
            for (table,) in database.execute("SELECT table_name FROM gpkg_contents ORDER BY table_name"):
                digest.update(table.encode() + b"\0")
                for row in database.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
                    digest.update(repr(row).encode())
print(digest.hexdigest())
EOF
}

# Runs scripts/demo.sh with RUNNER, a command of qgis_process syntax, and checks that every release passes.
check_demo() {
    local runner=$1 log=$2
    VBAS_DEMO_RUNNER=$runner scripts/demo.sh > "$log" 2>&1 || { cat "$log"; exit 1; }
    grep -v '^[0-9.]*$' "$log" | sed 's/^[0-9.]*VERDICT/VERDICT/'
    passes=$(grep -c 'VERDICT PASS' "$log" || true)
    if [ "$passes" = 0 ] || grep -q 'VERDICT FAIL' "$log"; then
        echo "a demo release fails the check"
        exit 1
    fi
}

if [ "${1:-}" = --inside ]; then
    # --- inside the clean root, from /vbas-check --------------------------------------------------
    cd /vbas-check
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q > apt-update.log 2>&1 || { cat apt-update.log; exit 1; }
    # Without Recommends: the Depends alone must make it work.
    apt-get install -y -q --no-install-recommends ./vbas-qgis-cli_*.deb > apt-install-cli.log 2>&1 ||
        { cat apt-install-cli.log; exit 1; }
    echo "installed: $(dpkg-query -W -f='${Package} ${Version}' vbas-qgis-cli), with $(grep -o '[0-9]* newly installed' apt-install-cli.log) packages, $(grep -o 'After this operation, .* of additional disk space' apt-install-cli.log | sed 's/After this operation, //; s/ of additional disk space//')"
    dpkg-query -W -f='${Depends}\n' vbas-qgis-cli | sed 's/^/Depends: /'
    if dpkg-query -W -f='${Status}' qgis 2> /dev/null | grep -q 'ok installed'; then
        echo "vbas-qgis-cli brought QGIS desktop (the package qgis) with it"
        exit 1
    fi
    # Every library the binaries need comes with the package's Depends.
    for binary in /usr/bin/vbas_process $(dpkg -L vbas-qgis-cli | grep '\.so$'); do
        if ldd "$binary" | grep 'not found'; then
            echo "$binary: a library is missing (the Depends are incomplete)"
            exit 1
        fi
    done
    echo "running /usr/bin/vbas_process, without QGIS desktop"
    check_demo /usr/bin/vbas_process demo-cli.log
    cp -r demo-output/publish published-cli # its digest once python3 is here, with the plugin
    echo "package check: scripts/demo.sh through vbas_process of vbas-qgis-cli alone: $passes releases, each VERDICT PASS"

    apt-get install -y -q --no-install-recommends ./vbas-qgis_*.deb > apt-install.log 2>&1 ||
        { cat apt-install.log; exit 1; }
    echo "installed: $(dpkg-query -W -f='${Package} ${Version}' vbas-qgis), with $(grep -o '[0-9]* newly installed' apt-install.log) more packages"
    echo "QGIS: $(dpkg-query -W -f='${Version}' qgis)"
    dpkg-query -W -f='${Depends}\n' vbas-qgis | sed 's/^/Depends: /'
    # One entry in the Plugin Manager: the Python plugin alone, no C++ plugin beside it.
    if dpkg -L vbas-qgis vbas-qgis-cli | grep -q '^/usr/lib/qgis/plugins/'; then
        echo "a C++ plugin would be a second entry in the Plugin Manager"
        exit 1
    fi

    # Stock qgis_process. Debian 12's /usr/bin/qgis_process
    # wrapper passes an option QGIS 3.22 rejects, so there the binary itself is called; Debian 13's
    # wrapper drops that option, so there it is the command users type.
    case $(dpkg-query -W -f='${Version}' qgis) in
        3.22.*) qgis_process=qgis_process.bin ;;
        *) qgis_process=qgis_process ;;
    esac
    # Headless (no display), with a profile of its own.
    printf '#!/bin/sh\nexec env QT_QPA_PLATFORM=offscreen QGIS_CUSTOM_CONFIG_PATH=/vbas-check/profile XDG_RUNTIME_DIR=/vbas-check/runtime %s "$@"\n' \
        "$(command -v $qgis_process)" > qgis-process-headless
    chmod 755 qgis-process-headless
    mkdir -p profile runtime && chmod 700 runtime
    echo "running $(command -v $qgis_process)"
    ./qgis-process-headless list > list.log 2> list.err || { cat list.log list.err; exit 1; }
    if grep -q 'vbas:' list.log || ! grep -q "plugins enable vbas_processing" list.err; then
        echo "before the plugin is enabled, qgis_process list must list no vbas algorithm and say how to enable it:"
        cat list.log list.err
        exit 1
    fi
    echo "not enabled yet, qgis_process list says: $(grep 'plugins enable' list.err)"
    ./qgis-process-headless plugins enable vbas_processing > enable.log 2>&1 || { cat enable.log; exit 1; }
    ./qgis-process-headless list > list.log 2>&1 || { cat list.log; exit 1; }
    grep 'vbas:' list.log || { echo "qgis_process list shows no vbas algorithm:"; cat list.log; exit 1; }
    algorithms=$(grep -c 'vbas:' list.log)

    # scripts/demo.sh itself, with stock qgis_process as its runner: the demo release (with its ledger),
    # the next quarter on its regions, each released table checked by vbas:checkanonymity.
    check_demo /vbas-check/qgis-process-headless demo.log
    echo "package check: $algorithms vbas algorithms listed by stock $qgis_process; scripts/demo.sh through it: $passes releases, each VERDICT PASS"
    # The same release from both front ends; scripts/test.sh compares this line across the Debians.
    digest=$(published_digest)
    if [ "$(published_digest published-cli)" != "$digest" ]; then
        echo "vbas_process and qgis_process published different demo releases"
        exit 1
    fi
    echo "published by the demo (layers and CSV): sha256 $digest"
    exit 0
fi

# --- on the host --------------------------------------------------------------------------------
[ $# = 2 ] || { echo "usage: $0 bookworm|trixie DEB" >&2; exit 2; }
suite=$1
deb=$(realpath "$2")
cli=$(dirname "$deb")/$(basename "$deb" | sed 's/^vbas-qgis_/vbas-qgis-cli_/')
[ -f "$cli" ] || { echo "$cli is missing: the plugin's package needs it" >&2; exit 2; }
root=$(scripts/debian-root.sh clean "$suite")
trap 'scripts/debian-root.sh remove "$root"' EXIT
mkdir "$root/vbas-check"
cp "$deb" "$cli" "$root/vbas-check/"
mkdir -p "$root/vbas-check/data" "$root/vbas-check/scripts"
cp -r data/demo "$root/vbas-check/data/demo"
cp scripts/demo.sh scripts/package-check.sh "$root/vbas-check/scripts/"
scripts/debian-root.sh run "$root" -- bash /vbas-check/scripts/package-check.sh --inside
