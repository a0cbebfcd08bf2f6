#pragma once

#include <QString>

/** What the system says about writing files, for the messages of writers that lose it. */
namespace VbasDisk
{
/**
 * Returns why writing the file `file` fails as the system sees it, when it tells: its file system is full or
 * read-only, or this process may write no larger file (a file size limit); empty otherwise. Writers (GDAL,
 * QGIS's) often lose the system's reason: a message about a failed write adds this one. It names no path.
 */
QString writeTrouble(const QString& file);
/**
 * Returns why writing `file` failed: `writerReason` and writeTrouble(), either when the other is empty, or
 * that nobody gave a reason.
 */
QString reason(const QString& writerReason, const QString& file);
} // namespace VbasDisk
