#pragma once

#include <QPointer>

class QgsProcessingProvider;

/**
 * Puts the VBAS provider into the application's Processing registry and takes it out again.
 *
 * Behind the entry points of libvbasprovider.so (vbasproviderlibrary.h). Registering twice is harmless: a
 * provider with the id already there is left alone, and only the registration that added the provider
 * removes it (a plugin reloaded, or the provider registered by something else first).
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
