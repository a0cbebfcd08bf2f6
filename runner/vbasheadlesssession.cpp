#include "vbasheadlesssession.h"

#include <qgsapplication.h>
#include <qgsconfig.h>
#include <qgsnativealgorithms.h>
#include <qgsprocessingregistry.h>

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <dlfcn.h>

#ifdef __SANITIZE_ADDRESS__
// Sanitizer builds (VBAS_SANITIZE): QGIS, Qt and OpenSSL keep allocations until exit by design, and
// leak reports about them would fail every headless run; all other checks stay on.
extern "C" const char* __asan_default_options()
{
    return "detect_leaks=0";
}
#endif

namespace
{
/**
 * The prefix QGIS is installed under, found from where libqgis_core was loaded (/usr for /usr/lib, else
 * the folder above the library's), or empty when that holds no data providers. Without it QGIS looks for its
 * providers beside this executable and loads none but OGR and GDAL: no PostgreSQL, SpatiaLite or delimited
 * text (qgis_process finds them because it is installed beside QGIS).
 */
QString installedQgisPrefix()
{
    Dl_info library;
    if (dladdr(reinterpret_cast<void*>(&QgsApplication::initQgis), &library) == 0 ||
        library.dli_fname == nullptr)
        return QString();
    const QString libraryDir = QFileInfo(QFile::decodeName(library.dli_fname)).canonicalPath();
    const QString libSubdir = QStringLiteral("/" QGIS_LIB_SUBDIR);
    const QString prefix =
        libraryDir.endsWith(libSubdir) ? libraryDir.chopped(libSubdir.size()) : QFileInfo(libraryDir).path();
    return QDir(prefix + QStringLiteral("/" QGIS_PLUGIN_SUBDIR)).exists() ? prefix : QString();
}
} // namespace

VbasHeadlessSession::VbasHeadlessSession(int& argc, char** argv, int (*registerVbas)())
{
    // QgsApplication is a QApplication even without a GUI, so it needs a Qt platform: offscreen never
    // needs a display.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // Every file QGIS writes must land in the throw-away profile. QgsApplication's constructor
    // already writes a setting, before it points QSettings at the profile: point them there first
    // (under QGIS's names, which QGIS expects). The network cache follows XDG_CACHE_HOME, and Qt
    // wants a private runtime folder.
    QCoreApplication::setOrganizationName(QgsApplication::QGIS_ORGANIZATION_NAME);
    QCoreApplication::setOrganizationDomain(QgsApplication::QGIS_ORGANIZATION_DOMAIN);
    QCoreApplication::setApplicationName(QgsApplication::QGIS_APPLICATION_NAME);
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, mProfile.path());
    qputenv("XDG_CACHE_HOME", QFile::encodeName(mProfile.filePath(QStringLiteral("cache"))));
    const QString runtimeDir = mProfile.filePath(QStringLiteral("runtime"));
    QDir().mkpath(runtimeDir);
    QFile::setPermissions(runtimeDir,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(runtimeDir));

    mApplication = std::make_unique<QgsApplication>(argc, argv, false, mProfile.path());
    // QGIS_PREFIX_PATH, when set, is the user's choice and QGIS has applied it.
    if (qEnvironmentVariableIsEmpty("QGIS_PREFIX_PATH"))
        if (const QString prefix = installedQgisPrefix(); !prefix.isEmpty())
            QgsApplication::setPrefixPath(prefix, true);
    QgsApplication::initQgis();
    QgsApplication::processingRegistry()->addProvider(
        new QgsNativeAlgorithms(QgsApplication::processingRegistry()));
    registerVbas();
}

VbasHeadlessSession::~VbasHeadlessSession()
{
    QgsApplication::exitQgis(); // deletes the registered providers
}
