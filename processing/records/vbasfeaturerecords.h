#pragma once

#include "vbasrecordstreams.h"

#include <qgsfeature.h>
#include <qgsfeatureiterator.h>

/**
 * QGIS's own record streams, the ones every layer and destination allows: the fallback of both factories
 * of vbasrecordstreams.h.
 */

/** The rows of a QGIS feature source with some of their attributes, in feature id order, each one record. */
class VbasFeatureRecords : public VbasRecordSource
{
public:
    VbasFeatureRecords(QgsFeatureSource& source, const QList<int>& attributes);

    bool next(QgsFeatureId& id, QVector<QVariant>& values) override;
    /** QGIS's count of the source's features. */
    long expectedRows() const override;
    bool grouped() const override { return false; }
    qint64 groupSize() const override { return 1; }
    QString description() const override;

private:
    QgsFeatureSource& mSource;
    QList<int> mAttributes;
    QgsFeatureIterator mFeatures;
    QgsFeature mFeature;
};

/** Released rows written as features, with the fields of the table, into a QGIS feature sink. */
class VbasFeatureRecordSink : public VbasRecordSink
{
public:
    /** Writes into `sink`, which the caller keeps. */
    VbasFeatureRecordSink(QgsFeatureSink& sink, const QgsFields& fields);
    /** Writes into `sink`, closed by finish(). */
    VbasFeatureRecordSink(std::unique_ptr<QgsFeatureSink> sink, const QgsFields& fields);
    ~VbasFeatureRecordSink() override;

    bool addRows(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written) override;
    QString lastError() const override;
    /** Closes the sink when this owns it: QGIS's writer flushes and closes its file. */
    void finish() override;

private:
    std::unique_ptr<QgsFeatureSink> mOwned;
    /** The sink written into; nullptr once finish() closed it. */
    QgsFeatureSink* mSink = nullptr;
    QgsFields mFields;
};
