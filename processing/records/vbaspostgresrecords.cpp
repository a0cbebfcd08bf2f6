#include "vbaspostgresrecords.h"

#include "base/Feedback.h"
#include "data/DistinctRows.h"
#include "data/TextIds.h"
#include "vbasqgiscompat.h"
#include "vbasrecordstorage.h"

#include <qgsdatasourceuri.h>
#include <qgsexception.h>
#include <qgsvectorlayer.h>

#include <QDate>
#include <QElapsedTimer>

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <vector>

namespace
{
/** How a field's text in COPY becomes the value QGIS's PostgreSQL provider gives. */
enum class Conversion
{
    Int,
    LongLong,
    Double,
    Bool,
    Date,
    Text,
    /** char(n): COPY pads it with spaces, QGIS gives it without (as a cast to text does). */
    PaddedText,
};

/** The conversion of a field of the PostgreSQL provider, or nothing for types QGIS reads otherwise. */
std::optional<Conversion> conversionOf(const QgsField& field)
{
    const QString type = field.typeName().toLower();
    const auto among = [&type](std::initializer_list<const char*> names)
    {
        for (const char* name : names)
            if (type == QLatin1String(name))
                return true;
        return false;
    };
    switch (field.type())
    {
    case VbasCompat::FieldTypeInt:
        return among({"int2", "int4"}) ? std::optional(Conversion::Int) : std::nullopt;
    case VbasCompat::FieldTypeLongLong:
        return among({"int8"}) ? std::optional(Conversion::LongLong) : std::nullopt;
    case VbasCompat::FieldTypeDouble:
        return among({"float4", "float8", "numeric"}) ? std::optional(Conversion::Double) : std::nullopt;
    case VbasCompat::FieldTypeBool:
        return among({"bool"}) ? std::optional(Conversion::Bool) : std::nullopt;
    case VbasCompat::FieldTypeDate:
        return among({"date"}) ? std::optional(Conversion::Date) : std::nullopt;
    case VbasCompat::FieldTypeString:
        if (among({"character"}))
            return Conversion::PaddedText;
        return among({"text", "varchar", "char", "citext", "uuid"}) ? std::optional(Conversion::Text)
                                                                    : std::nullopt;
    default:
        return std::nullopt;
    }
}

/** A field's text in COPY's text format with its backslash escapes undone. */
QByteArray unescaped(const char* text, int length)
{
    QByteArray out;
    out.reserve(length);
    for (int i = 0; i < length; ++i)
    {
        if (text[i] != '\\' || i + 1 == length)
        {
            out += text[i];
            continue;
        }
        const char c = text[++i];
        const auto digits = [&](int base, int most)
        {
            int value = 0;
            int used = 0;
            while (used < most && i + 1 < length)
            {
                const char d = text[i + 1];
                const int digit = d >= '0' && d <= '9'   ? d - '0'
                                  : d >= 'a' && d <= 'f' ? d - 'a' + 10
                                  : d >= 'A' && d <= 'F' ? d - 'A' + 10
                                                         : base;
                if (digit >= base)
                    break;
                value = value * base + digit;
                ++used;
                ++i;
            }
            return std::pair(value, used);
        };
        switch (c)
        {
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'v':
            out += '\v';
            break;
        case 'x':
        {
            const auto [value, used] = digits(16, 2);
            out += used > 0 ? char(value) : 'x';
            break;
        }
        default:
            if (c >= '0' && c <= '7')
            {
                --i; // the first digit is the escape's own
                out += char(digits(8, 3).first);
            }
            else
                out += c;
        }
    }
    return out;
}

QVariant converted(Conversion conversion, const QByteArray& text)
{
    switch (conversion)
    {
    case Conversion::Int:
        return text.toInt();
    case Conversion::LongLong:
        return text.toLongLong();
    case Conversion::Double:
        return text.toDouble();
    case Conversion::Bool:
        return text == "t";
    case Conversion::Date:
        return QDate::fromString(QString::fromLatin1(text), Qt::ISODate);
    case Conversion::Text:
        return QString::fromUtf8(text);
    case Conversion::PaddedText:
    {
        auto length = text.size();
        while (length > 0 && text[length - 1] == ' ')
            --length;
        return QString::fromUtf8(text.constData(), length);
    }
    }
    return QVariant();
}

QString lastError(PGconn* connection)
{
    return QString::fromUtf8(PQerrorMessage(connection)).trimmed();
}
} // namespace

