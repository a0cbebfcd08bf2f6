#include "vbasarrowbatches.h"

#include "vbasqgiscompat.h"

#include <QDate>

#include <cpl_error.h>
#include <ogr_api.h>
#include <ogr_recordbatch.h>

#include <algorithm>
#include <cstdint>

bool VbasArrowBatches::available()
{
    return GDAL_VERSION_NUM >= GDAL_COMPUTE_VERSION(3, 8, 0);
}

namespace
{
/** Per Arrow type: the OGR field type GDAL's Arrow write maps to it, and its C data interface format. */
struct TypeMapping
{
    OGRFieldType ogrType;
    VbasArrowBatches::Type type;
    const char* format;
};
constexpr TypeMapping kTypes[] = {
    {OFTInteger, VbasArrowBatches::Type::Int32, "i"}, {OFTInteger64, VbasArrowBatches::Type::Int64, "l"},
    {OFTReal, VbasArrowBatches::Type::Float64, "g"},  {OFTString, VbasArrowBatches::Type::Utf8, "u"},
    {OFTDate, VbasArrowBatches::Type::Date32, "tdD"},
};
} // namespace

bool VbasArrowBatches::typeOf(OGRFieldType ogrType, Type& type)
{
    for (const TypeMapping& mapping : kTypes)
        if (mapping.ogrType == ogrType)
        {
            type = mapping.type;
            return true;
        }
    return false;
}

#if GDAL_VERSION_NUM >= GDAL_COMPUTE_VERSION(3, 8, 0)
namespace
{
using VbasArrowBatches::Type;

const char* formatOf(Type type)
{
    for (const TypeMapping& mapping : kTypes)
        if (mapping.type == type)
            return mapping.format;
    return "u";
}

/** A value as its Arrow array holds it, converted once. */
struct ArrowValue
{
    bool null = true;
    std::int64_t integer = 0; // Int32, Int64, Date32 (days since 1970-01-01)
    double real = 0.0;
    QByteArray text;

    /** A row number, for an integer column. */
    explicit ArrowValue(std::int64_t number)
        : null(false)
        , integer(number)
    {
    }
    ArrowValue(Type type, const QVariant& value)
        : null(VbasCompat::isNull(value))
    {
        if (null)
            return;
        switch (type)
        {
        case Type::Int32:
        case Type::Int64:
            integer = value.toLongLong();
            break;
        case Type::Float64:
            real = value.toDouble();
            break;
        case Type::Utf8:
            text = value.toString().toUtf8();
            break;
        case Type::Date32:
            integer = value.toDate().toJulianDay() - QDate(1970, 1, 1).toJulianDay();
            break;
        }
    }
};

/** The memory stays this program's: GDAL's base writer only reads the batch, and releasing it frees nothing.
 */
void releaseSchema(ArrowSchema* schema)
{
    schema->release = nullptr;
}
void releaseArray(ArrowArray* array)
{
    array->release = nullptr;
}

/** One column's array of a batch: its validity bits, values (fixed width or string offsets) and text. */
struct ColumnArray
{
    Type type = Type::Utf8;
    std::vector<std::uint8_t> validity;
    std::vector<std::int32_t> int32s; // Int32, Date32, and Utf8's offsets
    std::vector<std::int64_t> int64s;
    std::vector<double> reals;
    std::string bytes;
    const void* buffers[3] = {nullptr, nullptr, nullptr};
    ArrowArray array{};
    ArrowSchema schema{};

    void clear(std::size_t rows)
    {
        validity.assign((rows + 7) / 8, 0);
        int32s.clear();
        int64s.clear();
        reals.clear();
        bytes.clear();
        array.null_count = 0;
        if (type == Type::Utf8)
            int32s.push_back(0);
    }

    void append(std::size_t row, const ArrowValue& value)
    {
        if (value.null)
            ++array.null_count;
        else
            validity[row / 8] |= std::uint8_t(1u << (row % 8));
        switch (type)
        {
        case Type::Int32:
        case Type::Date32:
            int32s.push_back(std::int32_t(value.integer));
            break;
        case Type::Int64:
            int64s.push_back(value.integer);
            break;
        case Type::Float64:
            reals.push_back(value.real);
            break;
        case Type::Utf8:
            bytes.append(value.text.constData(), std::size_t(value.text.size()));
            int32s.push_back(std::int32_t(bytes.size()));
            break;
        }
    }

