#pragma once

#include "vbasproviderregistration.h"

#include <QTemporaryDir>

#include <memory>

class QgsApplication;

/**
 * A headless QGIS for command-line runs and tests: the offscreen Qt platform, a throw-away profile
 * (so that runs never read or write the user's QGIS settings), QGIS initialised, and the native
 * algorithms plus the VBAS provider registered. Create one per process, before any other QGIS call.
 */
class VbasHeadlessSession
{
public:
    VbasHeadlessSession(int& argc, char** argv);
    ~VbasHeadlessSession();
    VbasHeadlessSession(const VbasHeadlessSession&) = delete;
    VbasHeadlessSession& operator=(const VbasHeadlessSession&) = delete;

private:
    QTemporaryDir mProfile; // outlives the application, which writes into it until exitQgis()
    VbasProviderRegistration mRegistration;
    std::unique_ptr<QgsApplication> mApplication;
};