struct VbasPostgresRecords::Copy
{
    PGconn* connection = nullptr;
    /** COPY is under way: closing the connection then cancels the query first. */
    bool copying = false;
    /** The row PQgetCopyData gave last, libpq's to free. */
    char* buffer = nullptr;
    Counting counting = Counting::Here;
    vbas::Feedback* feedback = nullptr;
    std::vector<Conversion> conversions;
    std::vector<VbasCompat::FieldType> types;
    /** Per field: its distinct texts in COPY (escaped) numbered, and their values by number. */
    std::vector<vbas::TextIds> texts;
    std::vector<std::vector<QVariant>> values;
    /** The ids of the values of the row COPY gave last, and of the row next() gave last. */
    std::vector<std::uint32_t> ids;
    const std::uint32_t* lastIds = nullptr;
    /** Counted here: the distinct rows, and where the next one to give is. */
    std::unique_ptr<vbas::DistinctRows> rows;
    vbas::DistinctRows::Position nextRow;
    qint64 groupsRead = 0;
    qint64 groupSize = 1;
    /** Counted here: the rows streamed, how many were distinct, and in how long. */
    std::uint64_t rowsStreamed = 0;
    std::size_t distinctRows = 0;
    double streamSeconds = 0;

    ~Copy()
    {
        if (buffer != nullptr)
            PQfreemem(buffer);
        if (connection == nullptr)
            return;
        if (copying)
        {
            // Stops the server's work at once rather than when it next writes to a closed socket.
            if (PGcancel* cancel = PQgetCancel(connection))
            {
                char error[256];
                PQcancel(cancel, error, sizeof error);
                PQfreeCancel(cancel);
            }
        }
        PQfinish(connection);
    }

    /** Runs `sql` (statements that return no rows); false with `why` set when the server refuses. */
    bool execute(const char* sql, QString& why) const
    {
        PGresult* result = PQexec(connection, sql);
        const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
        if (!ok)
            why = lastError(connection);
        PQclear(result);
        return ok;
    }

    /**
     * The next row of the COPY into `line` (without its line break); false after the last. Waits for the
     * server without blocking, so that a cancel reaches it while a GROUP BY runs before the first row.
     */
    bool readRow(std::string_view& line)
    {
        for (;;)
        {
            if (buffer != nullptr)
            {
                PQfreemem(buffer);
                buffer = nullptr;
            }
            const int length = PQgetCopyData(connection, &buffer, 1);
            if (length > 0)
            {
                line = std::string_view(buffer, std::size_t(length - (buffer[length - 1] == '\n' ? 1 : 0)));
                return true;
            }
            if (length == 0)
            {
                feedback->checkCanceled();
                pollfd socket{PQsocket(connection), POLLIN, 0};
                poll(&socket, 1, 100);
                if (PQconsumeInput(connection) == 0)
                    throw QgsProcessingException(QObject::tr("RECORDS: PostgreSQL stopped sending rows: %1")
                                                     .arg(lastError(connection)));
                continue;
            }
            copying = false;
            QString failure = length == -2 ? lastError(connection) : QString();
            while (PGresult* result = PQgetResult(connection))
            {
                if (PQresultStatus(result) != PGRES_COMMAND_OK && failure.isEmpty())
                    failure = QString::fromUtf8(PQresultErrorMessage(result)).trimmed();
                PQclear(result);
            }
            if (!failure.isEmpty())
                throw QgsProcessingException(
                    QObject::tr("RECORDS: PostgreSQL failed while sending rows: %1").arg(failure));
            return false;
        }
    }

