#include "vbasledgerstore.h"

#include "vbasparameters.h"

#include <qgsapplication.h>
#include <qgsexception.h>

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <optional>

#include <libpq-fe.h>
#include <sqlite3.h>

namespace
{
QgsProcessingException ledgerError(const QString& location, const QString& why)
{
    return VbasParameters::parameterError(
        VbasParameters::kReleaseLedger,
        QObject::tr("the release ledger %1 cannot be used: %2").arg(location, why));
}

/** Hashes as text: the base64 of their little-endian bytes. */
QString hashesText(const std::vector<std::uint64_t>& hashes)
{
    QByteArray bytes;
    bytes.reserve(int(hashes.size() * 8));
    for (const std::uint64_t hash : hashes)
        for (int b = 0; b < 8; ++b)
            bytes.append(char((hash >> (8 * b)) & 0xff));
    return QString::fromLatin1(bytes.toBase64());
}

std::vector<std::uint64_t> hashesOf(const QString& text)
{
    const QByteArray bytes = QByteArray::fromBase64(text.toLatin1());
    std::vector<std::uint64_t> hashes(std::size_t(bytes.size()) / 8, 0);
    for (std::size_t i = 0; i < hashes.size(); ++i)
        for (int b = 0; b < 8; ++b)
            hashes[i] |= std::uint64_t(std::uint8_t(bytes[int(i * 8) + b])) << (8 * b);
    return hashes;
}

QJsonObject sampleJson(const vbas::MinHashSample& sample)
{
    return {{QStringLiteral("members"), QString::number(sample.members)},
            {QStringLiteral("hashes"), hashesText(sample.hashes)}};
}

vbas::MinHashSample sampleOf(const QJsonObject& json)
{
    vbas::MinHashSample sample;
    sample.members = json.value(QStringLiteral("members")).toString().toULongLong();
    sample.hashes = hashesOf(json.value(QStringLiteral("hashes")).toString());
    return sample;
}

QJsonArray textsJson(const std::vector<std::string>& texts)
{
    QJsonArray array;
    for (const std::string& text : texts)
        array.append(QString::fromStdString(text));
    return array;
}

std::vector<std::string> textsOf(const QJsonValue& value)
{
    std::vector<std::string> texts;
    for (const QJsonValue& text : value.toArray())
        texts.push_back(text.toString().toStdString());
    return texts;
}

/** A JSON document compressed and as base64 text, for the large columns. */
QString packed(const QJsonArray& array)
{
    return QString::fromLatin1(qCompress(QJsonDocument(array).toJson(QJsonDocument::Compact)).toBase64());
}

QJsonArray unpacked(const QString& text)
{
    return QJsonDocument::fromJson(qUncompress(QByteArray::fromBase64(text.toLatin1()))).array();
}

QString summaryText(const vbas::LedgerEntry& entry)
{
    const vbas::RecordFingerprint& records = entry.records;
    const QJsonObject summary{
        {QStringLiteral("k"), QString::number(entry.k)},
        {QStringLiteral("l"), QString::number(entry.l)},
        {QStringLiteral("l_measure"), QString::fromStdString(entry.diversityMeasure)},
        {QStringLiteral("quasi_identifiers"), textsJson(entry.quasiIdentifiers)},
        {QStringLiteral("levels"), textsJson(entry.levels)},
        {QStringLiteral("generalization"), QString::fromStdString(entry.generalization)},
        {QStringLiteral("sensitive_fields"), textsJson(entry.sensitiveFields)},
        {QStringLiteral("records"), QString::number(records.records)},
        {QStringLiteral("digest"), hashesText({records.digest[0], records.digest[1]})},
        {QStringLiteral("row_sample"), sampleJson(records.rows)},
        {QStringLiteral("id_sample"), sampleJson(records.ids)},
        {QStringLiteral("reproduction"), QString::fromStdString(entry.reproduction)}};
    return QString::fromUtf8(QJsonDocument(summary).toJson(QJsonDocument::Compact));
}

void readSummary(const QString& text, vbas::LedgerEntry& entry)
{
    const QJsonObject summary = QJsonDocument::fromJson(text.toUtf8()).object();
    entry.k = summary.value(QStringLiteral("k")).toString().toULongLong();
    entry.l = summary.value(QStringLiteral("l")).toString().toULongLong();
    entry.diversityMeasure = summary.value(QStringLiteral("l_measure")).toString().toStdString();
    entry.quasiIdentifiers = textsOf(summary.value(QStringLiteral("quasi_identifiers")));
    entry.levels = textsOf(summary.value(QStringLiteral("levels")));
    entry.generalization = summary.value(QStringLiteral("generalization")).toString().toStdString();
    entry.sensitiveFields = textsOf(summary.value(QStringLiteral("sensitive_fields")));
    entry.records.records = summary.value(QStringLiteral("records")).toString().toULongLong();
    const std::vector<std::uint64_t> digest = hashesOf(summary.value(QStringLiteral("digest")).toString());
    if (digest.size() == 2)
        entry.records.digest = {digest[0], digest[1]};
    entry.records.rows = sampleOf(summary.value(QStringLiteral("row_sample")).toObject());
    entry.records.ids = sampleOf(summary.value(QStringLiteral("id_sample")).toObject());
    entry.reproduction = summary.value(QStringLiteral("reproduction")).toString().toStdString();
}

QString aggregationText(const vbas::AreaRegions& aggregation)
{
    QJsonArray pairs;
    for (const auto& [area, region] : aggregation)
        pairs.append(QJsonArray{QString::fromStdString(area), QString::fromStdString(region)});
    return packed(pairs);
}

vbas::AreaRegions aggregationOf(const QString& text)
{
    vbas::AreaRegions aggregation;
    for (const QJsonValue& pair : unpacked(text))
        aggregation.emplace_back(pair.toArray().at(0).toString().toStdString(),
                                 pair.toArray().at(1).toString().toStdString());
    return aggregation;
}

QString cellsText(const std::vector<vbas::PublishedCell>& cells)
{
    QJsonArray rows;
    for (const vbas::PublishedCell& cell : cells)
        rows.append(QJsonArray{QString::fromStdString(cell.region), QString::fromStdString(cell.cls),
                               QString::number(cell.count)});
    return packed(rows);
}
} // namespace

