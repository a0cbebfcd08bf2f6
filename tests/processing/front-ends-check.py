#!/usr/bin/env python3
"""One release through the three front ends a user has: QGIS desktop (under Xvfb) and stock qgis_process,
both with the VBAS plugin, and vbas_process. Their logs must say the same things, their numeric results
must be equal and their published files must hold the same rows: a front end that read ids or values
differently would release different data.

usage: front-ends-check.py --runner VBAS_PROCESS --qgis-process QGIS_PROCESS_BIN --plugins DIR
       --plugin-name NAME --data DATA_DEMO_DIR --work DIR
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The log lines every front end must show alike: the engine's and the io layer's own messages (those with
# times aside).
MESSAGES = re.compile(r"^(Not published|REGIONS are in|\d+ of \d+ small areas hold|Released \d+ of|Withheld \d+ "
                      r"records|What the release cost|Values withheld most|Regions withheld most|"
                      r"Checked the (\d+ )?written file)")

PROGRESS = re.compile(r"^\.*(?:\d+\.+)*")

DESKTOP_CODE = r"""
import json, os, traceback
from qgis.PyQt.QtCore import QTimer
from qgis.core import QgsApplication, QgsProcessingFeedback, QgsProject
import processing
OUT = os.environ["RUN_OUT"]
class Log(QgsProcessingFeedback):
    def __init__(self):
        super().__init__(); self.lines = []
    def pushInfo(self, text): self.lines.append(text)
    def pushWarning(self, text): self.lines.append(text)
    def reportError(self, text, fatal=False): self.lines.append(text)
def run():
    try:
        feedback = Log()
        params = json.load(open(os.path.join(OUT, "parameters.json")))
        results = processing.run("vbas:aggregateregions", params, feedback=feedback)
        json.dump({"log": feedback.lines, "results": {k: v for k, v in results.items()
                   if isinstance(v, (int, float))}}, open(os.path.join(OUT, "desktop.json"), "w"))
    except Exception:
        open(os.path.join(OUT, "error.txt"), "w").write(traceback.format_exc())
    QgsProject.instance().setDirty(False)
    os._exit(0)
QTimer.singleShot(3000, run)
"""


def parameters(data, out):
    return {
        "REGIONS": os.path.join(data, "olinda.gpkg") + "|layername=tracts",
        "REGION_ID_FIELD": "CD_GEOCODI",
        "RECORDS": os.path.join(data, "olinda_patients.csv"),
        "RECORD_REGION_FIELD": "tract",
        "QUASI_IDENTIFIERS": ["age_band", "sex", "married"],
        "SENSITIVE_FIELDS": ["education"],
        "L": 2,
        "K": 5,
        "SITE_COUNT_METHOD": "sitecount.naive_anonymity",
        "NO_LEDGER": True,
        "OUTPUT": os.path.join(out, "aggregates.csv"),
        "OUTPUT_RECORDS": os.path.join(out, "records.csv"),
    }


def command_line(params):
    args = []
    for name, value in params.items():
        for item in value if isinstance(value, list) else [value]:
            args.append("--%s=%s" % (name, item))
    return args


def parse_text(output):
    """Returns the messages and the numeric results of qgis_process / vbas_process text output."""
    log, results = [], {}
    for line in output.splitlines():
        match = re.match(r"^([A-Z_]+):\t(.*)$", line)
        if match:
            try:
                results[match.group(1)] = float(match.group(2))
            except ValueError:
                pass
            continue
        text = PROGRESS.sub("", line)  # qgis_process prints progress ("0...10...20.") before a message
        if MESSAGES.match(text):
            log.append(text)
    return log, results


def clean_environment(**more):
    """The environment for QGIS: no Python of a version manager (pyenv...) on the PATH, whose library
    QGIS's embedded Python would take for its own and then fail to import qgis."""
    env = dict(os.environ, **more)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".pyenv" not in p)
    for key in ("PYTHONHOME", "PYTHONPATH", "PYENV_VERSION", "VIRTUAL_ENV"):
        env.pop(key, None)
    return env


