#include "vbasfeaturerecords.h"

#include "vbasqgiscompat.h"

#include <qgsfeaturesink.h>
#include <qgsfeaturesource.h>

VbasFeatureRecords::VbasFeatureRecords(QgsFeatureSource& source, const QList<int>& attributes)
    : mSource(source)
    , mAttributes(attributes)
{
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(attributes);
    mFeatures = source.getFeatures(request);
}

bool VbasFeatureRecords::next(QgsFeatureId& id, QVector<QVariant>& values)
{
    if (!mFeatures.nextFeature(mFeature))
        return false;
    id = mFeature.id();
    values.resize(mAttributes.size());
    for (int i = 0; i < mAttributes.size(); ++i)
        values[i] = mFeature.attribute(mAttributes.at(i));
    return true;
}

long VbasFeatureRecords::expectedRows() const
{
    return long(mSource.featureCount());
}

QString VbasFeatureRecords::description() const
{
    return QObject::tr("RECORDS: read through QGIS's feature iterator");
}

VbasFeatureRecordSink::VbasFeatureRecordSink(QgsFeatureSink& sink, const QgsFields& fields)
    : mSink(&sink)
    , mFields(fields)
{
}

VbasFeatureRecordSink::VbasFeatureRecordSink(std::unique_ptr<QgsFeatureSink> sink, const QgsFields& fields)
    : mOwned(std::move(sink))
    , mSink(mOwned.get())
    , mFields(fields)
{
}

VbasFeatureRecordSink::~VbasFeatureRecordSink() = default;

bool VbasFeatureRecordSink::addRows(const VbasCodedRows& rows,
                                    const std::function<void(std::size_t)>& written)
{
    const std::size_t width = rows.columns();
    QgsFeature feature(mFields);
    for (std::size_t i = 0; i < rows.order.size(); ++i)
    {
        if (i % 4096 == 0)
            written(i);
        QgsAttributes attributes;
        attributes.reserve(int(width) + (rows.numbered ? 1 : 0));
        if (rows.numbered)
            attributes << int(i + 1);
        rows.fetchAhead(i);
        const std::uint32_t* codes = rows.written(i);
        for (std::size_t c = 0; c < width; ++c)
            attributes << rows.values[c].at(int(codes[c]));
        feature.setAttributes(attributes);
        if (!mSink->addFeature(feature, QgsFeatureSink::FastInsert))
            return false;
    }
    written(rows.order.size());
    return true;
}

QString VbasFeatureRecordSink::lastError() const
{
    return mSink ? mSink->lastError() : QString();
}

void VbasFeatureRecordSink::finish()
{
    if (mOwned)
        mSink = nullptr;
    mOwned.reset();
}
