"""The records input (RECORDS) in the dialogs of VBAS's algorithms.

QGIS starts a required layer input on the active layer whenever the input accepts that kind of layer. Records
come as a table or as points, but the input must accept every vector layer (a table is no geometry type), so
with the small areas active, the usual case, the records started on the small areas too. Processing makes
this wrapper for the parameters whose metadata names it ({"widget_wrapper": {"class": ...}}): QGIS's own
widget for the parameter, which in the algorithm dialog then starts on the active layer only when that is a
table or points, else on the first table or point layer of the project, else empty.
"""

from qgis.core import Qgis, QgsProject, QgsVectorLayer, QgsWkbTypes
from qgis.gui import QgsGui, QgsMapLayerComboBox, QgsProcessingGui
from qgis.PyQt import sip
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QComboBox

if hasattr(Qgis, "GeometryType"):  # QGIS 3.30 and later
    _RECORD_GEOMETRIES = (Qgis.GeometryType.Point, Qgis.GeometryType.Null)
else:
    _RECORD_GEOMETRIES = (QgsWkbTypes.PointGeometry, QgsWkbTypes.NullGeometry)


def holds_records(layer):
    """Whether `layer` is of a kind records come as: a table, or points."""
    return isinstance(layer, QgsVectorLayer) and layer.geometryType() in _RECORD_GEOMETRIES


def first_records_layer(project):
    """The first table or point layer of `project` by name, as the layer lists show them; None when none."""
    layers = sorted(project.mapLayers().values(), key=lambda layer: layer.name().lower())
    return next((layer for layer in layers if holds_records(layer)), None)


def _layer_combo(widget):
    """The QgsMapLayerComboBox inside QGIS's input widget (which itself has no Python binding)."""
    for child in widget.findChildren(QComboBox):
        if child.metaObject().className() == "QgsMapLayerComboBox":
            return sip.cast(child, QgsMapLayerComboBox)
    return None


def _start_on_records(wrapper):
    try:
        widget = wrapper.wrappedWidget()
        combo = _layer_combo(widget) if widget is not None else None
    except RuntimeError:  # the dialog was closed before this ran
        return
    if combo is None or combo.currentLayer() is None or holds_records(combo.currentLayer()):
        return
    combo.setLayer(first_records_layer(QgsProject.instance()))  # None leaves it empty


class RecordsInput:
    """Makes QGIS's own widget wrapper for the parameter, as Processing would without the metadata."""

    def __new__(cls, param, dialog, row=0, col=0):
        dialog_type = type(dialog).__name__
        registry = QgsGui.processingGuiRegistry()
        if dialog_type == "ModelerParametersDialog":
            return registry.createModelerParameterWidget(dialog.model, dialog.childId, param, dialog.context)
        if dialog_type == "BatchAlgorithmDialog":
            wrapper = registry.createParameterWidgetWrapper(param, QgsProcessingGui.Batch)
        else:
            wrapper = registry.createParameterWidgetWrapper(param, QgsProcessingGui.Standard)
            # The dialog makes the widget, with the active layer, right after this returns.
            QTimer.singleShot(0, lambda: _start_on_records(wrapper))
        wrapper.setDialog(dialog)
        return wrapper
