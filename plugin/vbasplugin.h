#pragma once

#include "vbasproviderregistration.h"

#include <qgisplugin.h>

/**
 * The desktop plugin. It adds nothing to the GUI of its own: the Processing Toolbox and the Model
 * Builder show the provider's algorithms once it is registered.
 */
class VbasPlugin : public QgisPlugin
{
public:
    VbasPlugin();

    /** Registers the Processing provider (QGIS calls this when the plugin is enabled). */
    void initGui() override;
    /** Removes the provider again, if this plugin registered it. */
    void unload() override;

private:
    VbasProviderRegistration mRegistration;
};
