"""Makes the VBAS Processing provider available to stock qgis_process (and desktop QGIS).

qgis_process loads only Python plugins that declare hasProcessingProvider=yes; this one loads the
native provider library that sits next to it and lets it register itself.
"""

import ctypes
import os

_LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libvbasprovider.so")


def classFactory(iface):  # noqa: N802 (QGIS's name)
    return VbasProcessingPlugin()


class VbasProcessingPlugin:
    def __init__(self):
        self._library = None

    def initProcessing(self):  # noqa: N802
        if self._library is None:
            self._library = ctypes.CDLL(_LIBRARY)
            self._library.vbas_register_provider.restype = ctypes.c_int
        self._library.vbas_register_provider()

    def initGui(self):  # noqa: N802
        self.initProcessing()

    def unload(self):
        if self._library is not None:
            self._library.vbas_unregister_provider()
