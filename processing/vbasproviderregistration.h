#pragma once

#include <QPointer>

class QgsProcessingProvider;

/**
 * Puts the VBAS provider into the application's Processing registry and takes it out again.
 *
 * Both the desktop plugin and the qgis_process shim can be loaded into one QGIS; whichever comes
 * first registers the provider, the other finds it there and does nothing, and each removes only the
 * provider it added itself. Registering twice is harmless.
 */
class VbasProviderRegistration
{
public:
    /** Registers the provider unless one with its id exists; returns true when this call added it. */
    bool registerProvider();
    /** Removes the provider this object added, if it is still registered. */
    void unregisterProvider();

private:
    QPointer<QgsProcessingProvider> mProvider;
};
