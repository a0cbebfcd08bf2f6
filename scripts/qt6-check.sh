#!/usr/bin/env bash
# The QGIS 4 stand-in: compiles every QGIS-facing file of the project with -fsyntax-only against
# QGIS 3.44's headers and Qt 6.8's, with -Werror=deprecated-declarations, and fails on any error.
# No Debian ships a QGIS built with Qt6 yet, so nothing is linked or run: the check catches the API
# that QGIS 4 and Qt6 remove or deprecate. Run as root, on the host (Debian 12 or 13): it works in
# the Debian 13 dev root of scripts/debian-root.sh, adding there Debian 13's Qt 6.8 headers
# (qt6-base-dev, qt6-svg-dev) and the headers of libqgis-dev 3.44 from Debian unstable, unpacked
# into /opt/qgis-3.44 (not installed: its dependencies are unstable's).
#
# Prints one line: "Qt6 syntax check: N files against QGIS 3.44... and Qt 6.8... (M passed unchanged before): E errors".
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian unstable keeps one version of a package: when this one is gone the download fails, and this
# line (or VBAS_QGIS_SID_VERSION) must name the one `apt-cache policy libqgis-dev` shows in unstable.
QGIS_SID_VERSION=${VBAS_QGIS_SID_VERSION:-3.44.15+dfsg-1}

if [ "${1:-}" != --inside ]; then
    root=$(scripts/debian-root.sh dev trixie)
    exec scripts/debian-root.sh run "$root" --bind "$PWD:/src:ro" --env "JOBS=${JOBS:-2}" \
        --env "QGIS_SID_VERSION=$QGIS_SID_VERSION" -- /src/scripts/qt6-check.sh --inside
fi

# --- inside the Debian 13 root -------------------------------------------------------------------
export DEBIAN_FRONTEND=noninteractive
missing=()
for p in qt6-base-dev qt6-svg-dev; do
    dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -q > /dev/null
    apt-get install -y -q --no-install-recommends "${missing[@]}" > /tmp/qt6-install.log 2>&1 ||
        { cat /tmp/qt6-install.log >&2; exit 1; }
fi

qgis=/opt/qgis-3.44
if [ "$(cat "$qgis/.version" 2> /dev/null)" != "$QGIS_SID_VERSION" ]; then
    # The shared package folder keeps the .deb (apt names it with %3a for ':'; there is none here).
    deb=/var/cache/apt/archives/libqgis-dev_${QGIS_SID_VERSION}_amd64.deb
    if [ ! -f "$deb" ]; then
        # A separate apt state for unstable, so that the root's own apt never sees it. Unstable's
        # Release file may be past its Valid-Until on a mirror that lags: that is no risk for headers.
        sid=/var/lib/vbas-sid
        mkdir -p "$sid/lists/partial" "$sid/cache/archives/partial"
        echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main" \
            > "$sid/sources.list"
        O=(-o Acquire::Check-Valid-Until=false -o Dir::Etc::SourceList="$sid/sources.list"
            -o Dir::Etc::SourceParts=- -o Dir::State::Lists="$sid/lists" -o Dir::Cache="$sid/cache")
        apt-get "${O[@]}" update -q > /tmp/sid-update.log 2>&1 || { cat /tmp/sid-update.log >&2; exit 1; }
        (cd /tmp && apt-get "${O[@]}" download "libqgis-dev=$QGIS_SID_VERSION") || {
            echo "qt6-check: libqgis-dev $QGIS_SID_VERSION is not in Debian unstable any more." >&2
            echo "  unstable has: $(apt-cache "${O[@]}" policy libqgis-dev | grep Candidate)" >&2
            echo "  set QGIS_SID_VERSION in scripts/qt6-check.sh to that version (or VBAS_QGIS_SID_VERSION)" >&2
            exit 1
        }
        mv "/tmp/libqgis-dev_${QGIS_SID_VERSION}_amd64.deb" "$deb"
    fi
    rm -rf "$qgis"
    mkdir -p "$qgis"
    dpkg-deb -x "$deb" "$qgis"
    echo "$QGIS_SID_VERSION" > "$qgis/.version"
fi

# Configure as the Debian 13 build does, but with QGIS 3.44's headers and Qt6; the compile commands
# of every file that sees QGIS's headers are then run with -fsyntax-only instead of -o.
build=/root/qt6-check
cmake -S /src -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVBAS_REQUIRE_QGIS=ON \
    -DQGIS_INCLUDE_DIR="$qgis/usr/include/qgis" -DVBAS_QT_MAJOR=6 > /tmp/qt6-configure.log 2>&1 ||
    { cat /tmp/qt6-configure.log >&2; exit 1; }
qt_version=$(dpkg-query -W -f='${Version}' qt6-base-dev | sed 's/[+~-].*//')
# A file whose preprocessed text (with the compiler and its arguments) passed once passes again: its
# digest is kept in $passed, in the dev root, so that a run compiles only what changed since one that passed.
passed=$build/passed
mkdir -p "$passed"
python3 - "$build/compile_commands.json" "$qgis/usr/include/qgis" "${JOBS:-2}" \
    "QGIS ${QGIS_SID_VERSION%%+*} and Qt $qt_version" "$passed" << 'EOF'
import concurrent.futures, hashlib, json, os, re, shlex, subprocess, sys

commands_file, qgis_include, jobs, against, passed = sys.argv[1:6]
checks = []
for entry in json.load(open(commands_file)):
    if qgis_include not in entry["command"] or "_autogen" in entry["file"] or "mocs_compilation" in entry["file"]:
        continue
    args = shlex.split(entry["command"])
    i = args.index("-o")
    del args[i:i + 2]
    checks.append((entry["file"], entry["directory"], args))
compiler = subprocess.run([checks[0][2][0], "--version"], capture_output=True).stdout if checks else b""

def check(item):
    file, directory, args = item
    preprocessed = subprocess.run(args + ["-E", "-o", "-"], cwd=directory, capture_output=True)
    stamp = os.path.join(passed, hashlib.sha256(compiler + "\0".join(args).encode() + b"\0" +
                                                preprocessed.stdout).hexdigest())
    if preprocessed.returncode == 0 and os.path.exists(stamp):
        return file, 0, "", True
    run = subprocess.run(args + ["-fsyntax-only", "-Werror=deprecated-declarations"], cwd=directory,
                         capture_output=True, text=True)
    errors = len(re.findall(r"^[^\n]*: (?:fatal )?error: ", run.stderr, re.M))
    if run.returncode != 0 and errors == 0:
        errors = 1  # failed without a diagnostic we recognise: still a failure
    if errors == 0 and preprocessed.returncode == 0:
        open(stamp, "w").close()
    return file, errors, run.stderr, False

total = unchanged = 0
with concurrent.futures.ThreadPoolExecutor(int(jobs)) as pool:
    for file, errors, stderr, seen in pool.map(check, checks):
        total += errors
        unchanged += seen
        if errors:
            sys.stderr.write(stderr)
            print(f"{file}: {errors} errors", flush=True)
print(f"Qt6 syntax check: {len(checks)} files against {against} ({unchanged} passed unchanged before): "
      f"{total} errors")
sys.exit(1 if total or not checks else 0)
EOF
