#include "vbasrecordrows.h"

#include "vbasarrowrecords.h"
#include "vbaspostgresrecords.h"
#include "vbasqgiscompat.h"

#include <qgsexception.h>
#include <qgsfeaturesource.h>
#include <qgsvectorlayer.h>

VbasRecordRows::VbasRecordRows(QgsFeatureSource& source, const QgsVectorLayer* layer,
                               const QList<int>& attributes, vbas::Feedback& feedback, VbasGrouping grouping)
    : mSource(source)
    , mAttributes(attributes)
{
    if (layer != nullptr)
    {
        QStringList names;
        for (const int field : attributes)
            names << source.fields().at(field).name();
        if (grouping != VbasGrouping::Rows)
        {
            const bool inDatabase = grouping == VbasGrouping::Database;
            if (layer->providerType() == QLatin1String("postgres"))
                mDirect = VbasPostgresRecords::open(*layer, names,
                                                    inDatabase ? VbasPostgresRecords::Counting::InDatabase
                                                               : VbasPostgresRecords::Counting::Here,
                                                    feedback, mFallbackReason);
            else
                mDirect = VbasArrowRecords::openGroups(*layer, names, inDatabase, mFallbackReason);
            if (!mDirect && inDatabase && !mFallbackReason.isEmpty())
                throw QgsProcessingException(
                    QObject::tr("RECORDS: GROUP_RECORDS asks the database to group the records, but %1; "
                                "set GROUP_RECORDS to rows to read every row instead")
                        .arg(mFallbackReason));
        }
        if (!mDirect)
            mDirect = VbasArrowRecords::open(*layer, names);
    }
    if (!mDirect)
    {
        QgsFeatureRequest request;
        request.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(attributes);
        mFeatures = source.getFeatures(request);
    }
}

VbasRecordRows::~VbasRecordRows() = default;

bool VbasRecordRows::next(QgsFeatureId& id, QVector<QVariant>& values)
{
    if (mDirect)
        return mDirect->next(id, values);
    if (!mFeatures.nextFeature(mFeature))
        return false;
    id = mFeature.id();
    values.resize(mAttributes.size());
    for (int i = 0; i < mAttributes.size(); ++i)
        values[i] = mFeature.attribute(mAttributes.at(i));
    return true;
}

QString VbasRecordRows::description() const
{
    const QString read =
        mDirect ? mDirect->description() : QObject::tr("RECORDS: read through QGIS's feature iterator");
    return mFallbackReason.isEmpty()
               ? read
               : QObject::tr("%1 (not straight from the database: %2)").arg(read, mFallbackReason);
}

long VbasRecordRows::expectedRows() const
{
    return mDirect ? mDirect->cheapRowCount() : long(mSource.featureCount());
}
