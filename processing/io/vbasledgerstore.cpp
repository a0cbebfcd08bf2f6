#include "vbasledgerstore.h"

#include "base/Error.h"
#include "vbasparameters.h"

#include <qgsapplication.h>
#include <qgsexception.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QUuid>

#include <optional>

#include <libpq-fe.h>
#include <sqlite3.h>

namespace
{
/** The ledger format this version writes and reads; an earlier one kept its key in the ledger. */
constexpr int kFormat = 2;

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

/** The array packed() wrote; nullopt when the text is damaged. */
std::optional<QJsonArray> unpacked(const QString& text)
{
    const QByteArray json = qUncompress(QByteArray::fromBase64(text.toLatin1()));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isArray())
        return std::nullopt;
    return document.array();
}

/** The ledger's record of a generalization: its text and tables as JSON (empty: none). */
QString generalizationRecord(const vbas::Generalization& generalization)
{
    if (generalization.empty())
        return QString();
    QJsonObject tables;
    for (const auto& [field, table] : generalization.tables)
        tables.insert(QString::fromStdString(field), QString::fromStdString(table));
    return QString::fromUtf8(
        QJsonDocument(QJsonObject{{QStringLiteral("text"), QString::fromStdString(generalization.text())},
                                  {QStringLiteral("tables"), tables}})
            .toJson(QJsonDocument::Compact));
}

/** Reads generalizationRecord()'s record into `generalization`; false when it is damaged. */
bool readGeneralizationRecord(const QString& text, vbas::Generalization& generalization)
{
    if (text.isEmpty())
        return true;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return false;
    std::map<std::string, std::string> tables;
    const QJsonObject tablesJson = document.object().value(QStringLiteral("tables")).toObject();
    for (auto table = tablesJson.begin(); table != tablesJson.end(); ++table)
        tables.emplace(table.key().toStdString(), table.value().toString().toStdString());
    try
    {
        generalization = vbas::Generalization::parse(
            document.object().value(QStringLiteral("text")).toString().toStdString(), std::move(tables));
    }
    catch (const vbas::Error&)
    {
        return false;
    }
    return true;
}

QString summaryText(const vbas::LedgerEntry& entry)
{
    const vbas::RecordFingerprint& records = entry.records;
    QJsonArray domains;
    for (const auto& [name, sample] : records.domains)
        domains.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(name)},
                                   {QStringLiteral("sample"), sampleJson(sample)}});
    QJsonArray otherPeople;
    for (const std::int64_t id : entry.otherPeople)
        otherPeople.append(QString::number(id));
    const QJsonObject summary{{QStringLiteral("k"), QString::number(entry.k)},
                              {QStringLiteral("criteria"), QString::fromStdString(entry.criteria)},
                              {QStringLiteral("quasi_identifiers"), textsJson(entry.quasiIdentifiers)},
                              {QStringLiteral("levels"), textsJson(entry.levels)},
                              {QStringLiteral("generalization"), generalizationRecord(entry.generalization)},
                              {QStringLiteral("sensitive_fields"), textsJson(entry.sensitiveFields)},
                              {QStringLiteral("records"), QString::number(records.records)},
                              {QStringLiteral("digest"), hashesText({records.digest[0], records.digest[1]})},
                              {QStringLiteral("row_sample"), sampleJson(records.rows)},
                              {QStringLiteral("id_sample"), sampleJson(records.ids)},
                              {QStringLiteral("domains"), domains},
                              {QStringLiteral("other_people"), otherPeople},
                              {QStringLiteral("provenance"), QString::fromStdString(entry.provenance)}};
    return QString::fromUtf8(QJsonDocument(summary).toJson(QJsonDocument::Compact));
}

bool readSummary(const QString& text, vbas::LedgerEntry& entry)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return false;
    const QJsonObject summary = document.object();
    if (!summary.contains(QStringLiteral("k")) || !summary.contains(QStringLiteral("digest")))
        return false;
    entry.k = summary.value(QStringLiteral("k")).toString().toULongLong();
    entry.criteria = summary.value(QStringLiteral("criteria")).toString().toStdString();
    entry.quasiIdentifiers = textsOf(summary.value(QStringLiteral("quasi_identifiers")));
    entry.levels = textsOf(summary.value(QStringLiteral("levels")));
    if (!readGeneralizationRecord(summary.value(QStringLiteral("generalization")).toString(),
                                  entry.generalization))
        return false;
    entry.sensitiveFields = textsOf(summary.value(QStringLiteral("sensitive_fields")));
    entry.records.records = summary.value(QStringLiteral("records")).toString().toULongLong();
    const std::vector<std::uint64_t> digest = hashesOf(summary.value(QStringLiteral("digest")).toString());
    if (digest.size() != 2)
        return false;
    entry.records.digest = {digest[0], digest[1]};
    entry.records.rows = sampleOf(summary.value(QStringLiteral("row_sample")).toObject());
    entry.records.ids = sampleOf(summary.value(QStringLiteral("id_sample")).toObject());
    for (const QJsonValue& domain : summary.value(QStringLiteral("domains")).toArray())
        entry.records.domains.emplace_back(
            domain.toObject().value(QStringLiteral("name")).toString().toStdString(),
            sampleOf(domain.toObject().value(QStringLiteral("sample")).toObject()));
    for (const QJsonValue& id : summary.value(QStringLiteral("other_people")).toArray())
        entry.otherPeople.push_back(id.toString().toLongLong());
    entry.provenance = summary.value(QStringLiteral("provenance")).toString().toStdString();
    return true;
}

