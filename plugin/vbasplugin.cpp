#include "vbasplugin.h"

#include "vbasmetadata.h"
#include "vbasprovider.h"

#include <qgis.h>

namespace
{
const QString kName = QStringLiteral(VBAS_METADATA_NAME);
const QString kDescription = QStringLiteral(VBAS_METADATA_DESCRIPTION);
const QString kCategory = QStringLiteral(VBAS_METADATA_CATEGORY);
const QString kVersion = QStringLiteral(VBAS_METADATA_VERSION);
const QString kExperimental = QStringLiteral(VBAS_METADATA_EXPERIMENTAL);
} // namespace

VbasPlugin::VbasPlugin()
    : QgisPlugin(kName, kDescription, kCategory, kVersion, QgisPlugin::UI)
{
}

void VbasPlugin::initGui()
{
    mRegistration.registerProvider();
}

void VbasPlugin::unload()
{
    mRegistration.unregisterProvider();
}

// The functions QGIS resolves in a C++ plugin. Since 3.22 the metadata ones return pointers, and
// type() must exist: QGIS calls it without checking.

QGISEXTERN QgisPlugin* classFactory(QgisInterface*)
{
    return new VbasPlugin();
}

QGISEXTERN const QString* name()
{
    return &kName;
}

QGISEXTERN const QString* description()
{
    return &kDescription;
}

QGISEXTERN const QString* category()
{
    return &kCategory;
}

QGISEXTERN const QString* version()
{
    return &kVersion;
}

QGISEXTERN const QString* experimental()
{
    return &kExperimental;
}

QGISEXTERN const QString* icon()
{
    static const QString path = VbasProvider::iconPath();
    return &path;
}

QGISEXTERN int type()
{
    return QgisPlugin::UI;
}

QGISEXTERN void unload(QgisPlugin* plugin)
{
    delete plugin;
}
