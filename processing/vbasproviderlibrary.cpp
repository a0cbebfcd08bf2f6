#include "vbasproviderlibrary.h"

#include "vbasparameters.h"
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

void vbas_show_dialog_labels()
{
    VbasParameters::showLabels(true);
}