/** The database behind a ledger: SQL with text parameters $1, $2... (both SQLite and PostgreSQL read them).
 */
class VbasLedgerStore::Database
{
public:
    virtual ~Database() = default;
    /** Runs `sql`; returns its rows, each value as text. Throws a message on failure. */
    virtual std::vector<QStringList> query(const QString& sql, const QStringList& parameters = {}) = 0;
    /** Starts a transaction that no other release into this ledger runs beside. */
    virtual void beginExclusive() = 0;
};

namespace
{
class SqliteDatabase : public VbasLedgerStore::Database
{
public:
    explicit SqliteDatabase(const QString& path)
    {
        if (sqlite3_open_v2(QFile::encodeName(path).constData(), &mDb,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
        {
            const QString why = mDb ? QString::fromUtf8(sqlite3_errmsg(mDb)) : QObject::tr("out of memory");
            sqlite3_close(mDb);
            mDb = nullptr;
            throw why;
        }
        // Another release holding the ledger for a moment: wait for it.
        sqlite3_busy_timeout(mDb, 60000);
    }
    ~SqliteDatabase() override { sqlite3_close(mDb); }

    std::vector<QStringList> query(const QString& sql, const QStringList& parameters) override
    {
        sqlite3_stmt* statement = nullptr;
        const QByteArray text = sql.toUtf8();
        if (sqlite3_prepare_v2(mDb, text.constData(), -1, &statement, nullptr) != SQLITE_OK)
            throw QString::fromUtf8(sqlite3_errmsg(mDb));
        std::vector<QByteArray> values;
        for (const QString& parameter : parameters)
            values.push_back(parameter.toUtf8());
        for (std::size_t i = 0; i < values.size(); ++i)
            sqlite3_bind_text(statement, int(i) + 1, values[i].constData(), int(values[i].size()),
                              SQLITE_STATIC);
        std::vector<QStringList> rows;
        int step = SQLITE_ROW;
        while ((step = sqlite3_step(statement)) == SQLITE_ROW)
        {
            QStringList row;
            for (int c = 0; c < sqlite3_column_count(statement); ++c)
                row << QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(statement, c)),
                                         sqlite3_column_bytes(statement, c));
            rows.push_back(row);
        }
        sqlite3_finalize(statement);
        if (step != SQLITE_DONE)
            throw QString::fromUtf8(sqlite3_errmsg(mDb));
        return rows;
    }
    void beginExclusive() override { query(QStringLiteral("BEGIN IMMEDIATE"), {}); }

private:
    sqlite3* mDb = nullptr;
};

class PostgresDatabase : public VbasLedgerStore::Database
{
public:
    explicit PostgresDatabase(const QString& uri)
        : mConnection(PQconnectdb(uri.toUtf8().constData()))
    {
        if (PQstatus(mConnection) != CONNECTION_OK)
        {
            const QString why = QString::fromUtf8(PQerrorMessage(mConnection)).trimmed();
            PQfinish(mConnection);
            throw why;
        }
    }
    ~PostgresDatabase() override { PQfinish(mConnection); }

