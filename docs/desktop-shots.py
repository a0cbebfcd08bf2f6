# Start-up hook (qgis --code) for the desktop screenshots of docs/, run by scripts/desktop-shots.sh in QGIS
# desktop installed from the packages. It does what a user does, step by step, and saves what they see:
#   plugin-manager.png  the Plugin Manager, filtered by "VBAS": one entry, ticked
#   dialog.png          the main job's dialog with the demo's layers, the small areas active, then filled in
#                       with scripts/demo.sh's parameters
#   demo-log.png        the dialog's log once the demo release ran: what it cost, where the report is
#   demo-desktop.png        the map of the release as it arrives, styled by the provider, legends in words
# Environment: SHOTS_OUT (the PNGs and log.txt), SHOTS_DATA (data/demo), SHOTS_PROJECT (the project's
# folder, where the report is kept).
import os
import traceback

import processing
from qgis.core import QgsApplication, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QApplication, QLineEdit, QListView, QTabWidget, QTextEdit
from qgis.utils import iface

OUT = os.environ["SHOTS_OUT"]
DATA = os.environ["SHOTS_DATA"]
state = {}


def log(text):
    with open(os.path.join(OUT, "log.txt"), "a") as file:
        file.write(text + "\n")


def step(function, delay=1500):
    def guarded():
        try:
            function()
        except Exception:
            log(traceback.format_exc())
            finish()

    QTimer.singleShot(delay, guarded)


def finish():
    QgsProject.instance().setDirty(False)
    os._exit(0)


def plugin_manager():
    iface.mainWindow().move(0, 0)
    iface.mainWindow().resize(1400, 900)  # the screen's size: Xvfb has no window manager to maximize it
    QgsProject.instance().setPresetHomePath(os.environ["SHOTS_PROJECT"])
    state["tracts"] = QgsVectorLayer(os.path.join(DATA, "olinda.gpkg") + "|layername=tracts", "tracts", "ogr")
    state["patients"] = QgsVectorLayer(os.path.join(DATA, "olinda_patients.csv"), "patients", "ogr")
    QgsProject.instance().addMapLayers([state["tracts"], state["patients"]])
    iface.setActiveLayer(state["tracts"])
    step(filter_plugins)  # before the trigger: the Plugin Manager is modal, and its loop runs the timer
    iface.actionManagePlugins().trigger()  # Plugins > Manage and Install Plugins...


def plugin_manager_window():
    return next(w for w in QApplication.topLevelWidgets() if w.isVisible() and w.objectName() == "QgsPluginManagerBase")


def filter_plugins():
    window = plugin_manager_window()
    window.resize(1000, 620)
    for edit in window.findChildren(QLineEdit):
        if edit.objectName() == "leFilter":
            edit.setText("VBAS")
    step(select_plugin)


def select_plugin():
    plugins_view = plugin_manager_window().findChild(QListView, "vwPlugins")
    plugins_view.setCurrentIndex(plugins_view.model().index(0, 0))  # its details, as a click shows them
    step(shoot_plugins)


def shoot_plugins():
    window = plugin_manager_window()
    window.grab().save(os.path.join(OUT, "plugin-manager.png"))
    window.close()
    dialog = processing.createAlgorithmDialog("vbas:aggregateregions")
    dialog.resize(900, 860)
    dialog.show()
    state["dialog"] = dialog
    step(shoot_opened)


def shoot_opened():
    panel = state["dialog"].mainWidget()
    log("opened with REGIONS %s and RECORDS %s" % (panel.wrappers["REGIONS"].parameterValue(),
                                                  panel.wrappers["RECORDS"].parameterValue()))
    panel.setParameters({
        "REGIONS": state["tracts"].id(), "REGION_ID_FIELD": "CD_GEOCODI",
        "RECORDS": state["patients"].id(), "RECORD_REGION_FIELD": "tract",
        "QUASI_IDENTIFIERS": ["age", "sex", "married"], "K": 5, "SENSITIVE_FIELDS": ["education"], "L": 2,
        "SUPPRESSION_BUDGET": 1, "GENERALIZATION": "age: interval 5 10 20 max 10", "RECORD_ID_FIELD": "patient_id"})
    step(shoot_dialog)


def shoot_dialog():
    state["dialog"].grab().save(os.path.join(OUT, "dialog.png"))
    state["dialog"].runAlgorithm()
    step(wait_for_release, 3000)


def wait_for_release():
    if QgsApplication.taskManager().countActiveTasks() > 0:
        step(wait_for_release, 1000)
        return
    dialog = state["dialog"]
    for tabs in dialog.findChildren(QTabWidget):
        tabs.setCurrentIndex(tabs.count() - 1)  # the log
    step(shoot_log)


def shoot_log():
    dialog = state["dialog"]
    dialog.grab().save(os.path.join(OUT, "demo-log.png"))
    for text in dialog.findChildren(QTextEdit):
        if text.objectName() == "txtLog":
            log("the dialog's log:\n" + text.toPlainText())
    dialog.close()
    for layer in (state["tracts"], state["patients"]):
        node = QgsProject.instance().layerTreeRoot().findLayer(layer)
        if node:
            node.setItemVisibilityChecked(False)
    canvas = iface.mapCanvas()
    canvas.setExtent(state["tracts"].extent().buffered(state["tracts"].extent().width() * 0.03))
    canvas.refresh()
    step(shoot_map, 4000)


def shoot_map():
    iface.mainWindow().grab().save(os.path.join(OUT, "demo-desktop.png"))
    log("layers: " + ", ".join(layer.name() for layer in QgsProject.instance().mapLayers().values()))
    finish()


step(plugin_manager, 4000)
