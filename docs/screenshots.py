# Startup hook for the desktop screenshots in docs/ (desktop-toolbox.png, modeler.png, result-map.png),
# run inside real QGIS desktop after the layers of scripts/demo.sh's demo-output/olinda-release.gpkg
# (aggregates, tracts, sites) are loaded. It styles the release, makes the Model Builder open
# docs/examples/olinda-release.model3 (VBAS_EXAMPLE_MODEL) and saves the map canvas (VBAS_MAP_PNG).
import random
from qgis.core import (QgsProject, QgsCategorizedSymbolRenderer, QgsRendererCategory, QgsFillSymbol,
                       QgsMarkerSymbol, QgsPalLayerSettings, QgsVectorLayerSimpleLabeling, QgsTextFormat)
from qgis.PyQt.QtGui import QColor, QFont
rng = random.Random(4)
for layer in QgsProject.instance().mapLayers().values():
    if layer.name() == "aggregates":
        cats = []
        for f in layer.getFeatures():
            color = QColor.fromHsv(rng.randrange(360), 110 + rng.randrange(80), 230)
            sym = QgsFillSymbol.createSimple({"color": color.name(), "outline_color": "#202020", "outline_width": "0.6"})
            cats.append(QgsRendererCategory(f["aggregate_id"], sym, str(f["aggregate_id"])))
        layer.setRenderer(QgsCategorizedSymbolRenderer("aggregate_id", cats))
        s = QgsPalLayerSettings(); s.fieldName = 'concat("released", \' rec.\')'; s.isExpression = True
        fmt = QgsTextFormat(); fmt.setFont(QFont("Sans", 8)); fmt.setSize(8); s.setFormat(fmt)
        layer.setLabeling(QgsVectorLayerSimpleLabeling(s)); layer.setLabelsEnabled(True)
    elif layer.name() == "tracts":
        layer.setRenderer(layer.renderer().__class__(QgsFillSymbol.createSimple(
            {"color": "0,0,0,0", "outline_color": "#606060", "outline_width": "0.1"})))
    elif layer.name() == "sites":
        layer.renderer().setSymbol(QgsMarkerSymbol.createSimple({"name": "circle", "color": "black", "size": "1.6"}))
    layer.triggerRepaint()
# Layer order: tracts over aggregates, sites on top.
root = QgsProject.instance().layerTreeRoot()
for name in ["tracts", "sites"]:
    for layer in QgsProject.instance().mapLayersByName(name):
        node = root.findLayer(layer.id()); clone = node.clone(); root.insertChildNode(0, clone); root.removeChildNode(node)
iface.mapCanvas().refresh()

# The Model Builder opens the example model of docs/examples instead of an empty one.
import os
from processing.modeler.ModelerDialog import ModelerDialog
from qgis.core import QgsProcessingModelAlgorithm
_create = ModelerDialog.create
def _create_with_example(model=None):
    example = QgsProcessingModelAlgorithm()
    example.fromFile(os.environ["VBAS_EXAMPLE_MODEL"])
    dlg = _create(example)
    QTimer.singleShot(1500, lambda: dlg.view().fitInView(dlg.view().scene().itemsBoundingRect().adjusted(-40, -40, 40, 40), 1))
    return dlg
from qgis.PyQt.QtCore import QTimer
ModelerDialog.create = staticmethod(_create_with_example)

# The map alone, once it has rendered.
QTimer.singleShot(3500, lambda: iface.mapCanvas().saveAsImage(os.environ["VBAS_MAP_PNG"]))