QString aggregationText(const vbas::LedgerEntry& entry)
{
    QJsonArray areas;
    for (std::size_t i = 0; i < entry.aggregation.size(); ++i)
        areas.append(
            QJsonArray{QString::fromStdString(entry.aggregation[i].first),
                       QString::fromStdString(entry.aggregation[i].second),
                       i < entry.locations.size() ? QString::fromStdString(entry.locations[i]) : QString()});
    return packed(areas);
}

bool readAggregation(const QString& text, vbas::LedgerEntry& entry)
{
    const std::optional<QJsonArray> areas = unpacked(text);
    if (!areas)
        return false;
    for (const QJsonValue& area : *areas)
    {
        const QJsonArray parts = area.toArray();
        if (parts.size() != 3)
            return false;
        entry.aggregation.emplace_back(parts.at(0).toString().toStdString(),
                                       parts.at(1).toString().toStdString());
        entry.locations.push_back(parts.at(2).toString().toStdString());
    }
    return true;
}

QString cellsText(const std::vector<vbas::PublishedCell>& cells)
{
    QJsonArray rows;
    for (const vbas::PublishedCell& cell : cells)
        rows.append(QJsonArray{QString::fromStdString(cell.region), QString::fromStdString(cell.cls),
                               QString::number(cell.count)});
    return packed(rows);
}

bool readCells(const QString& text, vbas::LedgerEntry& entry)
{
    const std::optional<QJsonArray> rows = unpacked(text);
    if (!rows)
        return false;
    for (const QJsonValue& cell : *rows)
    {
        const QJsonArray parts = cell.toArray();
        if (parts.size() != 3)
            return false;
        entry.cells.push_back({parts.at(0).toString().toStdString(), parts.at(1).toString().toStdString(),
                               parts.at(2).toString().toULongLong()});
    }
    return true;
}

QString labelsText(const std::vector<vbas::LabelValues>& labelValues)
{
    QJsonArray all;
    for (const vbas::LabelValues& quasiIdentifier : labelValues)
    {
        QJsonArray labels;
        for (const auto& [label, values] : quasiIdentifier.labels)
            labels.append(QJsonArray{QString::fromStdString(label),
                                     QString::fromStdString(vbas::valueSetText(values))});
        all.append(
            QJsonObject{{QStringLiteral("name"), QString::fromStdString(quasiIdentifier.quasiIdentifier)},
                        {QStringLiteral("labels"), labels}});
    }
    return packed(all);
}

bool readLabels(const QString& text, vbas::LedgerEntry& entry)
{
    const std::optional<QJsonArray> all = unpacked(text);
    if (!all)
        return false;
    for (const QJsonValue& value : *all)
    {
        vbas::LabelValues quasiIdentifier;
        quasiIdentifier.quasiIdentifier =
            value.toObject().value(QStringLiteral("name")).toString().toStdString();
        for (const QJsonValue& label : value.toObject().value(QStringLiteral("labels")).toArray())
            quasiIdentifier.labels.emplace_back(
                label.toArray().at(0).toString().toStdString(),
                vbas::valueSetFromText(label.toArray().at(1).toString().toStdString()));
        entry.labelValues.push_back(std::move(quasiIdentifier));
    }
    return true;
}