    /** The id of a field's text in COPY, its value converted the first time the text comes. */
    std::uint32_t idOf(std::size_t field, std::string_view text)
    {
        const std::uint32_t id = texts[field].idOf(text);
        if (id == values[field].size())
            values[field].push_back(
                text == "\\N" ? VbasCompat::nullOf(types[field])
                              : converted(conversions[field], unescaped(text.data(), int(text.size()))));
        return id;
    }

    /** The ids of the values of a row of COPY text; `count`, when given, reads a last column of counts. */
    void split(std::string_view line, qint64* count)
    {
        const char* cell = line.data();
        const char* const end = line.data() + line.size();
        const std::size_t columns = ids.size() + (count != nullptr ? 1 : 0);
        for (std::size_t column = 0; column < columns; ++column)
        {
            const auto* tab = static_cast<const char*>(std::memchr(cell, '\t', std::size_t(end - cell)));
            const char* cellEnd = tab != nullptr ? tab : end;
            if ((tab == nullptr) != (column + 1 == columns))
                throw QgsProcessingException(
                    QObject::tr("RECORDS: PostgreSQL sent a row of another shape than %1 columns")
                        .arg(columns));
            if (column < ids.size())
                ids[column] = idOf(column, std::string_view(cell, std::size_t(cellEnd - cell)));
            else if (std::from_chars(cell, cellEnd, *count).ptr != cellEnd)
                throw QgsProcessingException(QObject::tr("RECORDS: PostgreSQL sent a count that is not a "
                                                         "whole number"));
            cell = cellEnd + 1;
        }
    }

    /** The values of the last row split. */
    void valuesOf(const std::uint32_t* rowIds, QVector<QVariant>& out) const
    {
        out.resize(int(ids.size()));
        for (std::size_t field = 0; field < ids.size(); ++field)
            out[int(field)] = values[field][rowIds[field]];
    }
};

VbasPostgresRecords::VbasPostgresRecords(std::unique_ptr<Copy> copy)
    : mCopy(std::move(copy))
{
}

VbasPostgresRecords::~VbasPostgresRecords() = default;

