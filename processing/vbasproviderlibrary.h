#pragma once

// The entry points of libvbasprovider.so, the one shared library that holds the engine and the VBAS
// Processing provider. The QGIS plugin loads it (ctypes, desktop and qgis_process alike) and vbas_process
// links it; they are its only exported symbols, plain C so that any loader can call them.

#include <qgis.h>

/** Registers the VBAS provider with the running QGIS; returns 1 when this call added it, 0 when it was there.
 */
QGISEXTERN int vbas_register_provider();

/** Removes the provider that vbas_register_provider() added, if any. */
QGISEXTERN void vbas_unregister_provider();

/** Makes errors lead with the parameters' labels, as the dialog shows them (the plugin in QGIS desktop). */
QGISEXTERN void vbas_show_dialog_labels();
