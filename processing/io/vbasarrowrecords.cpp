#include "vbasarrowrecords.h"

#include "vbasqgiscompat.h"

#include <qgsexception.h>
#include <qgsfeaturesource.h>
#include <qgsproviderregistry.h>
#include <qgsvectorlayer.h>

#include <QDate>

#include <cpl_string.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_recordbatch.h>

#include <cstring>
#include <optional>
#include <vector>

namespace
{
/** The Arrow types OGR streams for the field types QGIS reads as numbers, text, booleans and dates. */
enum class Kind
{
    Utf8,
    LargeUtf8,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    Float32,
    Float64,
    Bool,
    Date32,
};

std::optional<Kind> kindOf(const char* format)
{
    static const std::pair<const char*, Kind> kFormats[] = {
        {"u", Kind::Utf8},    {"U", Kind::LargeUtf8}, {"c", Kind::Int8},    {"s", Kind::Int16},
        {"i", Kind::Int32},   {"l", Kind::Int64},     {"C", Kind::UInt8},   {"S", Kind::UInt16},
        {"I", Kind::UInt32},  {"f", Kind::Float32},   {"g", Kind::Float64}, {"b", Kind::Bool},
        {"tdD", Kind::Date32}};
    for (const auto& [name, kind] : kFormats)
        if (std::strcmp(format, name) == 0)
            return kind;
    return std::nullopt;
}

/** The QVariant type QGIS's OGR provider gives a field of this kind (OFTInteger: int, OFTInteger64...). */
QVariant::Type variantType(Kind kind)
{
    switch (kind)
    {
    case Kind::Utf8:
    case Kind::LargeUtf8:
        return QVariant::String;
    case Kind::Int64:
    case Kind::UInt32:
        return QVariant::LongLong;
    case Kind::Float32:
    case Kind::Float64:
        return QVariant::Double;
    case Kind::Bool:
        return QVariant::Bool;
    case Kind::Date32:
        return QVariant::Date;
    default:
        return QVariant::Int;
    }
}

template <typename T> T fixed(const ArrowArray& array, std::int64_t index)
{
    return static_cast<const T*>(array.buffers[1])[index];
}

bool bit(const void* bitmap, std::int64_t index)
{
    return (static_cast<const std::uint8_t*>(bitmap)[index >> 3] >> (index & 7)) & 1;
}

/** The value of row `row` of a column (an Arrow array of `kind`), as QGIS's OGR provider gives it. */
QVariant cell(const ArrowArray& array, Kind kind, std::int64_t row)
{
    const std::int64_t i = row + array.offset;
    if (array.null_count != 0 && array.buffers[0] != nullptr && !bit(array.buffers[0], i))
        return QVariant(variantType(kind));
    switch (kind)
    {
    case Kind::Utf8:
    {
        const auto* offsets = static_cast<const std::int32_t*>(array.buffers[1]);
        return QString::fromUtf8(static_cast<const char*>(array.buffers[2]) + offsets[i],
                                 offsets[i + 1] - offsets[i]);
    }
    case Kind::LargeUtf8:
    {
        const auto* offsets = static_cast<const std::int64_t*>(array.buffers[1]);
        return QString::fromUtf8(static_cast<const char*>(array.buffers[2]) + offsets[i],
                                 int(offsets[i + 1] - offsets[i]));
    }
    case Kind::Int8:
        return int(fixed<std::int8_t>(array, i));
    case Kind::Int16:
        return int(fixed<std::int16_t>(array, i));
    case Kind::Int32:
        return int(fixed<std::int32_t>(array, i));
    case Kind::Int64:
        return qlonglong(fixed<std::int64_t>(array, i));
    case Kind::UInt8:
        return int(fixed<std::uint8_t>(array, i));
    case Kind::UInt16:
        return int(fixed<std::uint16_t>(array, i));
    case Kind::UInt32:
        return qlonglong(fixed<std::uint32_t>(array, i));
    case Kind::Float32:
        return double(fixed<float>(array, i));
    case Kind::Float64:
        return fixed<double>(array, i);
    case Kind::Bool:
        return bit(array.buffers[1], i);
    case Kind::Date32:
        return QDate(1970, 1, 1).addDays(fixed<std::int32_t>(array, i));
    }
    return QVariant();
}
} // namespace

