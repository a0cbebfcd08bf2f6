#include "vbasproviderlibrary.h"

#include "vbasproviderregistration.h"

namespace
{
VbasProviderRegistration& registration()
{
    static VbasProviderRegistration instance;
    return instance;
}
} // namespace

int vbas_register_provider()
{
    return registration().registerProvider() ? 1 : 0;
}

void vbas_unregister_provider()
{
    registration().unregisterProvider();
}
