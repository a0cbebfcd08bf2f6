#pragma once

#include <QHash>
#include <QString>

/**
 * Features written per output parameter during one run, as its sinks (VbasSink) count them. The run's
 * output guard reads each file back against its count before anything is moved into place.
 */
class VbasWrittenCounts
{
public:
    /** Counts `features` more written into the output parameter `output` (0: its sink was created). */
    void add(const QString& output, qint64 features) { mWritten[output] += features; }
    /** Whether a counted sink wrote into `output`. */
    bool contains(const QString& output) const { return mWritten.contains(output); }
    /** The features written into `output` (0 when none was counted). */
    qint64 of(const QString& output) const { return mWritten.value(output, 0); }

private:
    QHash<QString, qint64> mWritten;
};
