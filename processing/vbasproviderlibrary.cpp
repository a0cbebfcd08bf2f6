// libvbasprovider.so: the VBAS Processing provider behind a C interface, for the Python plugin that
// makes stock qgis_process see our algorithms (qgis_process loads Python plugins only, never C++ ones).

#include "vbasproviderregistration.h"

#include <qgis.h>

namespace
{
VbasProviderRegistration& registration()
{
    static VbasProviderRegistration instance;
    return instance;
}
} // namespace

/** Registers the VBAS provider with the running QGIS; returns 1 when this call added it, 0 when it was there.
 */
QGISEXTERN int vbas_register_provider()
{
    return registration().registerProvider() ? 1 : 0;
}

/** Removes the provider that vbas_register_provider() added, if any. */
QGISEXTERN void vbas_unregister_provider()
{
    registration().unregisterProvider();
}
