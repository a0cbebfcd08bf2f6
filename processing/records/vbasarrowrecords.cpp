#include "vbasarrowrecords.h"

#include "data/TextIds.h"

#include "vbasqgiscompat.h"
#include "vbasrecordstorage.h"

#include <qgsdatasourceuri.h>
#include <qgsexception.h>
#include <qgsfeaturesource.h>
#include <qgsvectorlayer.h>

#include <QDate>

#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_recordbatch.h>

#include <cstring>
#include <future>
#include <optional>
#include <string>
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
VbasCompat::FieldType variantType(Kind kind)
{
    switch (kind)
    {
    case Kind::Utf8:
    case Kind::LargeUtf8:
        return VbasCompat::FieldTypeString;
    case Kind::Int64:
    case Kind::UInt32:
        return VbasCompat::FieldTypeLongLong;
    case Kind::Float32:
    case Kind::Float64:
        return VbasCompat::FieldTypeDouble;
    case Kind::Bool:
        return VbasCompat::FieldTypeBool;
    case Kind::Date32:
        return VbasCompat::FieldTypeDate;
    default:
        return VbasCompat::FieldTypeInt;
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
        return VbasCompat::nullOf(variantType(kind));
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

/** Appends the bytes that tell row `row`'s value of a column apart: a mark for NULL, else its own bytes. */
void appendValueBytes(const ArrowArray& array, Kind kind, std::int64_t row, std::string& bytes)
{
    const std::int64_t i = row + array.offset;
    if (array.null_count != 0 && array.buffers[0] != nullptr && !bit(array.buffers[0], i))
    {
        bytes += '\0';
        return;
    }
    bytes += '\1';
    const auto* data = static_cast<const char*>(array.buffers[1]);
    switch (kind)
    {
    case Kind::Utf8:
    {
        const auto* offsets = static_cast<const std::int32_t*>(array.buffers[1]);
        bytes.append(static_cast<const char*>(array.buffers[2]) + offsets[i],
                     std::size_t(offsets[i + 1] - offsets[i]));
        return;
    }
    case Kind::LargeUtf8:
    {
        const auto* offsets = static_cast<const std::int64_t*>(array.buffers[1]);
        bytes.append(static_cast<const char*>(array.buffers[2]) + offsets[i],
                     std::size_t(offsets[i + 1] - offsets[i]));
        return;
    }
    case Kind::Bool:
        bytes += bit(array.buffers[1], i) ? '\1' : '\0';
        return;
    case Kind::Int8:
    case Kind::UInt8:
        bytes.append(data + i, 1);
        return;
    case Kind::Int16:
    case Kind::UInt16:
        bytes.append(data + 2 * i, 2);
        return;
    case Kind::Int32:
    case Kind::UInt32:
    case Kind::Float32:
    case Kind::Date32:
        bytes.append(data + 4 * i, 4);
        return;
    case Kind::Int64:
    case Kind::Float64:
        bytes.append(data + 8 * i, 8);
        return;
    }
}
} // namespace

struct VbasArrowRecords::Stream
{
    GDALDatasetH dataset = nullptr;
    /** The layer streamed: the file's layer, or the result of a query owned by the dataset until released. */
    OGRLayerH layer = nullptr;
    bool resultSet = false;
    /** The rows GDAL counts without a pass over the data, -1 when it cannot (a CSV) or rows are groups. */
    long expectedRows = -1;
    ArrowArrayStream stream{};
    ArrowSchema schema{};
    /** The batch being read, and the next one, which a thread of its own reads from GDAL meanwhile. */
    ArrowArray batch{};
    ArrowArray ahead{};
    std::future<int> readingAhead;
    std::int64_t row = 0;
    int fidColumn = -1;
    /** Per asked field: its column and kind (the feature id column for a GeoPackage's "fid"). */
    std::vector<std::pair<int, Kind>> columns;
    /** Grouped: the COUNT(*) column and its kind, the rows read and the records of the last one. */
    std::optional<std::pair<int, Kind>> countColumn;
    std::int64_t groupsRead = 0;
    qint64 groupSize = 1;
    QString groupedBy;
    /**
     * Per asked field: its distinct values numbered by their bytes in the stream (a mark for NULL first),
     * each converted once; the numbers of the last row's values; the bytes of the value looked up.
     */
    std::vector<vbas::TextIds> valueNumbers;
    std::vector<std::vector<QVariant>> values;
    std::vector<std::uint32_t> ids;
    std::string valueBytes;

    ~Stream()
    {
        // The batches and the stream belong to the layer, which belongs to the dataset: released in that
        // order.
        if (readingAhead.valid())
            readingAhead.wait();
        for (ArrowArray* array : {&batch, &ahead})
            if (array->release != nullptr)
                array->release(array);
        if (schema.release != nullptr)
            schema.release(&schema);
        if (stream.release != nullptr)
            stream.release(&stream);
        if (resultSet)
            GDALDatasetReleaseResultSet(dataset, layer);
        if (dataset != nullptr)
            GDALClose(dataset);
    }

    /**
     * Reads the next batch into `ahead` in a thread of its own while this one converts `batch`: GDAL's
     * reading and the conversion overlap, as GDAL's own worker threads had them overlap for a GeoPackage.
     * Nothing else touches the dataset until readingAhead is done.
     */
    void readAhead()
    {
        readingAhead = std::async(std::launch::async, [this] { return stream.get_next(&stream, &ahead); });
    }

    int columnNamed(const QString& name) const
    {
        for (std::int64_t c = 0; c < schema.n_children; ++c)
            if (QString::fromUtf8(schema.children[c]->name) == name)
                return int(c);
        return -1;
    }

    /** The column of a field and its kind, or nothing when the stream lacks it or cannot convert its type. */
    std::optional<std::pair<int, Kind>> column(int index) const
    {
        if (index < 0)
            return std::nullopt;
        const ArrowSchema& child = *schema.children[index];
        const std::optional<Kind> kind = kindOf(child.format);
        if (!kind || child.dictionary != nullptr)
            return std::nullopt;
        return std::pair(index, *kind);
    }

    /**
     * Starts the Arrow stream of `layer` and finds the columns of `fields`; with `withFid`,
     * the feature id column too, named `fidName` (OGC_FID when empty), which a field of that name reads.
     * False when GDAL cannot stream the layer or a field's type is not converted.
     */
    bool start(const QStringList& fields, const QString& fidName, bool withFid)
    {
        CPLStringList options;
        options.AddString(withFid ? "INCLUDE_FID=YES" : "INCLUDE_FID=NO");
        options.AddString("MAX_FEATURES_IN_BATCH=65536");
        if (!OGR_L_GetArrowStream(layer, &stream, options.List()) || stream.get_schema(&stream, &schema) != 0)
            return false;
        if (withFid)
        {
            fidColumn = columnNamed(fidName.isEmpty() ? QStringLiteral("OGC_FID") : fidName);
            if (fidColumn < 0 || std::strcmp(schema.children[fidColumn]->format, "l") != 0)
                return false;
        }
        for (const QString& field : fields)
        {
            const auto found = column(withFid && field == fidName ? fidColumn : columnNamed(field));
            if (!found)
                return false;
            columns.push_back(*found);
        }
        valueNumbers.resize(columns.size());
        values.resize(columns.size());
        ids.resize(columns.size());
        return true;
    }
};

namespace
{
/** A subset string that is a whole SQL query, not a filter (QGIS's OGR provider allows both). */
bool wholeQuery(const QString& subset)
{
    return subset.trimmed().startsWith(QLatin1String("select"), Qt::CaseInsensitive);
}

} // namespace

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
    if (layer.providerType() != QLatin1String("ogr") || wholeQuery(subset) ||
        !VbasSql::fieldsInTheSource(layer, fields))
        return nullptr;
    auto stream = std::make_unique<Stream>();
    OGRLayerH ogrLayer = nullptr;
    if (!VbasGdal::openLayer(layer.source(), false, stream->dataset, ogrLayer))
        return nullptr;
    if (!subset.isEmpty() && OGR_L_SetAttributeFilter(ogrLayer, subset.toUtf8().constData()) != OGRERR_NONE)
        return nullptr;
    stream->expectedRows = long(OGR_L_GetFeatureCount(ogrLayer, FALSE));
    stream->layer = ogrLayer;

    // Only the asked fields travel.
    const QString fidName = QString::fromUtf8(OGR_L_GetFIDColumn(ogrLayer));
    if (VbasGdal::isGeoPackage(stream->dataset))
    {
        const VbasQuietGdal quiet;
        QStringList columns = fields;
        columns.removeAll(fidName);
        columns.prepend(fidName);
        stream->layer = VbasGdal::selectFrom(stream->dataset, ogrLayer, columns, subset);
        if (stream->layer == nullptr)
            return nullptr;
        stream->resultSet = true;
    }
    else
    {
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
        if (OGR_L_SetIgnoredFields(ogrLayer, const_cast<const char**>(ignored.List())) != OGRERR_NONE)
            return nullptr;
    }
    if (!stream->start(fields, fidName, true))
        return nullptr;
    return std::unique_ptr<VbasArrowRecords>(new VbasArrowRecords(std::move(stream)));
}

