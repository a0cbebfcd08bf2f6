// The Processing tests run inside one headless QGIS per process: offscreen, a throw-away profile,
// the native algorithms and the VBAS provider registered, as vbas_process does it.

#include "vbasheadlesssession.h"
#include "vbasproviderlibrary.h"

#include <gtest/gtest.h>

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    const VbasHeadlessSession session(argc, argv, vbas_register_provider);
    return RUN_ALL_TESTS();
}
