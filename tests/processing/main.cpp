// The Processing tests run inside one headless QGIS per process: offscreen, a throw-away profile,
// the native algorithms and the VBAS provider registered, as vbas_process does it. Release ledgers' keys go
// to a throw-away configuration folder too.

#include "vbasheadlesssession.h"
#include "vbasproviderlibrary.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    const QTemporaryDir configuration;
    qputenv("XDG_CONFIG_HOME", configuration.path().toUtf8());
    const VbasHeadlessSession session(argc, argv, vbas_register_provider);
    return RUN_ALL_TESTS();
}