/** What proves a key is a ledger's own without telling the key: a keyed hash of the ledger's id. */
QString keyCheck(const vbas::HashKey& key, const QString& ledgerId)
{
    return hashesText({vbas::keyedHash(key, ("vbas-ledger-key-check:" + ledgerId).toStdString())});
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
    SqliteDatabase(const QString& path, bool create)
    {
        if (sqlite3_open_v2(QFile::encodeName(path).constData(), &mDb,
                            SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), nullptr) != SQLITE_OK)
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

namespace
{
/** The key file of a ledger: three lines, a heading, the ledger's id and the key. */
QByteArray keyFileText(const QString& ledgerId, const vbas::HashKey& key)
{
    return QStringLiteral("VBAS release ledger key\n%1\n%2\n")
        .arg(ledgerId, hashesText({key.k0, key.k1}))
        .toUtf8();
}
} // namespace

VbasLedgerStore::VbasLedgerStore(const QString& location, Opening opening, const QString& keyFile,
                                 QStringList& notes)
    : mLocation(location)
{
    const auto keyError = [&](const QString& why)
    {
        return VbasParameters::parameterError(
            VbasParameters::kLedgerKey,
            QObject::tr("the key of the release ledger %1: %2").arg(location, why));
    };
    bool made = false;
    try
    {
        if (const std::optional<QString> postgres = postgresConnection(location))
            mDatabase = std::make_unique<PostgresDatabase>(*postgres);
        else
        {
            const QFileInfo file(location);
            if (file.exists())
            {
                if (opening == Opening::New)
                    throw QObject::tr(
                        "it exists already; untick NEW_LEDGER to record into it, or give the path of "
                        "a new file");
                if (file.size() == 0)
                    throw QObject::tr(
                        "the file is empty, and a ledger never is (it was truncated, or is not a "
                        "ledger): restore it from a backup, or check the path");
            }
            else
            {
                if (opening == Opening::Existing)
                    throw QObject::tr(
                        "there is no such file; check the path (a ledger is never made silently), "
                        "or tick NEW_LEDGER to make a new ledger there");
                if (opening == Opening::ProfileDefault && !QDir().mkpath(file.absolutePath()))
                    throw QObject::tr("cannot make the folder %1").arg(file.absolutePath());
                if (!file.absoluteDir().exists())
                    throw QObject::tr("the folder %1 does not exist; check the path")
                        .arg(file.absolutePath());
            }
            mDatabase = std::make_unique<SqliteDatabase>(location, !file.exists());
        }
        Transaction transaction(*mDatabase);
        const auto tableExists = [&](const QString& table)
        {
            return !mDatabase
                        ->query(postgresConnection(location)
                                    ? QStringLiteral(
                                          "SELECT 1 FROM information_schema.tables WHERE table_name = $1")
                                    : QStringLiteral(
                                          "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1"),
                                {table})
                        .empty();
        };
        if (tableExists(QStringLiteral("vbas_release_ledger_key")))
            throw QObject::tr(
                "it was made by an earlier VBAS, which kept the key inside the ledger: a copy of it "
                "would let anyone test guessed records. Start a new ledger (NEW_LEDGER) and keep "
                "this one only as a record");
        std::vector<QStringList> meta;
        if (tableExists(QStringLiteral("vbas_release_ledger_meta")))
            meta = mDatabase->query(
                QStringLiteral("SELECT format, ledger_id, key_check FROM vbas_release_ledger_meta"));
        if (meta.empty())
        {
            if (opening == Opening::Existing)
                throw tableExists(QStringLiteral("vbas_release_ledger"))
                    ? QObject::tr(
                          "its description is missing: the ledger is damaged; restore it from a backup")
                    : QObject::tr(
                          "it holds no release ledger; check the path, or tick NEW_LEDGER to make one");
            if (tableExists(QStringLiteral("vbas_release_ledger")))
                throw QObject::tr("it holds ledger entries without the ledger's description: it is damaged");
            mDatabase->query(QStringLiteral(
                "CREATE TABLE vbas_release_ledger (id BIGINT PRIMARY KEY, recorded_at TEXT NOT NULL, "
                "algorithm TEXT NOT NULL, summary TEXT NOT NULL, aggregation TEXT NOT NULL, cells "
                "TEXT NOT NULL, labels TEXT NOT NULL, withdrawn_at TEXT, withdrawn_reason TEXT)"));
            mDatabase->query(QStringLiteral(
                "CREATE TABLE vbas_release_ledger_meta (format INTEGER NOT NULL, ledger_id TEXT NOT NULL, "
                "key_check TEXT NOT NULL)"));
            // The key is the ledger's: drawn once from the operating system, never from a user's seed.
            mKey = {QRandomGenerator::system()->generate64(), QRandomGenerator::system()->generate64()};
            const QString ledgerId = QUuid::createUuid().toString(QUuid::WithoutBraces);
            meta.push_back({QString::number(kFormat), ledgerId, keyCheck(mKey, ledgerId)});
            mDatabase->query(
                QStringLiteral("INSERT INTO vbas_release_ledger_meta (format, ledger_id, key_check) "
                               "VALUES ($1, $2, $3)"),
                meta.front());
            made = true;
        }
        else if (opening == Opening::New)
            throw QObject::tr("it holds a release ledger already; untick NEW_LEDGER to record into it");
        if (meta.front().value(0).toInt() != kFormat)
            throw QObject::tr("it is in format %1, which this VBAS does not read").arg(meta.front().value(0));
        const QString ledgerId = meta.front().value(1);
        mKeyFile = keyFile.isEmpty() ? QDir(defaultKeyFolder()).filePath(ledgerId + QStringLiteral(".key"))
                                     : keyFile;
        if (made)
        {
            QFile key(mKeyFile);
            if (key.exists())
                throw keyError(QObject::tr("%1 exists already; give LEDGER_KEY a new file").arg(mKeyFile));
            if (!QDir().mkpath(QFileInfo(mKeyFile).absolutePath()) || !key.open(QIODevice::WriteOnly) ||
                !key.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
                key.write(keyFileText(ledgerId, mKey)) < 0 || !key.flush())
                throw keyError(QObject::tr("cannot write %1: %2").arg(mKeyFile, key.errorString()));
            notes << QObject::tr(
                         "A new release ledger was made at %1, its key at %2: keep both, and keep the key "
                         "apart from the ledger (a copy of the ledger without its key tests nothing)")
                         .arg(location, mKeyFile);
        }
        else
        {
            QFile key(mKeyFile);
            if (!key.open(QIODevice::ReadOnly))
                throw keyError(
                    QObject::tr("there is no key at %1 (keys are kept apart from their ledger); give "
                                "the key file as LEDGER_KEY")
                        .arg(mKeyFile));
            const QList<QByteArray> lines = key.readAll().split('\n');
            const std::vector<std::uint64_t> words =
                lines.size() >= 3 ? hashesOf(QString::fromLatin1(lines.at(2))) : std::vector<std::uint64_t>();
            if (words.size() != 2 || QString::fromUtf8(lines.at(1)) != ledgerId)
                throw keyError(QObject::tr("%1 is not the key of this ledger").arg(mKeyFile));
            mKey = {words[0], words[1]};
            if (keyCheck(mKey, ledgerId) != meta.front().value(2))
                throw keyError(
                    QObject::tr("%1 is not the key of this ledger (its check fails)").arg(mKeyFile));
        }
        transaction.commit();
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
        for (const QStringList& row : mDatabase->query(
                 QStringLiteral("SELECT id, recorded_at, algorithm, summary, aggregation, cells, labels, "
                                "withdrawn_at, withdrawn_reason FROM vbas_release_ledger ORDER BY id")))
        {
            vbas::LedgerEntry entry;
            entry.id = row.value(0).toLongLong();
            entry.recordedAt = row.value(1).toStdString();
            entry.algorithm = row.value(2).toStdString();
            entry.withdrawnAt = row.value(7).toStdString();
            entry.withdrawnReason = row.value(8).toStdString();
            bool parsed = readSummary(row.value(3), entry) && readAggregation(row.value(4), entry) &&
                          readCells(row.value(5), entry);
            try
            {
                parsed = parsed && readLabels(row.value(6), entry);
            }
            catch (const vbas::Error&)
            {
                parsed = false;
            }
            if (!parsed)
                throw QObject::tr(
                    "its entry %1 does not parse: the ledger is damaged; restore it from a backup")
                    .arg(entry.id);
            entries.push_back(std::move(entry));
        }
    }
    catch (const QString& why)
    {
        throw ledgerError(mLocation, why);
    }
    return entries;
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
                           "aggregation, cells, labels) VALUES ($1, $2, $3, $4, $5, $6, $7)"),
            {QString::number(entry.id), QString::fromStdString(entry.recordedAt),
             QString::fromStdString(entry.algorithm), summaryText(entry), aggregationText(entry),
             cellsText(entry.cells), labelsText(entry.labelValues)});
        transaction.commit();
    }
    catch (const QString& why)
    {
        throw ledgerError(mLocation, why);
    }
    return entry.id;
}