std::unique_ptr<VbasPostgresRecords> VbasPostgresRecords::open(const QgsVectorLayer& layer,
                                                               const QStringList& fields, Counting counting,
                                                               vbas::Feedback& feedback, QString& why)
{
    if (layer.providerType() != QLatin1String("postgres") || !VbasSql::fieldsInTheSource(layer, fields))
        return nullptr;
    auto copy = std::make_unique<Copy>();
    copy->counting = counting;
    copy->feedback = &feedback;
    for (const QString& name : fields)
    {
        const QgsField field = layer.fields().field(name);
        const std::optional<Conversion> conversion = conversionOf(field);
        if (!conversion)
        {
            why = QObject::tr("'%1' is of type %2, which only QGIS reads").arg(name, field.typeName());
            return nullptr;
        }
        copy->conversions.push_back(*conversion);
        copy->types.push_back(field.type());
    }
    copy->texts.resize(std::size_t(fields.size()));
    copy->values.resize(std::size_t(fields.size()));
    copy->ids.resize(std::size_t(fields.size()));

    const QgsDataSourceUri uri(layer.source());
    // An authentication configuration is expanded into the user and password libpq needs.
    copy->connection = PQconnectdb(uri.connectionInfo(true).toUtf8().constData());
    if (PQstatus(copy->connection) != CONNECTION_OK)
    {
        why = QObject::tr("PostgreSQL refused the connection: %1").arg(lastError(copy->connection));
        return nullptr;
    }
    // Text as QGIS's provider reads it: ISO dates, exact reals, UTF-8; and nothing written by mistake.
    if (!copy->execute("SET DateStyle = ISO; SET extra_float_digits = 3; SET client_encoding = 'UTF8'; "
                       "SET default_transaction_read_only = on",
                       why))
        return nullptr;
    const QString from = VbasSql::fromItem(uri);
    double expectedRows = -1;
    if (counting == Counting::Here && !uri.table().startsWith(QLatin1Char('(')))
    {
        // The planner's estimate, for progress; -1 before the first ANALYZE.
        const QByteArray table = from.toUtf8();
        const char* parameters[] = {table.constData()};
        PGresult* estimate = PQexecParams(
            copy->connection, "SELECT reltuples::float8 FROM pg_class WHERE oid = to_regclass($1)", 1,
            nullptr, parameters, nullptr, nullptr, 0);
        if (PQresultStatus(estimate) == PGRES_TUPLES_OK && PQntuples(estimate) == 1)
            expectedRows = std::strtod(PQgetvalue(estimate, 0, 0), nullptr);
        PQclear(estimate);
    }
    const QString query = VbasSql::selectQuery(
        fields, from, layer.subsetString(),
        counting == Counting::InDatabase ? QStringLiteral("vbas_group_records") : QString());
    const QString sql = QStringLiteral("COPY (%1) TO STDOUT").arg(query);
    PGresult* started = PQexec(copy->connection, sql.toUtf8().constData());
    const bool copyOut = PQresultStatus(started) == PGRES_COPY_OUT;
    PQclear(started);
    if (!copyOut)
    {
        why = QObject::tr("PostgreSQL refused the query %1: %2").arg(sql, lastError(copy->connection));
        return nullptr;
    }
    copy->copying = true;
    if (counting == Counting::Here)
    {
        QElapsedTimer timer;
        timer.start();
        vbas::DistinctRows& rows = *(copy->rows = std::make_unique<vbas::DistinctRows>(
                                         copy->ids.size(), std::uint64_t(std::max(expectedRows, 0.0))));
        std::string_view line;
        while (copy->readRow(line))
        {
            copy->split(line, nullptr);
            rows.add(copy->ids.data());
            if ((rows.rowsAdded() & 0xffff) == 0)
            {
                feedback.checkCanceled();
                if (expectedRows > 0)
                    feedback.setProgress(double(rows.rowsAdded()) / expectedRows);
            }
        }
        rows.finish();
        copy->streamSeconds = double(timer.elapsed()) / 1000.0;
        copy->rowsStreamed = rows.rowsAdded();
        copy->distinctRows = rows.size();
    }
    return std::unique_ptr<VbasPostgresRecords>(new VbasPostgresRecords(std::move(copy)));
}

bool VbasPostgresRecords::next(QgsFeatureId& id, QVector<QVariant>& values)
{
    Copy& c = *mCopy;
    if (c.counting == Counting::InDatabase)
    {
        std::string_view line;
        if (!c.readRow(line))
            return false;
        c.split(line, &c.groupSize);
        c.lastIds = c.ids.data();
        c.valuesOf(c.lastIds, values);
    }
    else
    {
        const std::uint32_t* rowIds = nullptr;
        std::uint32_t count = 0;
        if (!c.rows->nextRow(c.nextRow, rowIds, count))
        {
            c.rows->clear(); // read whole: its memory goes before the release needs its own
            return false;
        }
        c.lastIds = rowIds;
        c.valuesOf(rowIds, values);
        c.groupSize = qint64(count);
    }
    id = c.groupsRead++;
    return true;
}

long VbasPostgresRecords::expectedRows() const
{
    return mCopy->counting == Counting::Here ? long(mCopy->distinctRows) : -1;
}

const std::uint32_t* VbasPostgresRecords::valueIds() const
{
    return mCopy->lastIds;
}

qint64 VbasPostgresRecords::groupSize() const
{
    return mCopy->groupSize;
}

QString VbasPostgresRecords::description() const
{
    if (mCopy->counting == Counting::InDatabase)
        return QObject::tr("RECORDS: grouped by the database (PostgreSQL): GROUP BY the %1 fields read, with "
                           "COUNT(*); only the counts travel (COPY)")
            .arg(mCopy->ids.size());
    return QObject::tr("RECORDS: streamed from PostgreSQL (COPY of the %1 fields read) and counted here: %2 "
                       "rows, %3 distinct, in %4 s")
        .arg(mCopy->ids.size())
        .arg(mCopy->rowsStreamed)
        .arg(mCopy->distinctRows)
        .arg(mCopy->streamSeconds, 0, 'f', 2);
}