struct VbasArrowRecords::Stream
{
    GDALDatasetH dataset = nullptr;
    OGRLayerH layer = nullptr;
    ArrowArrayStream stream{};
    ArrowSchema schema{};
    ArrowArray batch{};
    std::int64_t row = 0;
    int fidColumn = -1;
    /** Per asked field: its column and kind (the feature id column for a GeoPackage's "fid"). */
    std::vector<std::pair<int, Kind>> columns;

    ~Stream()
    {
        // The batch and the stream belong to the layer, which belongs to the dataset: released in that order.
        if (batch.release != nullptr)
            batch.release(&batch);
        if (schema.release != nullptr)
            schema.release(&schema);
        if (stream.release != nullptr)
            stream.release(&stream);
        if (dataset != nullptr)
            GDALClose(dataset);
    }
};

VbasArrowRecords::VbasArrowRecords(std::unique_ptr<Stream> stream)
    : mStream(std::move(stream))
{
}

VbasArrowRecords::~VbasArrowRecords() = default;

std::unique_ptr<VbasArrowRecords> VbasArrowRecords::open(const QgsVectorLayer& layer,
                                                         const QStringList& fields)
{
    const QString subset = layer.subsetString().trimmed();
    // Unsaved edits, joined, virtual and expression fields live in QGIS, not in the file.
    if (layer.providerType() != QLatin1String("ogr") || layer.isModified() ||
        subset.startsWith(QLatin1String("select"), Qt::CaseInsensitive))
        return nullptr;
    for (const QString& field : fields)
        if (layer.fields().fieldOrigin(layer.fields().lookupField(field)) != QgsFields::OriginProvider)
            return nullptr;
    const QVariantMap parts =
        QgsProviderRegistry::instance()->decodeUri(QStringLiteral("ogr"), layer.source());
    CPLStringList openOptions;
    for (const QString& option : parts.value(QStringLiteral("openOptions")).toStringList())
        openOptions.AddString(option.toUtf8().constData());
    auto stream = std::make_unique<Stream>();
    stream->dataset = GDALOpenEx(parts.value(QStringLiteral("path")).toString().toUtf8().constData(),
                                 GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, openOptions.List(), nullptr);
    if (stream->dataset == nullptr)
        return nullptr;
    const QString layerName = parts.value(QStringLiteral("layerName")).toString();
    OGRLayerH ogrLayer =
        !layerName.isEmpty()
            ? GDALDatasetGetLayerByName(stream->dataset, layerName.toUtf8().constData())
            : GDALDatasetGetLayer(stream->dataset, parts.value(QStringLiteral("layerId"), 0).toInt());
    stream->layer = ogrLayer;
    if (ogrLayer == nullptr ||
        (!subset.isEmpty() && OGR_L_SetAttributeFilter(ogrLayer, subset.toUtf8().constData()) != OGRERR_NONE))
        return nullptr;

    // Only the asked fields travel.
    const QString fidName = QString::fromUtf8(OGR_L_GetFIDColumn(ogrLayer));
    CPLStringList ignored;
    OGRFeatureDefnH definition = OGR_L_GetLayerDefn(ogrLayer);
    if (OGR_FD_GetGeomFieldCount(definition) > 0) // else GDAL complains of no geometry column
        ignored.AddString("OGR_GEOMETRY");
    ignored.AddString("OGR_STYLE");
    for (int f = 0; f < OGR_FD_GetFieldCount(definition); ++f)
    {
        const char* name = OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(definition, f));
        if (!fields.contains(QString::fromUtf8(name)))
            ignored.AddString(name);
    }
    CPLStringList streamOptions;
    streamOptions.AddString("INCLUDE_FID=YES");
    streamOptions.AddString("MAX_FEATURES_IN_BATCH=65536");
    if (OGR_L_SetIgnoredFields(ogrLayer, const_cast<const char**>(ignored.List())) != OGRERR_NONE ||
        !OGR_L_GetArrowStream(ogrLayer, &stream->stream, streamOptions.List()) ||
        stream->stream.get_schema(&stream->stream, &stream->schema) != 0)
        return nullptr;

    const QString fidColumn = fidName.isEmpty() ? QStringLiteral("OGC_FID") : fidName;
    const auto columnNamed = [&](const QString& name)
    {
        for (std::int64_t c = 0; c < stream->schema.n_children; ++c)
            if (QString::fromUtf8(stream->schema.children[c]->name) == name)
                return int(c);
        return -1;
    };
    stream->fidColumn = columnNamed(fidColumn);
    if (stream->fidColumn < 0 || std::strcmp(stream->schema.children[stream->fidColumn]->format, "l") != 0)
        return nullptr;
    for (const QString& field : fields)
    {
        const int column = !fidName.isEmpty() && field == fidName ? stream->fidColumn : columnNamed(field);
        if (column < 0)
            return nullptr;
        const ArrowSchema& child = *stream->schema.children[column];
        const std::optional<Kind> kind = kindOf(child.format);
        if (!kind || child.dictionary != nullptr)
            return nullptr;
        stream->columns.emplace_back(column, *kind);
    }
    return std::unique_ptr<VbasArrowRecords>(new VbasArrowRecords(std::move(stream)));
}

