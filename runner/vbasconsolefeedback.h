#pragma once

#include <qgsprocessingfeedback.h>

#include <QVariantMap>

/**
 * Feedback for a command-line run: errors go to stderr at once; in plain mode messages go to stdout
 * as they come, and every message is kept for the JSON report under qgis_process's keys (info,
 * warning, errors).
 */
class VbasConsoleFeedback : public QgsProcessingFeedback
{
public:
    explicit VbasConsoleFeedback(bool json);

    void reportError(const QString& error, bool fatalError = false) override;
    void pushWarning(const QString& warning) override;
    void pushInfo(const QString& info) override;
    void pushCommandInfo(const QString& info) override;
    void pushConsoleInfo(const QString& info) override;

    /** Returns the messages so far by kind, for the "log" of the JSON report. */
    QVariantMap jsonLog() const { return mJsonLog; }

private:
    /** Prints `message` after `prefix` in plain mode, and keeps it under `kind`. */
    void show(const QString& kind, const QString& prefix, const QString& message);
    void keep(const QString& kind, const QString& message);

    bool mJson;
    QVariantMap mJsonLog;
};
