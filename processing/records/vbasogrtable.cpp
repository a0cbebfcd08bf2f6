#include "vbasogrtable.h"

#include "vbasarrowbatches.h"
#include "vbasdisk.h"
#include "vbasqgiscompat.h"
#include "vbasrecordstorage.h"

#include <qgsexception.h>
#include <qgsfeaturesink.h>

#include <QDate>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <gdal.h>
#include <ogr_api.h>
#include <sqlite3.h>

#include <cpl_vsi.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

namespace
{
/** How a field's values go into OGR. */
enum class Writing
{
    Text,
    Integer,
    Real,
    Date,
    DateTime,
};

std::string quotedName(const std::string& name)
{
    return VbasSql::quotedIdentifier(QString::fromStdString(name)).toStdString();
}

bool execute(sqlite3* db, const std::string& sql)
{
    return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
}

/** Runs `sql` with `text` bound to its one parameter. */
bool executeWith(sqlite3* db, const std::string& sql, const std::string& text)
{
    sqlite3_stmt* statement = nullptr;
    const bool done = sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
                      sqlite3_bind_text(statement, 1, text.c_str(), -1, SQLITE_TRANSIENT) == SQLITE_OK &&
                      sqlite3_step(statement) == SQLITE_DONE;
    sqlite3_finalize(statement);
    return done;
}

/**
 * The text of each of `values` (std::nullopt: NULL) in a CSV row as GDAL's CSV driver writes a field of
 * `type` (the type QGIS created the column with; GDAL quotes text where it has a separator, a quote or a
 * line break or reads as a number, and whether it quotes numbers depends on its version), and the line end
 * it writes: GDAL writes a small CSV in memory, and its records are read back.
 */
std::vector<std::string> csvTexts(const std::vector<std::optional<QByteArray>>& values, OGRFieldType type,
                                  std::string& lineEnd)
{
    // Releases may run in parallel (QGIS's background tasks): each call a file of its own.
    static std::atomic<unsigned> file{0};
    const std::string path = "/vsimem/vbas_csv_texts_" + std::to_string(++file) + ".csv";
    GDALDatasetH dataset =
        GDALCreate(GDALGetDriverByName("CSV"), path.c_str(), 0, 0, 0, GDT_Unknown, nullptr);
    if (dataset == nullptr)
        return {};
    OGRLayerH layer = GDALDatasetCreateLayer(dataset, "texts", nullptr, wkbNone, nullptr);
    // A first column always "k": no record is empty, whatever GDAL does with a lone empty value.
    for (const auto& [name, fieldType] : {std::pair("k", OFTString), std::pair("v", type)})
    {
        OGRFieldDefnH field = OGR_Fld_Create(name, fieldType);
        OGR_L_CreateField(layer, field, TRUE);
        OGR_Fld_Destroy(field);
    }
    OGRFeatureH feature = OGR_F_Create(OGR_L_GetLayerDefn(layer));
    bool created = true;
    for (const std::optional<QByteArray>& value : values)
    {
        OGR_F_SetFieldString(feature, 0, "k");
        if (value)
            OGR_F_SetFieldString(feature, 1, value->constData());
        else
            OGR_F_UnsetField(feature, 1);
        created = OGR_L_CreateFeature(layer, feature) == OGRERR_NONE && created;
    }
    OGR_F_Destroy(feature);
    GDALClose(dataset);
    if (!created)
    {
        VSIUnlink(path.c_str());
        return {};
    }
    vsi_l_offset size = 0;
    const char* text = reinterpret_cast<const char*>(VSIGetMemFileBuffer(path.c_str(), &size, FALSE));
    std::vector<std::string> records;
    std::string record;
    bool quoted = false;
    for (vsi_l_offset i = 0; text != nullptr && i < size; ++i)
    {
        const char c = text[i];
        quoted = c == '"' ? !quoted : quoted; // a doubled quote toggles twice
        if (quoted || (c != '\n' && c != '\r'))
            record += c;
        else if (c == '\n')
        {
            if (records.empty() && lineEnd.empty())
                lineEnd = i > 0 && text[i - 1] == '\r' ? "\r\n" : "\n";
            records.push_back(record);
            record.clear();
        }
    }
    VSIUnlink(path.c_str());
    if (records.size() != values.size() + 1) // the header, then a record per value
        return {};
    std::vector<std::string> texts;
    for (std::size_t i = 1; i < records.size(); ++i)
        texts.push_back(records[i].substr(2)); // without "k,"
    return texts;
}
} // namespace