std::unique_ptr<VbasArrowRecords>
VbasArrowRecords::openGroups(const QgsVectorLayer& layer, const QStringList& fields, bool files, QString& why)
{
    const QString provider = layer.providerType();
    const QString subset = layer.subsetString().trimmed();
    if (!VbasSql::fieldsInTheSource(layer, fields))
        return nullptr;
    const VbasQuietGdal quiet;
    auto stream = std::make_unique<Stream>();
    QString from;
    if (provider == QLatin1String("spatialite"))
    {
        const QgsDataSourceUri uri(layer.source());
        from = VbasSql::fromItem(uri);
        stream->dataset = GDALOpenEx(uri.database().toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY,
                                     nullptr, nullptr, nullptr);
        if (stream->dataset == nullptr)
        {
            why = QObject::tr("GDAL could not open the database: %1").arg(VbasQuietGdal::last());
            return nullptr;
        }
    }
    else if (provider == QLatin1String("ogr") && files && !wholeQuery(subset))
    {
        OGRLayerH fileLayer = nullptr;
        if (!VbasGdal::openLayer(layer.source(), false, stream->dataset, fileLayer))
            return nullptr;
        const char* driver = GDALGetDriverShortName(GDALGetDatasetDriver(stream->dataset));
        if (std::strcmp(driver, "GPKG") != 0 && std::strcmp(driver, "SQLite") != 0)
            return nullptr;
        from = VbasSql::quotedIdentifier(QString::fromUtf8(OGR_L_GetName(fileLayer)));
    }
    else
        return nullptr;
    stream->groupedBy = QString::fromUtf8(GDALGetDriverLongName(GDALGetDatasetDriver(stream->dataset)));

    const QString countName = QStringLiteral("vbas_group_records");
    const QString sql = VbasSql::selectQuery(fields, from, subset, countName);
    stream->layer = GDALDatasetExecuteSQL(stream->dataset, sql.toUtf8().constData(), nullptr, nullptr);
    if (stream->layer == nullptr)
    {
        why = QObject::tr("%1 refused the query %2: %3").arg(stream->groupedBy, sql, VbasQuietGdal::last());
        return nullptr;
    }
    stream->resultSet = true;
    if (!stream->start(fields, QString(), false))
    {
        why = QObject::tr("a field has a type GDAL's stream does not give (date-time, list...) or GDAL "
                          "failed: %1")
                  .arg(VbasQuietGdal::last());
        return nullptr;
    }
    stream->countColumn = stream->column(stream->columnNamed(countName));
    if (!stream->countColumn)
    {
        why = QObject::tr("%1 gave no whole-number count").arg(stream->groupedBy);
        return nullptr;
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
        if (!s.readingAhead.valid())
            s.readAhead();
        if (s.readingAhead.get() != 0)
        {
            const char* error = s.stream.get_last_error(&s.stream);
            throw QgsProcessingException(QObject::tr("RECORDS: GDAL could not read the next rows: %1")
                                             .arg(QString::fromUtf8(error != nullptr ? error : "")));
        }
        s.batch = s.ahead;
        s.ahead = ArrowArray{};
        s.row = 0;
        if (s.batch.release == nullptr)
            return false; // the end of the stream
        s.readAhead();
    }
    // A struct array's offset applies to its children too.
    const std::int64_t row = s.row + s.batch.offset;
    if (s.countColumn)
    {
        id = s.groupsRead++;
        s.groupSize = cell(*s.batch.children[s.countColumn->first], s.countColumn->second, row).toLongLong();
    }
    else
        id = fixed<std::int64_t>(*s.batch.children[s.fidColumn], row + s.batch.children[s.fidColumn]->offset);
    values.resize(int(s.columns.size()));
    for (std::size_t f = 0; f < s.columns.size(); ++f)
    {
        const ArrowArray& column = *s.batch.children[s.columns[f].first];
        const Kind kind = s.columns[f].second;
        s.valueBytes.clear();
        appendValueBytes(column, kind, row, s.valueBytes);
        const std::uint32_t valueId = s.valueNumbers[f].idOf(s.valueBytes);
        if (valueId == s.values[f].size())
            s.values[f].push_back(cell(column, kind, row));
        s.ids[f] = valueId;
        values[int(f)] = s.values[f][valueId];
    }
    ++s.row;
    return true;
}

const std::uint32_t* VbasArrowRecords::valueIds() const
{
    return mStream->ids.data();
}

long VbasArrowRecords::expectedRows() const
{
    return mStream->expectedRows;
}

bool VbasArrowRecords::grouped() const
{
    return mStream->countColumn.has_value();
}

qint64 VbasArrowRecords::groupSize() const
{
    return mStream->groupSize;
}

QString VbasArrowRecords::description() const
{
    if (grouped())
        return QObject::tr("RECORDS: grouped by the database (%1): GROUP BY the %2 fields read, with "
                           "COUNT(*); only the counts travel")
            .arg(mStream->groupedBy)
            .arg(mStream->columns.size());
    return QObject::tr("RECORDS: read through GDAL's Arrow stream");
}
