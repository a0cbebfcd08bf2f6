#include "vbasogrtable.h"

#include "vbasqgiscompat.h"
#include "vbasquietgdal.h"

#include <qgsexception.h>
#include <qgsfeature.h>
#include <qgsproviderregistry.h>

#include <QDate>
#include <QDateTime>
#include <QFileInfo>

#include <gdal.h>
#include <ogr_api.h>

namespace
{
QVariantMap decoded(const QString& destination)
{
    return QgsProviderRegistry::instance()->decodeUri(QStringLiteral("ogr"), destination);
}

/** How a field's values go into OGR. */
enum class Writing
{
    Text,
    Integer,
    Real,
    Date,
    DateTime,
};
} // namespace

struct VbasOgrTable::Table
{
    GDALDatasetH dataset = nullptr;
    OGRLayerH layer = nullptr;
    OGRFeatureH feature = nullptr;
    bool inTransaction = false;
    /** Per QGIS field: its OGR field and how its values are written. */
    std::vector<std::pair<int, Writing>> columns;

    ~Table()
    {
        if (feature != nullptr)
            OGR_F_Destroy(feature);
        // Unfinished: the rows go (the output guard deletes the staged file anyway).
        if (inTransaction && GDALDatasetRollbackTransaction(dataset) != OGRERR_NONE)
            CPLErrorReset();
        if (dataset != nullptr)
            GDALClose(dataset);
    }
};

bool VbasOgrTable::accepts(const QString& destination)
{
    const QString path = decoded(destination).value(QStringLiteral("path")).toString();
    const QString suffix = QFileInfo(path).suffix().toLower();
    // Not CSV: reopened for update, OGR's CSV driver reads every column as text and quotes numbers.
    return !path.isEmpty() && suffix == QLatin1String("gpkg");
}

VbasOgrTable::VbasOgrTable(const QString& destination, const QgsFields& fields, const QString& outputName)
    : mTable(std::make_unique<Table>())
    , mOutputName(outputName)
{
    const auto fail = [&](const QString& why)
    {
        return QgsProcessingException(
            QObject::tr("%1: could not write %2 through GDAL: %3").arg(outputName, destination, why));
    };
    const QVariantMap parts = decoded(destination);
    Table& t = *mTable;
    t.dataset = GDALOpenEx(parts.value(QStringLiteral("path")).toString().toUtf8().constData(),
                           GDAL_OF_VECTOR | GDAL_OF_UPDATE, nullptr, nullptr, nullptr);
    if (t.dataset == nullptr)
        throw fail(QString::fromUtf8(CPLGetLastErrorMsg()));
    const QString layerName = parts.value(QStringLiteral("layerName")).toString();
    t.layer = layerName.isEmpty() ? GDALDatasetGetLayer(t.dataset, 0)
                                  : GDALDatasetGetLayerByName(t.dataset, layerName.toUtf8().constData());
    if (t.layer == nullptr)
        throw fail(QObject::tr("no layer '%1'").arg(layerName));
    OGRFeatureDefnH definition = OGR_L_GetLayerDefn(t.layer);
    for (const QgsField& field : fields)
    {
        const int index = OGR_FD_GetFieldIndex(definition, field.name().toUtf8().constData());
        if (index < 0)
            throw fail(QObject::tr("the table has no field '%1'").arg(field.name()));
        Writing writing = Writing::Text;
        switch (field.type())
        {
        case QVariant::String:
            break;
        case QVariant::Int:
        case QVariant::LongLong:
        case QVariant::Bool:
            writing = Writing::Integer;
            break;
        case QVariant::Double:
            writing = Writing::Real;
            break;
        case QVariant::Date:
            writing = Writing::Date;
            break;
        case QVariant::DateTime:
            writing = Writing::DateTime;
            break;
        default:
            throw fail(QObject::tr("field '%1' is of type %2").arg(field.name(), field.typeName()));
        }
        t.columns.emplace_back(index, writing);
    }
    t.feature = OGR_F_Create(definition);
    // One transaction for every row.
    t.inTransaction = GDALDatasetStartTransaction(t.dataset, FALSE) == OGRERR_NONE;
}

namespace
{
/** Closes QGIS's sink; returns `destination`, so that the table opens after. */
const QString& closed(std::unique_ptr<QgsFeatureSink> created, const QString& destination)
{
    // Closing a table without geometry, QGIS's exporter runs a query of GDAL's that reports "No geometry
    // column": harmless, and not the user's concern.
    const VbasQuietGdal quiet;
    created.reset();
    return destination;
}
} // namespace