struct VbasOgrTable::Table
{
    Route route = Route::GdalFeatures;
    /** Per QGIS field: its OGR field and how its values are written. */
    std::vector<std::pair<int, Writing>> columns;
    /** Per QGIS field: its Arrow array, when GDAL's Arrow write takes every field. */
    std::vector<VbasArrowBatches::Column> arrowColumns;

    // Through GDAL (its Arrow write or its features): dates and times (GDAL's formats), or when SQLite
    // cannot open the file.
    GDALDatasetH dataset = nullptr;
    OGRLayerH layer = nullptr;
    OGRFeatureH feature = nullptr;
    bool inTransaction = false;

    // Through SQLite: one prepared INSERT on a connection of its own (twice as fast as OGR's features).
    sqlite3* db = nullptr;
    sqlite3_stmt* insert = nullptr;
    /** The same INSERT for kBatchRows rows at once: per-statement work (the fid sequence) once per batch. */
    sqlite3_stmt* insertBatch = nullptr;
    static constexpr int kBatchRows = 128;

    // A CSV's rows as text: each distinct value escaped by GDAL once, then appended to the file.
    std::string csvPath;
    std::FILE* csv = nullptr;
    std::string table;
    /** The feature-count trigger GDAL keeps on the table, dropped during the inserts and put back. */
    std::string countTrigger;
    std::int64_t inserted = 0;

    /**
     * Opens the GeoPackage `path` with SQLite for appending to `table` (columns `names`), in one transaction;
     * false, with nothing open, when SQLite cannot (the rows then go through GDAL).
     */
    bool openSqlite(const QString& path, const std::vector<std::string>& names);
    /** Puts back what GDAL keeps about the table (its feature count, last change, trigger), and commits. */
    bool commitSqlite();
    /** Runs `statement`, an INSERT of `rowCount` bound rows; false with `error` when SQLite refuses. */
    bool step(sqlite3_stmt* statement, int rowCount, QString& error)
    {
        const bool done = sqlite3_step(statement) == SQLITE_DONE;
        if (!done)
            error = QString::fromUtf8(sqlite3_errmsg(db));
        sqlite3_reset(statement);
        inserted += done ? rowCount : 0;
        return done;
    }

    ~Table()
    {
        if (feature != nullptr)
            OGR_F_Destroy(feature);
        // Unfinished: the rows go (the output guard deletes the staged file anyway).
        if (dataset != nullptr && inTransaction && GDALDatasetRollbackTransaction(dataset) != OGRERR_NONE)
            CPLErrorReset();
        if (dataset != nullptr)
            GDALClose(dataset);
        if (csv != nullptr)
            std::fclose(csv);
        sqlite3_finalize(insert);
        sqlite3_finalize(insertBatch);
        if (db != nullptr)
        {
            if (inTransaction)
                sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
            sqlite3_close(db);
        }
    }
};

