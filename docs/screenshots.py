# Startup hook for the desktop screenshots in docs/ (desktop-styled.png, desktop-areas.png, result-map.png,
# modeler.png), run inside real QGIS desktop by /work/shared/tools/qgis-desktop-shot.sh:
#
#   qgis-desktop-shot.sh -p build/plugin/libvbasplugin.so -c docs/screenshots.py -m -o qgis-shot
#   (environment: VBAS_DEMO_DATA=data/demo, VBAS_EXAMPLE_MODEL=docs/examples/olinda-release.model3,
#    VBAS_MAP_PNG=qgis-shot/result-map.png, VBAS_AREAS_PNG=qgis-shot/desktop-areas.png; desktop.png is
#    desktop-styled.png)
#
# It runs the demo release the way a user does, through Processing with its results loaded into the
# project, so the layers arrive styled by the provider's own post-processor: no styling here. It then
# saves the window with the aggregated regions hidden (the small areas in their region's colours),
# saves the map canvas, and makes the Model Builder open the example model.
import os
import processing
from qgis.core import QgsProcessing, QgsProject
from qgis.PyQt.QtCore import QTimer

data = os.environ["VBAS_DEMO_DATA"]
results = processing.runAndLoadResults("vbas:aggregateregions", {
    "REGIONS": os.path.join(data, "olinda.gpkg") + "|layername=tracts", "REGION_ID_FIELD": "CD_GEOCODI",
    "RECORDS": os.path.join(data, "olinda_patients.csv"), "RECORD_REGION_FIELD": "tract",
    "QUASI_IDENTIFIERS": ["age_band", "sex", "married"], "K": 5,
    "SITE_COUNT_METHOD": "sitecount.naive_anonymity",
    "OUTPUT": QgsProcessing.TEMPORARY_OUTPUT, "OUTPUT_MAPPING": QgsProcessing.TEMPORARY_OUTPUT,
    "OUTPUT_SITES": QgsProcessing.TEMPORARY_OUTPUT})
aggregates = QgsProject.instance().mapLayer(results["OUTPUT"])
iface.mapCanvas().setExtent(aggregates.extent().buffered(aggregates.extent().width() * 0.03))
iface.mapCanvas().refresh()
aggregates_node = QgsProject.instance().layerTreeRoot().findLayer(aggregates)


def areas_shot():
    iface.mainWindow().grab().save(os.environ["VBAS_AREAS_PNG"])
    aggregates_node.setItemVisibilityChecked(True)


def hide_aggregates():
    aggregates_node.setItemVisibilityChecked(False)
    QTimer.singleShot(1200, areas_shot)


# The tool takes desktop.png 4 s after this hook: the map canvas first, then the small areas alone, and
# the aggregated regions back on before the main shot.
QTimer.singleShot(800, lambda: iface.mapCanvas().saveAsImage(os.environ["VBAS_MAP_PNG"]))
QTimer.singleShot(1200, hide_aggregates)

# The Model Builder opens the example model of docs/examples instead of an empty one.
from processing.modeler.ModelerDialog import ModelerDialog
from qgis.core import QgsProcessingModelAlgorithm
_create = ModelerDialog.create


def _create_with_example(model=None):
    example = QgsProcessingModelAlgorithm()
    example.fromFile(os.environ["VBAS_EXAMPLE_MODEL"])
    dlg = _create(example)
    QTimer.singleShot(1500, lambda: dlg.view().fitInView(
        dlg.view().scene().itemsBoundingRect().adjusted(-40, -40, 40, 40), 1))
    return dlg


ModelerDialog.create = staticmethod(_create_with_example)
