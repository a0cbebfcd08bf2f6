#pragma once

#include "ledger/ReleaseLedger.h"

#include <QString>

#include <functional>
#include <memory>
#include <vector>

/**
 * A release ledger where the custodian keeps it (SPEC section 13): a table `vbas_release_ledger` in a SQLite
 * or GeoPackage file, or in a PostgreSQL database. An entry holds what a release was (parameters,
 * aggregation, published counts) and a keyed fingerprint of its records, never a record; the key is the
 * ledger's own, drawn from the operating system when the ledger is made.
 */
class VbasLedgerStore
{
public:
    /**
     * Opens the ledger at `location`, making it when it does not exist: a file path (a new file becomes a
     * SQLite database; an existing SQLite or GeoPackage file takes the ledger as tables of its own) or a
     * PostgreSQL database: a connection URI (`postgresql://user@host/database`) or GDAL's form
     * (`PG:host=... dbname=...`). Throws QgsProcessingException naming RELEASE_LEDGER when it cannot be
     * opened or made.
     */
    explicit VbasLedgerStore(const QString& location);
    ~VbasLedgerStore();
    VbasLedgerStore(const VbasLedgerStore&) = delete;
    VbasLedgerStore& operator=(const VbasLedgerStore&) = delete;

    const QString& location() const { return mLocation; }
    const vbas::HashKey& key() const { return mKey; }
    /** Every recorded entry in the order recorded, without its cells (cells() reads them). */
    std::vector<vbas::LedgerEntry> entries() const;
    /** The published cells of entry `id`. */
    std::vector<vbas::PublishedCell> cells(std::int64_t id) const;
    /**
     * Records `entry` in one transaction that holds the ledger against other releases: `check` first runs
     * on the entries recorded by then (a release recorded since this one read the ledger included) and
     * throws to record nothing. Returns the entry's id.
     */
    std::int64_t record(vbas::LedgerEntry entry,
                        const std::function<void(const std::vector<vbas::LedgerEntry>&)>& check);

    /** The ledger desktop QGIS keeps when RELEASE_LEDGER is empty: a file in the QGIS profile. */
    static QString profileLedger();

    class Database;

private:
    QString mLocation;
    std::unique_ptr<Database> mDatabase;
    vbas::HashKey mKey;
};
