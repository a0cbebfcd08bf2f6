#pragma once

#include <QTemporaryDir>

#include <memory>

class QgsApplication;

/**
 * A headless QGIS for command-line runs and tests: the offscreen Qt platform, a throw-away profile
 * (so that runs never read or write the user's QGIS settings), QGIS initialised, and the native
 * algorithms plus the VBAS provider registered by `registerVbas` (vbas_register_provider(): from
 * libvbasprovider.so in vbas_process, linked statically in the tests). Create one per process, before any
 * other QGIS call.
 */
class VbasHeadlessSession
{
public:
    VbasHeadlessSession(int& argc, char** argv, int (*registerVbas)());
    ~VbasHeadlessSession();
    VbasHeadlessSession(const VbasHeadlessSession&) = delete;
    VbasHeadlessSession& operator=(const VbasHeadlessSession&) = delete;

private:
    QTemporaryDir mProfile; // outlives the application, which writes into it until exitQgis()
    std::unique_ptr<QgsApplication> mApplication;
};
