#include "vbasheadlesssession.h"

#include <qgsapplication.h>
#include <qgsnativealgorithms.h>
#include <qgsprocessingregistry.h>

#include <QDir>
#include <QSettings>

#ifdef __SANITIZE_ADDRESS__
// Sanitizer builds (VBAS_SANITIZE): QGIS, Qt and OpenSSL keep allocations until exit by design, and
// leak reports about them would fail every headless run; all other checks stay on.
extern "C" const char* __asan_default_options()
{
    return "detect_leaks=0";
}
#endif

VbasHeadlessSession::VbasHeadlessSession(int& argc, char** argv)
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
    QgsApplication::initQgis();
    QgsApplication::processingRegistry()->addProvider(
        new QgsNativeAlgorithms(QgsApplication::processingRegistry()));
    mRegistration.registerProvider();
}

VbasHeadlessSession::~VbasHeadlessSession()
{
    QgsApplication::exitQgis(); // deletes the registered providers
}
