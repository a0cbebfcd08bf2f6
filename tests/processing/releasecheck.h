#pragma once

// What every release must satisfy whatever its input, checked from the input and output layers: the
// independent verifier vbas:checkanonymity passes on the released records, and every record is accounted
// for, each term recounted from the layers rather than taken from VBAS's numeric outputs.

#include "processingtestutils.h"

#include <qgsvectorlayer.h>

#include <QDir>
#include <QStringList>
#include <QTemporaryDir>

/** The input of a release, as the test gave it to the algorithm. */
struct ReleaseInput
{
    QgsVectorLayer* regions = nullptr;
    QString regionIdField;
    QgsVectorLayer* records = nullptr;
    QString recordRegionField;
    QString recordIdField; //!< a field of RECORDS unique per row (checked unique; never published)
    QStringList quasiIdentifiers;
    QString countField; //!< empty: every row is one record
    int k = 5;
};

/** Records of a release, recounted from the layers. */
struct ReleaseRecount
{
    qint64 input = 0;
    qint64 released = 0;
    qint64 suppressed = 0;
    qint64 dropped = 0; //!< records whose small area is NULL or not among REGIONS
};

/**
 * Checks the release `run` made of `input` (OUTPUT_RECORDS and OUTPUT_MAPPING needed) with GoogleTest
 * expectations and returns the recount:
 *  - vbas:checkanonymity gives PASS on the released records;
 *  - every released (aggregate, quasi-identifier values) group holds exactly the input's records of
 *    those values in the small areas the mapping output gives that aggregate (suppression withholds whole
 *    groups; released rows carry no input id to match them one by one);
 *  - input = released + suppressed + dropped, where input and dropped (NULL or unknown small area) are
 *    recounted from RECORDS and REGIONS, released from OUTPUT_RECORDS, and the numbers VBAS reports
 *    (INPUT_RECORDS, RECORDS_RELEASED, SUPPRESSED, RECORDS_DROPPED) equal these recounts.
 */
ReleaseRecount expectSoundRelease(const AlgorithmRun& run, const ReleaseInput& input);

/**
 * Expects two releases of the same records, read in two ways, to publish the same: the same numbers of
 * aggregates, released, suppressed and dropped records, and the same released rows (each combination of
 * `publishedFields` as often in one as in the other).
 */
void expectSameRelease(const AlgorithmRun& a, const AlgorithmRun& b, const QStringList& publishedFields);

/** A temporary folder that receives the file outputs of one run, to check what a run leaves there. */
class OutputFolder
{
public:
    /** Returns `parameters` with every output of a release algorithm written to a file in this folder. */
    QVariantMap release(QVariantMap parameters) const;
    /** Returns `parameters` with OUTPUT written to `fileName` in this folder. */
    QVariantMap output(QVariantMap parameters, const QString& fileName) const;
    QString path(const QString& fileName) const { return mFolder.filePath(fileName); }
    /** Returns every entry of the folder, hidden ones included. */
    QStringList entries() const;

private:
    QTemporaryDir mFolder;
};

/**
 * Runs `algorithm` with `parameters` (whose file outputs go to `folder`) and expects it to fail with
 * exactly `message` and to leave the folder empty.
 */
void expectRejected(const QString& algorithm, const QVariantMap& parameters, const OutputFolder& folder,
                    const std::string& message);
