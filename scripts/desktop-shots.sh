#!/usr/bin/env bash
# The screenshots of QGIS desktop in docs/ (plugin-manager.png, dialog.png, demo-log.png, demo-desktop.png), taken
# from QGIS desktop installed with the packages into a clean root of their Debian, as a user installs them:
# `apt-get install ./vbas-qgis_...deb ./vbas-qgis-cli_...deb`, the plugin ticked, the demo's layers loaded,
# the main job's dialog filled in with scripts/demo.sh's parameters and run (docs/desktop-shots.py drives it).
# Run as root, on the host.
#
#   scripts/desktop-shots.sh SUITE DEB OUTDIR   # SUITE: trixie (Debian 13) or bookworm; DEB: the vbas-qgis
#                                               # package, vbas-qgis-cli of its version beside it
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 3 ] || { echo "usage: $0 bookworm|trixie DEB OUTDIR" >&2; exit 2; }
suite=$1
deb=$(realpath "$2")
cli=$(dirname "$deb")/$(basename "$deb" | sed 's/^vbas-qgis_/vbas-qgis-cli_/')
[ -f "$cli" ] || { echo "$cli is missing: the plugin's package needs it" >&2; exit 2; }
mkdir -p "$3"
out=$(realpath "$3")
root=$(scripts/debian-root.sh clean "$suite")
trap 'scripts/debian-root.sh remove "$root"' EXIT
mkdir -p "$root/shots/data"
cp "$deb" "$cli" docs/desktop-shots.py "$root/shots/"
cp -r data/demo "$root/shots/data/demo"
scripts/debian-root.sh run "$root" -- bash -c '
    set -e
    cd /shots
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q > apt.log 2>&1
    # Open Sans from Debian: QGIS otherwise downloads it on its first start, and says so in a banner when the
    # root cannot reach the font site.
    apt-get install -y -q --no-install-recommends ./vbas-qgis_*.deb ./vbas-qgis-cli_*.deb xvfb xauth \
        fonts-dejavu-core fonts-open-sans >> apt.log 2>&1 || { tail -30 apt.log; exit 1; }
    echo "QGIS $(dpkg-query -W -f="\${Version}" qgis), $(dpkg-query -W -f="\${Package} \${Version}" vbas-qgis)"
    mkdir -p profile runtime project out && chmod 700 runtime
    # The plugin ticked, as a user does in the Plugin Manager; no plugin repository fetched.
    printf "[PythonPlugins]\nvbas_processing=true\n\n[app]\nplugin_installer\\\\checkOnStart=false\n" > global.ini
    SHOTS_OUT=/shots/out SHOTS_DATA=/shots/data/demo SHOTS_PROJECT=/shots/project \
    QGIS_CUSTOM_CONFIG_PATH=/shots/profile XDG_RUNTIME_DIR=/shots/runtime QT_QPA_PLATFORM=xcb \
        timeout 300 xvfb-run -a -s "-screen 0 1400x900x24" qgis --noversioncheck --nologo \
        --globalsettingsfile /shots/global.ini --code /shots/desktop-shots.py > qgis.log 2>&1 || true
    cat out/log.txt 2> /dev/null || true
    ls out/*.png > /dev/null 2>&1 || { echo "QGIS wrote no screenshot; its output:"; tail -40 qgis.log; exit 1; }
'
cp "$root"/shots/out/*.png "$root"/shots/out/log.txt "$out/"
ls -la "$out"