bool VbasOgrTable::Table::openSqlite(const QString& path, const std::vector<std::string>& names)
{
    inTransaction =
        sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
        execute(db, "BEGIN IMMEDIATE");
    // GDAL's trigger counting the table's rows would run an UPDATE per row: the count is set once at the end.
    const std::string trigger = "trigger_insert_feature_count_" + table;
    sqlite3_stmt* find = nullptr;
    bool ready = inTransaction &&
                 sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                                    -1, &find, nullptr) == SQLITE_OK;
    if (ready)
    {
        sqlite3_bind_text(find, 1, trigger.c_str(), -1, SQLITE_TRANSIENT);
        if (sqlite3_step(find) == SQLITE_ROW)
            countTrigger = reinterpret_cast<const char*>(sqlite3_column_text(find, 0));
    }
    sqlite3_finalize(find);
    std::string columnList, places;
    for (const std::string& name : names)
    {
        columnList += (columnList.empty() ? "" : ", ") + quotedName(name);
        places += places.empty() ? "?" : ", ?";
    }
    const std::string into = "INSERT INTO " + quotedName(table) + " (" + columnList + ") VALUES ";
    std::string batch = into;
    for (int row = 0; row < kBatchRows; ++row)
        batch += (row == 0 ? "(" : ", (") + places + ")";
    ready = ready && (countTrigger.empty() || execute(db, "DROP TRIGGER " + quotedName(trigger))) &&
            sqlite3_prepare_v2(db, (into + "(" + places + ")").c_str(), -1, &insert, nullptr) == SQLITE_OK &&
            sqlite3_prepare_v2(db, batch.c_str(), -1, &insertBatch, nullptr) == SQLITE_OK;
    if (ready)
        return true;
    if (inTransaction)
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    db = nullptr;
    inTransaction = false;
    countTrigger.clear();
    return false;
}

bool VbasOgrTable::Table::commitSqlite()
{
    sqlite3_finalize(insert);
    sqlite3_finalize(insertBatch);
    insert = insertBatch = nullptr;
    sqlite3_stmt* contents = nullptr;
    bool counted = false;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = 'gpkg_ogr_contents'", -1, &contents,
                           nullptr) == SQLITE_OK)
        counted = sqlite3_step(contents) == SQLITE_ROW;
    sqlite3_finalize(contents);
    // A count QGIS left unknown (NULL) is counted: readers then need not scan millions of rows.
    const std::string count = "UPDATE gpkg_ogr_contents SET feature_count = COALESCE(feature_count + " +
                              std::to_string(inserted) + ", (SELECT COUNT(*) FROM " + quotedName(table) +
                              ")) WHERE lower(table_name) = lower(?)";
    const bool committed =
        (!counted || executeWith(db, count, table)) &&
        executeWith(db,
                    "UPDATE gpkg_contents SET last_change = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE "
                    "lower(table_name) = lower(?)",
                    table) &&
        (countTrigger.empty() || execute(db, countTrigger)) && execute(db, "COMMIT");
    inTransaction = !committed;
    return committed;
}

bool VbasOgrTable::accepts(const QString& destination, const QgsFields& fields)
{
    const QString path = VbasGdal::path(destination);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (path.isEmpty())
        return false;
    if (suffix == QLatin1String("gpkg"))
        return true;
    // Text, whole numbers and flags come out as GDAL writes the columns QGIS created (numbers quoted by
    // GDAL 3.6, plain by later ones); real numbers and dates QGIS formats itself, so a table with them stays
    // with QGIS's writer.
    if (suffix != QLatin1String("csv"))
        return false;
    for (const QgsField& field : fields)
        if (field.type() != VbasCompat::FieldTypeString && field.type() != VbasCompat::FieldTypeInt &&
            field.type() != VbasCompat::FieldTypeLongLong && field.type() != VbasCompat::FieldTypeBool)
            return false;
    return true;
}