def run(command, env=None):
    done = subprocess.run(command, env=env or clean_environment(), capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        sys.exit("failed (%d): %s\n%s\n%s" % (done.returncode, " ".join(command), done.stdout, done.stderr))
    return done.stdout


def desktop(plugins, plugin_name, params, out, work):
    profile = os.path.join(work, "desktop-profile")
    with open(os.path.join(work, "global.ini"), "w") as ini:
        ini.write("[PythonPlugins]\n%s=true\n" % plugin_name)  # as if ticked in the Plugin Manager
    with open(os.path.join(work, "startup.py"), "w") as code:
        code.write(DESKTOP_CODE)
    with open(os.path.join(out, "parameters.json"), "w") as file:
        json.dump(params, file)
    # Desktop QGIS draws on Xvfb's display: a caller's QT_QPA_PLATFORM=offscreen (the headless advice) would
    # make it abort in QgsClipboard.
    env = clean_environment(RUN_OUT=out, QGIS_CUSTOM_CONFIG_PATH=profile, XDG_RUNTIME_DIR=os.path.join(work, "xdg"),
                            QT_QPA_PLATFORM="xcb", QGIS_PLUGINPATH=os.path.abspath(plugins))
    done = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "qgis.bin", "--noversioncheck",
                           "--nologo", "--globalsettingsfile", os.path.join(work, "global.ini"), "--code",
                           os.path.join(work, "startup.py")], env=env, capture_output=True, text=True, timeout=300)
    if os.path.exists(os.path.join(out, "error.txt")):
        sys.exit("desktop run failed:\n" + open(os.path.join(out, "error.txt")).read())
    if not os.path.exists(os.path.join(out, "desktop.json")):
        sys.exit("QGIS desktop ended (%d) without running the release:\n%s\n%s" % (
            done.returncode, done.stdout[-3000:], done.stderr[-3000:]))
    result = json.load(open(os.path.join(out, "desktop.json")))
    log = [line for line in result["log"] if MESSAGES.match(line)]
    return log, {k: float(v) for k, v in result["results"].items()}


def rows(path):
    with open(path, encoding="utf-8") as file:
        lines = file.read().splitlines()
    return lines[0], sorted(lines[1:])


def main():
    parser = argparse.ArgumentParser()
    for option in ("runner", "qgis-process", "plugins", "plugin-name", "data", "work"):
        parser.add_argument("--" + option, required=True)
    options = parser.parse_args()
    shutil.rmtree(options.work, ignore_errors=True)
    front_ends = {}
    for name in ("vbas_process", "qgis_process", "desktop"):
        os.makedirs(os.path.join(options.work, name))
    out = os.path.join(options.work, "vbas_process")
    front_ends["vbas_process"] = parse_text(
        run([options.runner, "run", "vbas:aggregateregions"] + command_line(parameters(options.data, out))))
    out = os.path.join(options.work, "qgis_process")
    env = clean_environment(QGIS_PLUGINPATH=os.path.abspath(options.plugins), QT_QPA_PLATFORM="offscreen",
                            QGIS_CUSTOM_CONFIG_PATH=os.path.join(options.work, "qgis_process-profile"))
    run([options.qgis_process, "plugins", "enable", options.plugin_name], env)
    front_ends["qgis_process"] = parse_text(
        run([options.qgis_process, "run", "vbas:aggregateregions"] + command_line(parameters(options.data, out)),
            env))
    out = os.path.join(options.work, "desktop")
    front_ends["desktop"] = desktop(options.plugins, options.plugin_name, parameters(options.data, out), out,
                                    options.work)

    failures = []
    reference_log, reference_results = front_ends["vbas_process"]
    if len(reference_log) < 6 or len(reference_results) < 10:
        failures.append("vbas_process said too little to compare: %s %s" % (reference_log, reference_results))
    for name, (log, results) in front_ends.items():
        if log != reference_log:
            failures.append("%s logs\n  %s\nvbas_process logs\n  %s" % (name, "\n  ".join(log),
                                                                          "\n  ".join(reference_log)))
        for key, value in reference_results.items():
            if key not in results or not math.isclose(results[key], value, rel_tol=1e-12, abs_tol=1e-12):
                failures.append("%s: %s = %s, vbas_process: %s" % (name, key, results.get(key), value))
        for output in ("aggregates.csv", "records.csv"):
            if rows(os.path.join(options.work, name, output)) != rows(
                    os.path.join(options.work, "vbas_process", output)):
                failures.append("%s: %s differs from vbas_process's" % (name, output))
    if failures:
        sys.exit("\n".join(failures))
    print("the three front ends agree: %d log lines, %d results, %d released records" % (
        len(reference_log), len(reference_results), reference_results.get("RECORDS_RELEASED", 0)))


if __name__ == "__main__":
    main()