VbasOgrTable::VbasOgrTable(std::unique_ptr<QgsFeatureSink> created, const QString& destination,
                           const QgsFields& fields, const QString& outputName)
    : VbasOgrTable(closed(std::move(created), destination), fields, outputName)
{
}

VbasOgrTable::~VbasOgrTable() = default;

namespace
{
/** Sets field `index` of `feature` to `value`, written as `writing` says. */
void setField(OGRFeatureH feature, int index, Writing writing, const QVariant& value)
{
    if (VbasCompat::isNull(value))
    {
        OGR_F_SetFieldNull(feature, index);
        return;
    }
    switch (writing)
    {
    case Writing::Text:
        OGR_F_SetFieldString(feature, index, value.toString().toUtf8().constData());
        break;
    case Writing::Integer:
        OGR_F_SetFieldInteger64(feature, index, value.toLongLong());
        break;
    case Writing::Real:
        OGR_F_SetFieldDouble(feature, index, value.toDouble());
        break;
    case Writing::Date:
    {
        const QDate date = value.toDate();
        OGR_F_SetFieldDateTime(feature, index, date.year(), date.month(), date.day(), 0, 0, 0, 0);
        break;
    }
    case Writing::DateTime:
    {
        const QDateTime time = value.toDateTime();
        OGR_F_SetFieldDateTimeEx(feature, index, time.date().year(), time.date().month(), time.date().day(),
                                 time.time().hour(), time.time().minute(),
                                 float(time.time().second()) + float(time.time().msec()) / 1000.0f,
                                 time.timeSpec() == Qt::UTC ? 100 : 0);
        break;
    }
    }
}
} // namespace

bool VbasOgrTable::addFeature(QgsFeature& feature, QgsFeatureSink::Flags)
{
    Table& t = *mTable;
    const QgsAttributes attributes = feature.attributes();
    for (std::size_t f = 0; f < t.columns.size(); ++f)
        setField(t.feature, t.columns[f].first, t.columns[f].second,
                 int(f) < attributes.size() ? attributes.at(int(f)) : QVariant());
    return create();
}

bool VbasOgrTable::create()
{
    Table& t = *mTable;
    OGR_F_SetFID(t.feature, OGRNullFID);
    if (OGR_L_CreateFeature(t.layer, t.feature) != OGRERR_NONE)
    {
        mError = QString::fromUtf8(CPLGetLastErrorMsg());
        return false;
    }
    return true;
}

bool VbasOgrTable::addRows(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written)
{
    Table& t = *mTable;
    const std::size_t first = rows.numbered ? 1 : 0;
    // Text as UTF-8 once per value; other values are cheap to convert.
    std::vector<std::vector<QByteArray>> utf8(rows.columns());
    for (std::size_t c = 0; c < rows.columns(); ++c)
        if (t.columns[first + c].second == Writing::Text)
            for (const QVariant& value : rows.values[c])
                utf8[c].push_back(VbasCompat::isNull(value) ? QByteArray() : value.toString().toUtf8());
    for (std::size_t i = 0; i < rows.order.size(); ++i)
    {
        if (i % 4096 == 0)
            written(i);
        rows.fetchAhead(i);
        if (rows.numbered)
            OGR_F_SetFieldInteger64(t.feature, t.columns[0].first, GIntBig(i + 1));
        const std::uint32_t* codes = rows.written(i);
        for (std::size_t c = 0; c < rows.columns(); ++c)
        {
            const auto [index, writing] = t.columns[first + c];
            const QVariant& value = rows.values[c].at(int(codes[c]));
            if (writing == Writing::Text && !VbasCompat::isNull(value))
                OGR_F_SetFieldString(t.feature, index, utf8[c][codes[c]].constData());
            else
                setField(t.feature, index, writing, value);
        }
        if (!create())
            return false;
    }
    written(rows.order.size());
    return true;
}

bool VbasOgrTable::addFeatures(QgsFeatureList& features, QgsFeatureSink::Flags flags)
{
    for (QgsFeature& feature : features)
        if (!addFeature(feature, flags))
            return false;
    return true;
}

void VbasOgrTable::finish()
{
    Table& t = *mTable;
    const bool committed = !t.inTransaction || GDALDatasetCommitTransaction(t.dataset) == OGRERR_NONE;
    t.inTransaction = false;
    const QString error = QString::fromUtf8(CPLGetLastErrorMsg());
    OGR_F_Destroy(t.feature);
    t.feature = nullptr;
    GDALClose(t.dataset);
    t.dataset = nullptr;
    if (!committed)
        throw QgsProcessingException(
            QObject::tr("%1: could not commit the rows (%2); is the disk full? Nothing was moved into place: "
                        "the previous files are as they were")
                .arg(mOutputName, error));
}