VbasOgrTable::VbasOgrTable(const QString& destination, const QgsFields& fields, const QString& outputName,
                           Route route)
    : mTable(std::make_unique<Table>())
    , mOutputName(outputName)
    , mFile(VbasGdal::path(destination))
{
    const auto fail = [&](const QString& why)
    {
        return QgsProcessingException(
            QObject::tr("%1: could not write %2 through GDAL: %3")
                .arg(outputName, destination, VbasDisk::reason(why, VbasGdal::path(destination))));
    };
    Table& t = *mTable;
    if (!VbasGdal::openLayer(destination, true, t.dataset, t.layer))
        throw fail(t.dataset == nullptr ? VbasQuietGdal::last()
                                        : QObject::tr("GDAL finds no such layer in it"));
    OGRFeatureDefnH definition = OGR_L_GetLayerDefn(t.layer);
    std::vector<std::string> names;
    bool arrow = VbasArrowBatches::available();
    for (const QgsField& field : fields)
    {
        const int index = OGR_FD_GetFieldIndex(definition, field.name().toUtf8().constData());
        if (index < 0)
            throw fail(QObject::tr("the table has no field '%1'").arg(field.name()));
        OGRFieldDefnH ogrField = OGR_FD_GetFieldDefn(definition, index);
        names.push_back(OGR_Fld_GetNameRef(ogrField));
        Writing writing = Writing::Text;
        switch (field.type())
        {
        case VbasCompat::FieldTypeString:
            break;
        case VbasCompat::FieldTypeInt:
        case VbasCompat::FieldTypeLongLong:
        case VbasCompat::FieldTypeBool:
            writing = Writing::Integer;
            break;
        case VbasCompat::FieldTypeDouble:
            writing = Writing::Real;
            break;
        case VbasCompat::FieldTypeDate:
            writing = Writing::Date;
            break;
        case VbasCompat::FieldTypeDateTime:
            writing = Writing::DateTime;
            break;
        default:
            throw fail(QObject::tr("field '%1' is of type %2").arg(field.name(), field.typeName()));
        }
        t.columns.emplace_back(index, writing);
        VbasArrowBatches::Column column{names.back(), VbasArrowBatches::Type::Utf8};
        arrow = arrow && writing != Writing::DateTime &&
                VbasArrowBatches::typeOf(OGR_Fld_GetType(ogrField), column.type);
        t.arrowColumns.push_back(column);
    }
    const std::string driver = GDALGetDriverShortName(GDALGetDatasetDriver(t.dataset));
    if (driver == "CSV")
    {
        t.route = Route::CsvText;
        t.csvPath = VbasGdal::path(destination).toStdString();
    }
    else if (driver == "GPKG")
    {
        // Text and numbers go into the GeoPackage as GDAL binds them; dates and times keep GDAL's formats.
        const bool plain =
            std::all_of(t.columns.begin(), t.columns.end(),
                        [](const auto& column)
                        { return column.second != Writing::Date && column.second != Writing::DateTime; });
        t.table = OGR_L_GetName(t.layer);
        if (plain && route <= Route::SqliteInserts)
        {
            GDALClose(t.dataset);
            t.dataset = nullptr;
            t.layer = nullptr;
            if (t.openSqlite(VbasGdal::path(destination), names))
            {
                t.route = Route::SqliteInserts;
                return;
            }
            if (!VbasGdal::openLayer(destination, true, t.dataset, t.layer))
                throw fail(VbasQuietGdal::last());
        }
        if (arrow && route <= Route::GdalArrow)
            t.route = Route::GdalArrow;
    }
    if (t.route != Route::GdalArrow)
        t.arrowColumns.clear();
    t.feature = OGR_F_Create(OGR_L_GetLayerDefn(t.layer));
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

/** A value ready to bind to the INSERT: converted once, bound as often as rows hold it. */
struct BoundValue
{
    Writing writing = Writing::Text;
    bool null = true;
    QByteArray text;
    qint64 integer = 0;
    double real = 0.0;

    BoundValue(Writing as, const QVariant& value)
        : writing(as)
        , null(VbasCompat::isNull(value))
    {
        if (null)
            return;
        if (writing == Writing::Integer)
            integer = value.toLongLong();
        else if (writing == Writing::Real)
            real = value.toDouble();
        else
            text = value.toString().toUtf8(); // dates never come here: they go through GDAL
    }

    /** Binds the value to parameter `p`; the text stays this object's (it must outlive the step). */
    void bind(sqlite3_stmt* insert, int p) const
    {
        if (null)
            sqlite3_bind_null(insert, p);
        else if (writing == Writing::Integer)
            sqlite3_bind_int64(insert, p, integer);
        else if (writing == Writing::Real)
            sqlite3_bind_double(insert, p, real);
        else
            sqlite3_bind_text(insert, p, text.constData(), int(text.size()), SQLITE_STATIC);
    }
};
} // namespace