    std::vector<QStringList> query(const QString& sql, const QStringList& parameters) override
    {
        std::vector<QByteArray> values;
        std::vector<const char*> pointers;
        for (const QString& parameter : parameters)
            values.push_back(parameter.toUtf8());
        for (const QByteArray& value : values)
            pointers.push_back(value.constData());
        PGresult* result = PQexecParams(mConnection, sql.toUtf8().constData(), int(pointers.size()), nullptr,
                                        pointers.data(), nullptr, nullptr, 0);
        const ExecStatusType status = PQresultStatus(result);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        {
            const QString why = QString::fromUtf8(PQresultErrorMessage(result)).trimmed();
            PQclear(result);
            throw why;
        }
        std::vector<QStringList> rows;
        for (int r = 0; r < PQntuples(result); ++r)
        {
            QStringList row;
            for (int c = 0; c < PQnfields(result); ++c)
                row << QString::fromUtf8(PQgetvalue(result, r, c), PQgetlength(result, r, c));
            rows.push_back(row);
        }
        PQclear(result);
        return rows;
    }
    void beginExclusive() override
    {
        query(QStringLiteral("BEGIN"), {});
        // One number for every VBAS ledger in the database: writers of it wait for each other.
        query(QStringLiteral("SELECT pg_advisory_xact_lock(7262330741)"), {});
    }

private:
    PGconn* mConnection;
};

/** Rolls back a transaction that did not commit. */
class Transaction
{
public:
    explicit Transaction(VbasLedgerStore::Database& database)
        : mDatabase(database)
    {
        mDatabase.beginExclusive();
    }
    ~Transaction()
    {
        if (!mCommitted)
        {
            try
            {
                mDatabase.query(QStringLiteral("ROLLBACK"), {});
            }
            catch (const QString&)
            {
            }
        }
    }
    void commit()
    {
        mDatabase.query(QStringLiteral("COMMIT"), {});
        mCommitted = true;
    }

private:
    VbasLedgerStore::Database& mDatabase;
    bool mCommitted = false;
};

/** The libpq connection string of a PostgreSQL ledger (a URI, or GDAL's "PG:" and a connection string). */
std::optional<QString> postgresConnection(const QString& location)
{
    if (location.startsWith(QLatin1String("postgresql://")) ||
        location.startsWith(QLatin1String("postgres://")))
        return location;
    if (location.startsWith(QLatin1String("PG:")))
        return location.mid(3);
    return std::nullopt;
}
} // namespace

