#pragma once

#include <QString>

#include <cpl_error.h>

/**
 * Keeps GDAL's error messages out of the terminal and the log while it lives (the caller reads the last one
 * and says what it means for the user), and restores GDAL's handler after.
 */
struct VbasQuietGdal
{
    VbasQuietGdal()
    {
        CPLPushErrorHandler(CPLQuietErrorHandler);
        CPLErrorReset();
    }
    ~VbasQuietGdal() { CPLPopErrorHandler(); }
    VbasQuietGdal(const VbasQuietGdal&) = delete;
    VbasQuietGdal& operator=(const VbasQuietGdal&) = delete;

    /** GDAL's last error message, empty when none. */
    static QString last() { return QString::fromUtf8(CPLGetLastErrorMsg()); }
};