bool VbasOgrTable::addRows(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written)
{
    Table& t = *mTable;
    if (t.route == Route::CsvText)
    {
        if (appendCsvText(rows, written))
            return mError.isEmpty();
        t.route = Route::GdalFeatures;
    }
    const std::size_t first = rows.numbered ? 1 : 0;
    const auto integer = [](VbasArrowBatches::Type type)
    {
        return type == VbasArrowBatches::Type::Int32 || type == VbasArrowBatches::Type::Int64;
    };
    if (t.route == Route::GdalArrow && (!rows.numbered || integer(t.arrowColumns[0].type)))
        return VbasArrowBatches::write(t.layer, t.arrowColumns, rows, written, mError);
    // Every value converted once (text to UTF-8 once per value, not once per row).
    std::vector<std::vector<BoundValue>> bound(rows.columns());
    for (std::size_t c = 0; c < rows.columns(); ++c)
        for (const QVariant& value : rows.values[c])
            bound[c].emplace_back(t.columns[first + c].second, value);
    // Binds the row written `i`-th to the `slot`-th row of `statement`'s values.
    const int rowParameters = int(t.columns.size());
    const auto bindRow = [&](sqlite3_stmt* statement, int slot, std::size_t i)
    {
        const int base = slot * rowParameters;
        if (rows.numbered)
            sqlite3_bind_int64(statement, base + 1, sqlite3_int64(i + 1));
        const std::uint32_t* codes = rows.written(i);
        for (std::size_t c = 0; c < rows.columns(); ++c)
            bound[c][codes[c]].bind(statement, base + int(first + c) + 1);
    };
    std::size_t i = 0;
    const std::size_t batch = std::size_t(Table::kBatchRows);
    for (; t.db != nullptr && i + batch <= rows.order.size(); i += batch)
    {
        if (i % 4096 == 0) // batches of 128 meet every 4,096th row
            written(i);
        for (std::size_t r = 0; r < batch; ++r)
        {
            rows.fetchAhead(i + r);
            bindRow(t.insertBatch, int(r), i + r);
        }
        if (!t.step(t.insertBatch, Table::kBatchRows, mError))
            return false;
    }
    for (; i < rows.order.size(); ++i)
    {
        if (i % 4096 == 0)
            written(i);
        rows.fetchAhead(i);
        if (t.db != nullptr)
        {
            bindRow(t.insert, 0, i);
            if (!t.step(t.insert, 1, mError))
                return false;
        }
        else
        {
            const std::uint32_t* codes = rows.written(i);
            if (rows.numbered)
                OGR_F_SetFieldInteger64(t.feature, t.columns[0].first, GIntBig(i + 1));
            for (std::size_t c = 0; c < rows.columns(); ++c)
            {
                const auto [index, writing] = t.columns[first + c];
                const BoundValue& value = bound[c][codes[c]];
                if (writing == Writing::Text && !value.null)
                    OGR_F_SetFieldString(t.feature, index, value.text.constData());
                else
                    setField(t.feature, index, writing, rows.values[c].at(int(codes[c])));
            }
            OGR_F_SetFID(t.feature, OGRNullFID);
            if (OGR_L_CreateFeature(t.layer, t.feature) != OGRERR_NONE)
            {
                mError = VbasQuietGdal::last();
                return false;
            }
        }
    }
    written(rows.order.size());
    return true;
}

