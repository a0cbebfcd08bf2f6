"""VBAS's hint for stock qgis_process, installed as <prefix>/share/QGIS/QGIS3/startup.py: QGIS runs every
startup.py of its data folders when its Python starts, in desktop QGIS and in qgis_process alike.

qgis_process loads a Python plugin only once it is enabled in the profile, and then lists no VBAS algorithm
and says nothing. So when qgis_process is asked for algorithms (list, or help or run of a vbas: one) while
the VBAS plugin is installed but not enabled, this says on stderr how to enable it. It does nothing anywhere
else, and never fails QGIS's start.
"""

PLUGIN = "vbas_processing"


def _hint():
    import os
    import sys

    from qgis.core import Qgis, QgsApplication, QgsSettings
    from qgis.PyQt.QtCore import QCoreApplication
    import qgis.utils

    if QgsApplication.platform() != "qgis_process":
        return
    words = [word for word in QCoreApplication.arguments()[1:] if not word.startswith("--")]
    if not words or words[0] not in ("list", "help", "run"):
        return
    if words[0] != "list" and not (len(words) > 1 and words[1].startswith("vbas:")):
        return
    if QgsSettings().value("PythonPlugins/" + PLUGIN, False, type=bool):
        return
    if not any(os.path.isdir(os.path.join(path, PLUGIN)) for path in qgis.utils.plugin_paths):
        return
    # Debian's qgis_process wrapper passes an option QGIS 3.22 rejects: there the binary is the command.
    command = "qgis_process.bin" if Qgis.QGIS_VERSION_INT < 32400 else "qgis_process"
    sys.stderr.write(
        "VBAS is installed but not enabled in this QGIS profile, so qgis_process shows no vbas: algorithm. "
        "Enable it once with:\n    %s plugins enable %s\n(in QGIS desktop: tick \"VBAS - anonymizing "
        "aggregation\" in Plugins > Manage and Install Plugins). vbas_process runs the same algorithms with no "
        "profile at all.\n" % (command, PLUGIN))


try:
    _hint()
except Exception:  # a hint must never stop QGIS
    pass
