#include "vbasproviderregistration.h"

#include "vbasprovider.h"

#include <qgsapplication.h>
#include <qgsprocessingregistry.h>

bool VbasProviderRegistration::registerProvider()
{
    QgsProcessingRegistry* registry = QgsApplication::processingRegistry();
    if (registry->providerById(VbasProvider::kId))
        return false;
    auto* provider = new VbasProvider();
    if (!registry->addProvider(provider)) // it deletes a provider it refuses
        return false;
    mProvider = provider;
    return true;
}

void VbasProviderRegistration::unregisterProvider()
{
    // The registry owns the provider; QPointer turns null when it has already deleted it (at exit).
    if (mProvider)
        QgsApplication::processingRegistry()->removeProvider(mProvider);
    mProvider.clear();
}