VbasLedgerStore::VbasLedgerStore(const QString& location)
    : mLocation(location)
{
    try
    {
        if (const std::optional<QString> postgres = postgresConnection(location))
            mDatabase = std::make_unique<PostgresDatabase>(*postgres);
        else
        {
            const QFileInfo file(location);
            if (!QDir().mkpath(file.absolutePath()))
                throw QObject::tr("cannot make the folder %1").arg(file.absolutePath());
            mDatabase = std::make_unique<SqliteDatabase>(location);
        }
        Transaction transaction(*mDatabase);
        mDatabase->query(
            QStringLiteral("CREATE TABLE IF NOT EXISTS vbas_release_ledger (id BIGINT PRIMARY KEY, "
                           "recorded_at TEXT NOT NULL, algorithm TEXT NOT NULL, summary TEXT NOT "
                           "NULL, aggregation TEXT NOT NULL, cells TEXT NOT NULL)"));
        mDatabase->query(
            QStringLiteral("CREATE TABLE IF NOT EXISTS vbas_release_ledger_key (secret TEXT NOT NULL)"));
        std::vector<QStringList> secret =
            mDatabase->query(QStringLiteral("SELECT secret FROM vbas_release_ledger_key"));
        if (secret.empty())
        {
            // The key is the ledger's: drawn once from the operating system, never from a user's seed.
            const std::uint64_t words[2] = {QRandomGenerator::system()->generate64(),
                                            QRandomGenerator::system()->generate64()};
            secret.push_back({hashesText({words[0], words[1]})});
            mDatabase->query(QStringLiteral("INSERT INTO vbas_release_ledger_key (secret) VALUES ($1)"),
                             secret.front());
        }
        transaction.commit();
        const std::vector<std::uint64_t> key = hashesOf(secret.front().value(0));
        if (key.size() != 2)
            throw QObject::tr("its key is damaged");
        mKey = {key[0], key[1]};
    }
    catch (const QString& why)
    {
        throw ledgerError(location, why);
    }
}

VbasLedgerStore::~VbasLedgerStore() = default;

std::vector<vbas::LedgerEntry> VbasLedgerStore::entries() const
{
    std::vector<vbas::LedgerEntry> entries;
    try
    {
        for (const QStringList& row :
             mDatabase->query(QStringLiteral("SELECT id, recorded_at, algorithm, summary, aggregation FROM "
                                             "vbas_release_ledger ORDER BY id")))
        {
            vbas::LedgerEntry entry;
            entry.id = row.value(0).toLongLong();
            entry.recordedAt = row.value(1).toStdString();
            entry.algorithm = row.value(2).toStdString();
            readSummary(row.value(3), entry);
            entry.aggregation = aggregationOf(row.value(4));
            entries.push_back(std::move(entry));
        }
    }
    catch (const QString& why)
    {
        throw ledgerError(mLocation, why);
    }
    return entries;
}

std::vector<vbas::PublishedCell> VbasLedgerStore::cells(std::int64_t id) const
{
    std::vector<vbas::PublishedCell> cells;
    try
    {
        const std::vector<QStringList> rows = mDatabase->query(
            QStringLiteral("SELECT cells FROM vbas_release_ledger WHERE id = $1"), {QString::number(id)});
        if (rows.empty())
            throw QObject::tr("it has no release %1").arg(id);
        for (const QJsonValue& cell : unpacked(rows.front().value(0)))
        {
            const QJsonArray parts = cell.toArray();
            cells.push_back({parts.at(0).toString().toStdString(), parts.at(1).toString().toStdString(),
                             parts.at(2).toString().toULongLong()});
        }
    }
    catch (const QString& why)
    {
        throw ledgerError(mLocation, why);
    }
    return cells;
}

std::int64_t VbasLedgerStore::record(vbas::LedgerEntry entry,
                                     const std::function<void(const std::vector<vbas::LedgerEntry>&)>& check)
{
    try
    {
        Transaction transaction(*mDatabase);
        const std::vector<vbas::LedgerEntry> recorded = entries();
        check(recorded);
        entry.id = recorded.empty() ? 1 : recorded.back().id + 1;
        entry.recordedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
        mDatabase->query(
            QStringLiteral("INSERT INTO vbas_release_ledger (id, recorded_at, algorithm, summary, "
                           "aggregation, cells) VALUES ($1, $2, $3, $4, $5, $6)"),
            {QString::number(entry.id), QString::fromStdString(entry.recordedAt),
             QString::fromStdString(entry.algorithm), summaryText(entry), aggregationText(entry.aggregation),
             cellsText(entry.cells)});
        transaction.commit();
    }
    catch (const QString& why)
    {
        throw ledgerError(mLocation, why);
    }
    return entry.id;
}

QString VbasLedgerStore::profileLedger()
{
    return QDir(QgsApplication::qgisSettingsDirPath()).filePath(QStringLiteral("vbas/release-ledger.sqlite"));
}