    /** Points the array at this batch's buffers. */
    void seal(std::size_t rows)
    {
        buffers[0] = validity.data();
        buffers[1] = type == Type::Int64     ? static_cast<const void*>(int64s.data())
                     : type == Type::Float64 ? static_cast<const void*>(reals.data())
                                             : static_cast<const void*>(int32s.data());
        buffers[2] = bytes.data();
        array.length = std::int64_t(rows);
        array.offset = 0;
        array.n_buffers = type == Type::Utf8 ? 3 : 2;
        array.buffers = buffers;
        array.release = releaseArray;
    }
};
} // namespace

bool VbasArrowBatches::write(OGRLayerH layer, const std::vector<Column>& columns, const VbasCodedRows& rows,
                             const std::function<void(std::size_t)>& written, QString& error)
{
    const std::size_t first = rows.numbered ? 1 : 0;
    // Every value converted once (text to UTF-8 once per value, not once per row).
    std::vector<std::vector<ArrowValue>> values(rows.columns());
    for (std::size_t c = 0; c < rows.columns(); ++c)
        for (const QVariant& value : rows.values[c])
            values[c].emplace_back(columns[first + c].type, value);

    std::vector<ColumnArray> arrays(columns.size());
    std::vector<ArrowArray*> childArrays;
    std::vector<ArrowSchema*> childSchemas;
    for (std::size_t c = 0; c < columns.size(); ++c)
    {
        ColumnArray& column = arrays[c];
        column.type = columns[c].type;
        column.schema.format = formatOf(column.type);
        column.schema.name = columns[c].name.c_str();
        column.schema.flags = ARROW_FLAG_NULLABLE;
        column.schema.release = releaseSchema;
        childArrays.push_back(&column.array);
        childSchemas.push_back(&column.schema);
    }
    ArrowSchema schema{};
    schema.format = "+s";
    schema.name = "";
    schema.n_children = std::int64_t(columns.size());
    schema.children = childSchemas.data();
    schema.release = releaseSchema;
    const void* structBuffers[1] = {nullptr};

    constexpr std::size_t kBatchRows = 4096;
    for (std::size_t start = 0; start < rows.order.size(); start += kBatchRows)
    {
        written(start);
        const std::size_t count = std::min(kBatchRows, rows.order.size() - start);
        for (ColumnArray& column : arrays)
            column.clear(count);
        for (std::size_t r = 0; r < count; ++r)
        {
            const std::size_t i = start + r;
            rows.fetchAhead(i);
            if (rows.numbered)
                arrays[0].append(r, ArrowValue(std::int64_t(i + 1)));
            const std::uint32_t* codes = rows.written(i);
            for (std::size_t c = 0; c < rows.columns(); ++c)
                arrays[first + c].append(r, values[c][codes[c]]);
        }
        for (ColumnArray& column : arrays)
            column.seal(count);
        ArrowArray batch{};
        batch.length = std::int64_t(count);
        batch.n_buffers = 1;
        batch.buffers = structBuffers;
        batch.n_children = std::int64_t(columns.size());
        batch.children = childArrays.data();
        batch.release = releaseArray;
        // A table has no FID column among the rows: GDAL numbers them as it creates them.
        const bool done = OGR_L_WriteArrowBatch(layer, &schema, &batch, nullptr);
        if (!done)
        {
            error = QString::fromUtf8(CPLGetLastErrorMsg());
            return false;
        }
    }
    written(rows.order.size());
    return true;
}
#else
bool VbasArrowBatches::write(OGRLayerH, const std::vector<Column>&, const VbasCodedRows&,
                             const std::function<void(std::size_t)>&, QString& error)
{
    error = QObject::tr("GDAL %1 has no Arrow write (3.8 and later have)").arg(GDAL_RELEASE_NAME);
    return false;
}
#endif
