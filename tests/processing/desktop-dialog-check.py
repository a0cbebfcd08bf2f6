#!/usr/bin/env python3
"""The main job's dialog as a user first sees it, in real QGIS desktop under Xvfb with the VBAS plugin: with the
demo's layers loaded and the small areas the active layer, the small areas start on them and the records on the
patients, not on the small areas too, and errors lead with the dialog's labels (issue 42); once chosen, the field parameters start empty (QGIS would
offer each layer's first field, fid and patient_id, which are wrong; issue 31); at most about a dozen
parameters show before the advanced ones.

usage: desktop-dialog-check.py --plugins PLUGINS_DIR --plugin-name NAME --data DATA_DEMO_DIR --work DIR
       [--screenshot PNG]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

DESKTOP_CODE = r"""
import json, os, traceback
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QGroupBox, QWidget
from qgis.core import QgsProject, QgsProcessingContext, QgsProcessingFeedback, QgsVectorLayer
from qgis.utils import iface
import processing
OUT = os.environ["RUN_OUT"]
DATA = os.environ["RUN_DATA"]
state = {}
def values(panel):
    return {name: wrapper.parameterValue() for name, wrapper in panel.wrappers.items()}
def shown_before_advanced(dialog, panel):
    # The inputs outside the advanced group (QGIS lists the outputs after it) and the outputs made by default.
    boxes = [b for b in panel.findChildren(QGroupBox) if "dvanced" in b.title()]
    def in_advanced(widget):
        while widget is not None:
            if widget in boxes:
                return True
            widget = widget.parentWidget()
        return False
    outputs = {p.name() for p in dialog.algorithm().destinationParameterDefinitions()}
    inputs = sorted(name for name, wrapper in panel.wrappers.items()
                    if name not in outputs and wrapper.wrappedWidget() is not None
                    and not in_advanced(wrapper.wrappedWidget()))
    made = sorted(p.name() for p in dialog.algorithm().destinationParameterDefinitions() if p.createByDefault())
    return inputs, made
class Errors(QgsProcessingFeedback):
    def __init__(self):
        super().__init__(); self.lines = []
    def reportError(self, text, fatal=False): self.lines.append(text)
def finish():
    try:
        dialog = state["dialog"]
        panel = dialog.mainWidget()
        result = state["result"]
        result["chosen"] = {k: str(v) for k, v in values(panel).items()}
        result["before_advanced"], result["outputs_made"] = shown_before_advanced(dialog, panel)
        dialog.grab().save(os.path.join(OUT, "dialog.png"))
        # An error as the desktop shows it: the dialog's label first, the name for scripts.
        errors = Errors()
        try:
            processing.run("vbas:checkanonymity", {"INPUT": state["patients"].id(), "REGION_FIELD": "regoin",
                                                   "K": 5}, feedback=errors)
        except Exception as error:  # processing.run raises what the dialog reports
            errors.lines.append(str(error))
        result["error"] = "\n".join(errors.lines)
        json.dump(result, open(os.path.join(OUT, "dialog.json"), "w"), indent=1)
    except Exception:
        open(os.path.join(OUT, "error.txt"), "w").write(traceback.format_exc())
    QgsProject.instance().setDirty(False)
    os._exit(0)
def choose():
    try:
        dialog = state["dialog"]
        panel = dialog.mainWidget()
        state["result"]["opened"] = {k: str(v) for k, v in values(panel).items()}
        context = QgsProcessingContext()
        context.setProject(QgsProject.instance())
        panel.wrappers["REGIONS"].setParameterValue(state["tracts"].id(), context)
        panel.wrappers["RECORDS"].setParameterValue(state["patients"].id(), context)
    except Exception:
        open(os.path.join(OUT, "error.txt"), "w").write(traceback.format_exc())
        os._exit(0)
    QTimer.singleShot(1500, finish)
def start():
    try:
        state["tracts"] = QgsVectorLayer(os.path.join(DATA, "olinda.gpkg") + "|layername=tracts", "tracts", "ogr")
        state["patients"] = QgsVectorLayer(os.path.join(DATA, "olinda_patients.csv"), "patients", "ogr")
        QgsProject.instance().addMapLayers([state["tracts"], state["patients"]])
        iface.setActiveLayer(state["tracts"])  # the small areas active, as after loading or styling them
        state["result"] = {"layers": {"tracts": state["tracts"].id(), "patients": state["patients"].id()}}
        dialog = processing.createAlgorithmDialog("vbas:aggregateregions")
        dialog.resize(1000, 980)
        dialog.show()
        state["dialog"] = dialog
    except Exception:
        open(os.path.join(OUT, "error.txt"), "w").write(traceback.format_exc())
        os._exit(0)
    QTimer.singleShot(1500, choose)