void VbasLedgerStore::withdraw(std::int64_t id, const QString& reason)
{
    try
    {
        Transaction transaction(*mDatabase);
        const std::vector<QStringList> rows =
            mDatabase->query(QStringLiteral("SELECT withdrawn_at FROM vbas_release_ledger WHERE id = $1"),
                             {QString::number(id)});
        if (rows.empty())
            throw QObject::tr("it holds no release %1").arg(id);
        if (!rows.front().value(0).isEmpty())
            throw QObject::tr("release %1 was withdrawn already, on %2").arg(id).arg(rows.front().value(0));
        mDatabase->query(
            QStringLiteral(
                "UPDATE vbas_release_ledger SET withdrawn_at = $1, withdrawn_reason = $2 WHERE id = $3"),
            {QDateTime::currentDateTimeUtc().toString(Qt::ISODate), reason, QString::number(id)});
        transaction.commit();
    }
    catch (const QString& why)
    {
        throw ledgerError(mLocation, why);
    }
}

QString VbasLedgerStore::profileLedger()
{
    return QDir(QgsApplication::qgisSettingsDirPath()).filePath(QStringLiteral("vbas/release-ledger.sqlite"));
}

QString VbasLedgerStore::defaultKeyFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation))
        .filePath(QStringLiteral("vbas/ledger-keys"));
}
