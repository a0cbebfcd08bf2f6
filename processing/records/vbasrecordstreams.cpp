#include "vbasrecordstreams.h"

#include "vbasarrowrecords.h"
#include "vbasfeaturerecords.h"
#include "vbasogrtable.h"
#include "vbaspostgresrecords.h"

#include <qgsexception.h>
#include <qgsfeaturesink.h>
#include <qgsfeaturesource.h>
#include <qgsvectorlayer.h>

std::unique_ptr<VbasRecordSource>
VbasRecordSource::open(QgsFeatureSource& source, const QgsVectorLayer* layer, const QList<int>& attributes,
                       vbas::Feedback& feedback, VbasGrouping grouping, QString& notGrouped)
{
    std::unique_ptr<VbasRecordSource> direct;
    if (layer != nullptr)
    {
        QStringList names;
        for (const int field : attributes)
            names << source.fields().at(field).name();
        if (grouping != VbasGrouping::Rows)
        {
            const bool inDatabase = grouping == VbasGrouping::Database;
            if (layer->providerType() == QLatin1String("postgres"))
                direct = VbasPostgresRecords::open(*layer, names,
                                                   inDatabase ? VbasPostgresRecords::Counting::InDatabase
                                                              : VbasPostgresRecords::Counting::Here,
                                                   feedback, notGrouped);
            else
                direct = VbasArrowRecords::openGroups(*layer, names, inDatabase, notGrouped);
            if (!direct && inDatabase && !notGrouped.isEmpty())
                throw QgsProcessingException(
                    QObject::tr("RECORDS: GROUP_RECORDS asks the database to group the records, but %1; "
                                "set GROUP_RECORDS to rows to read every row instead")
                        .arg(notGrouped));
        }
        if (!direct)
            direct = VbasArrowRecords::open(*layer, names);
    }
    if (direct)
        return direct;
    return std::make_unique<VbasFeatureRecords>(source, attributes);
}

std::unique_ptr<VbasRecordSink> VbasRecordSink::open(std::unique_ptr<QgsFeatureSink> created,
                                                     const QString& destination, const QgsFields& fields,
                                                     const QString& outputName)
{
    if (VbasOgrTable::accepts(destination, fields))
        return std::make_unique<VbasOgrTable>(std::move(created), destination, fields, outputName);
    return std::make_unique<VbasFeatureRecordSink>(std::move(created), fields);
}