bool VbasOgrTable::appendCsvText(const VbasCodedRows& rows, const std::function<void(std::size_t)>& written)
{
    Table& t = *mTable;
    const std::size_t first = rows.numbered ? 1 : 0;
    // Every value as QGIS's writer gives it to GDAL, into a column of the type QGIS creates, escaped once.
    // The type comes from the field, not from the reopened file: newer GDAL (3.10) reads a CSV's columns
    // back as text, and quotes numbers in text columns but not in number columns.
    const auto typeOf = [&](std::size_t column)
    {
        return t.columns[column].second == Writing::Integer ? OFTInteger64 : OFTString;
    };
    // Before the first rows, GDAL's features can still take them; after, the file is this sink's text.
    const auto cannotEscape = [&]
    {
        if (t.csv == nullptr)
            return false;
        mError = QObject::tr("GDAL's CSV escaping cannot be read back");
        return true;
    };
    std::string lineEnd;
    std::vector<std::vector<std::string>> texts;
    for (std::size_t c = 0; c < rows.columns(); ++c)
    {
        std::vector<std::optional<QByteArray>> values;
        for (const QVariant& value : rows.values[c])
            values.push_back(VbasCompat::isNull(value) ? std::nullopt
                             : t.columns[first + c].second == Writing::Integer
                                 ? std::optional(QByteArray::number(value.toLongLong()))
                                 : std::optional(value.toString().toUtf8()));
        texts.push_back(csvTexts(values, typeOf(first + c), lineEnd));
        if (texts.back().size() != values.size())
            return cannotEscape(); // GDAL's CSV in memory failed
    }
    // Row numbers are digits, which GDAL writes as it writes 1.
    const std::vector<std::string> numbers = csvTexts({QByteArray("1"), QByteArray("1234567890")},
                                                      rows.numbered ? typeOf(0) : OFTInteger64, lineEnd);
    const std::size_t one = numbers.empty() ? std::string::npos : numbers[0].find('1');
    if (one == std::string::npos ||
        numbers[1] != numbers[0].substr(0, one) + "1234567890" + numbers[0].substr(one + 1))
        return cannotEscape();
    const std::string numberBefore = numbers[0].substr(0, one), numberAfter = numbers[0].substr(one + 1);

    if (t.csv == nullptr)
    {
        // Nothing was written through GDAL: the file is QGIS's header alone, and the rows follow it.
        OGR_F_Destroy(t.feature);
        t.feature = nullptr;
        GDALClose(t.dataset);
        t.dataset = nullptr;
        t.layer = nullptr;
        t.csv = std::fopen(t.csvPath.c_str(), "ab");
        if (t.csv == nullptr)
        {
            mError = QString::fromLocal8Bit(std::strerror(errno));
            return true;
        }
    }
    std::string buffer;
    const auto flush = [&]
    {
        if (!buffer.empty() && std::fwrite(buffer.data(), 1, buffer.size(), t.csv) != buffer.size())
            mError = QString::fromLocal8Bit(std::strerror(errno));
        buffer.clear();
    };
    for (std::size_t i = 0; i < rows.order.size() && mError.isEmpty(); ++i)
    {
        if (i % 4096 == 0)
        {
            flush();
            written(i);
        }
        rows.fetchAhead(i);
        if (rows.numbered)
            buffer.append(numberBefore).append(std::to_string(i + 1)).append(numberAfter).append(1, ',');
        const std::uint32_t* codes = rows.written(i);
        for (std::size_t c = 0; c < rows.columns(); ++c)
        {
            if (c > 0)
                buffer += ',';
            buffer += texts[c][codes[c]];
        }
        buffer += lineEnd;
    }
    flush();
    if (mError.isEmpty())
        written(rows.order.size());
    return true;
}

VbasOgrTable::Route VbasOgrTable::route() const
{
    return mTable->route;
}

void VbasOgrTable::finish()
{
    Table& t = *mTable;
    bool committed = false;
    QString error;
    if (t.csv != nullptr)
    {
        committed = std::fflush(t.csv) == 0 && std::ferror(t.csv) == 0;
        error = QString::fromLocal8Bit(std::strerror(errno));
        committed = std::fclose(t.csv) == 0 && committed;
        t.csv = nullptr;
    }
    else if (t.db != nullptr)
    {
        committed = t.commitSqlite();
        error = QString::fromUtf8(sqlite3_errmsg(t.db));
        if (!committed)
            sqlite3_exec(t.db, "ROLLBACK", nullptr, nullptr, nullptr);
        t.inTransaction = false;
        sqlite3_close(t.db);
        t.db = nullptr;
    }
    else
    {
        committed = !t.inTransaction || GDALDatasetCommitTransaction(t.dataset) == OGRERR_NONE;
        t.inTransaction = false;
        error = QString::fromUtf8(CPLGetLastErrorMsg());
        OGR_F_Destroy(t.feature);
        t.feature = nullptr;
        GDALClose(t.dataset);
        t.dataset = nullptr;
    }
    if (!committed)
        throw QgsProcessingException(
            QObject::tr("%1: could not commit the rows to %2 (%3); is the disk full? Nothing was moved into "
                        "place: the previous files are as they were")
                .arg(mOutputName, QDir::toNativeSeparators(mFile), VbasDisk::reason(error, mFile)));
}