QTimer.singleShot(3000, start)
"""


def clean_environment(**more):
    """QGIS's embedded Python must be the system's: no version manager's Python on the PATH."""
    env = dict(os.environ, **more)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".pyenv" not in p)
    for key in ("PYTHONHOME", "PYTHONPATH", "PYENV_VERSION", "VIRTUAL_ENV"):
        env.pop(key, None)
    return env


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugins", required=True)
    parser.add_argument("--plugin-name", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--screenshot")
    options = parser.parse_args()
    work = os.path.abspath(options.work)
    shutil.rmtree(work, ignore_errors=True)
    out = os.path.join(work, "out")
    os.makedirs(out)
    with open(os.path.join(work, "global.ini"), "w") as ini:
        ini.write("[PythonPlugins]\n%s=true\n" % options.plugin_name)  # as if ticked in the Plugin Manager
    with open(os.path.join(work, "startup.py"), "w") as code:
        code.write(DESKTOP_CODE)
    # Desktop QGIS draws on Xvfb: whatever QT_QPA_PLATFORM the caller has, it needs xcb.
    env = clean_environment(RUN_OUT=out, RUN_DATA=os.path.abspath(options.data), QT_QPA_PLATFORM="xcb",
                            QGIS_PLUGINPATH=os.path.abspath(options.plugins),
                            QGIS_CUSTOM_CONFIG_PATH=os.path.join(work, "profile"),
                            XDG_RUNTIME_DIR=os.path.join(work, "xdg"))
    done = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", "qgis.bin", "--noversioncheck",
                           "--nologo", "--globalsettingsfile", os.path.join(work, "global.ini"), "--code",
                           os.path.join(work, "startup.py")], env=env, capture_output=True, text=True, timeout=300)
    if os.path.exists(os.path.join(out, "error.txt")):
        sys.exit("the dialog could not be opened:\n" + open(os.path.join(out, "error.txt")).read())
    if not os.path.exists(os.path.join(out, "dialog.json")):
        sys.exit("QGIS desktop ended (%d) without opening the dialog:\n%s\n%s" % (
            done.returncode, done.stdout[-2000:], done.stderr[-2000:]))
    result = json.load(open(os.path.join(out, "dialog.json")))
    problems = []
    layers = result["layers"]
    if result["opened"]["REGIONS"] != layers["tracts"] or result["opened"]["RECORDS"] != layers["patients"]:
        problems.append("with the small areas active, the dialog opens on REGIONS %r and RECORDS %r; expected the "
                        "small areas (%s) and the patients (%s)" % (result["opened"]["REGIONS"],
                                                                   result["opened"]["RECORDS"], layers["tracts"],
                                                                   layers["patients"]))
    if "Released region field \u2014 REGION_FIELD: INPUT has no field 'regoin'" not in result["error"]:
        problems.append("an error in QGIS desktop does not lead with the dialog's label: %r" % result["error"])
    for moment in ("opened", "chosen"):
        for field in ("REGION_ID_FIELD", "RECORD_REGION_FIELD", "QUASI_IDENTIFIERS"):
            if result[moment][field] not in ("", "NULL", "None", "[]"):
                problems.append("%s starts as %r once the layers are %s" % (field, result[moment][field], moment))
    if result["chosen"]["REGIONS"] in ("", "None", "NULL") or result["chosen"]["RECORDS"] in ("", "None", "NULL"):
        problems.append("the layers were not chosen: %r" % result["chosen"])
    shown, made = result["before_advanced"], result["outputs_made"]
    print("inputs before the advanced ones (%d): %s" % (len(shown), ", ".join(shown)))
    print("outputs made by default (%d): %s" % (len(made), ", ".join(made)))
    if len(shown) > 12:
        problems.append("%d inputs show before the advanced ones; the main job needs about 12" % len(shown))
    if len(made) > 4:
        problems.append("a first run makes %d outputs: %s" % (len(made), ", ".join(made)))
    for needed in ("REGIONS", "REGION_ID_FIELD", "RECORDS", "RECORD_REGION_FIELD", "QUASI_IDENTIFIERS", "K"):
        if needed not in shown:
            problems.append("%s is not among the first parameters" % needed)
    if options.screenshot:
        shutil.copy(os.path.join(out, "dialog.png"), options.screenshot)
    if problems:
        sys.exit("\n".join(problems))
    print("the field parameters start empty; the dialog is in %s" % os.path.join(out, "dialog.png"))


if __name__ == "__main__":
    main()
