#pragma once

#include <QHash>
#include <QSet>
#include <QString>
#include <QVariantMap>

#include <vector>

class QgsProcessingAlgorithm;
class QgsProcessingContext;

/**
 * Makes the file outputs of one algorithm run all or nothing: a release that stops half-way (an error,
 * a full disk, a cancel while writing) must not leave files that look like a release.
 *
 * Created before anything is read, it checks every file destination (GeoPackage, CSV, shapefile,
 * HTML...): its folder exists and takes a new file, a file already there can be replaced, no two
 * outputs overwrite the same file, and no output overwrites an input layer. Every problem throws a
 * QgsProcessingException naming the output parameter, before any work is done. It then keeps a copy of
 * each file the outputs will replace. Destroyed without commit() (the run failed or was canceled), it
 * deletes the files the run created and puts the replaced ones back; commit() drops the copies.
 *
 * Destinations that are no files (memory layers, databases) are left to their provider; temporary
 * outputs go to QGIS's own temporary folder, which QGIS clears.
 */
class VbasOutputGuard
{
public:
    VbasOutputGuard(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                    QgsProcessingContext& context);
    ~VbasOutputGuard();
    VbasOutputGuard(const VbasOutputGuard&) = delete;
    VbasOutputGuard& operator=(const VbasOutputGuard&) = delete;

    /** Keeps what the run wrote: called once every output is complete. */
    void commit();

private:
    /** A file an output parameter writes, with the layer inside it (empty: the whole file). */
    struct Destination
    {
        QString parameter;
        QString path;
        QString layer;
    };

    void checkWritable(const Destination& destination) const;
    void keepCopies(const Destination& destination);
    void rollBack();

    std::vector<Destination> mDestinations;
    /** Per folder, the files there before the run that an output may touch. */
    QHash<QString, QSet<QString>> mExisting;
    /** Copy of each file an output replaces, by the file's path. */
    QHash<QString, QString> mCopies;
    bool mCommitted = false;
};