bool VbasArrowRecords::next(QgsFeatureId& id, QVector<QVariant>& values)
{
    Stream& s = *mStream;
    while (s.batch.release == nullptr || s.row >= s.batch.length)
    {
        if (s.batch.release != nullptr)
            s.batch.release(&s.batch);
        if (s.stream.get_next(&s.stream, &s.batch) != 0)
        {
            const char* error = s.stream.get_last_error(&s.stream);
            throw QgsProcessingException(QObject::tr("RECORDS: GDAL could not read the next rows: %1")
                                             .arg(QString::fromUtf8(error != nullptr ? error : "")));
        }
        s.row = 0;
        if (s.batch.release == nullptr)
            return false; // the end of the stream
    }
    // A struct array's offset applies to its children too.
    const std::int64_t row = s.row + s.batch.offset;
    id = fixed<std::int64_t>(*s.batch.children[s.fidColumn], row + s.batch.children[s.fidColumn]->offset);
    values.resize(int(s.columns.size()));
    for (std::size_t f = 0; f < s.columns.size(); ++f)
        values[int(f)] = cell(*s.batch.children[s.columns[f].first], s.columns[f].second, row);
    ++s.row;
    return true;
}

long VbasArrowRecords::cheapRowCount() const
{
    return long(OGR_L_GetFeatureCount(mStream->layer, FALSE));
}

VbasRecordRows::VbasRecordRows(QgsFeatureSource& source, const QgsVectorLayer* layer,
                               const QList<int>& attributes)
    : mSource(source)
    , mAttributes(attributes)
{
    if (layer != nullptr)
    {
        QStringList names;
        for (const int field : attributes)
            names << source.fields().at(field).name();
        mColumnar = VbasArrowRecords::open(*layer, names);
    }
    if (!mColumnar)
    {
        QgsFeatureRequest request;
        request.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(attributes);
        mFeatures = source.getFeatures(request);
    }
}

bool VbasRecordRows::next(QgsFeatureId& id, QVector<QVariant>& values)
{
    if (mColumnar)
        return mColumnar->next(id, values);
    if (!mFeatures.nextFeature(mFeature))
        return false;
    id = mFeature.id();
    values.resize(mAttributes.size());
    for (int i = 0; i < mAttributes.size(); ++i)
        values[i] = mFeature.attribute(mAttributes.at(i));
    return true;
}

long VbasRecordRows::expectedRows() const
{
    return mColumnar ? mColumnar->cheapRowCount() : long(mSource.featureCount());
}
