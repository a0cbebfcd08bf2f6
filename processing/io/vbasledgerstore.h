#pragma once

#include "ledger/ReleaseLedger.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

/**
 * A release ledger where the custodian keeps it (SPEC section 13): tables `vbas_release_ledger` and
 * `vbas_release_ledger_meta` in a SQLite file of its own, or in a PostgreSQL database. An entry holds what a
 * release was (parameters, small areas and aggregation, published counts with what their labels stand for)
 * and a keyed fingerprint of its records, never a record. The key lives apart from the ledger, in a key file
 * (by default one per ledger in the user's configuration, LEDGER_KEY otherwise): a ledger copied without its
 * key tests nothing and rebuilds nothing. Nothing is made silently: a ledger is made only when asked, and a
 * ledger that is missing, empty, damaged or without its key stops the run with a message saying what to do.
 */
class VbasLedgerStore
{
public:
    /** Whether the ledger must exist or is to be made. */
    enum class Opening
    {
        Existing,       //!< it must exist (RELEASE_LEDGER alone)
        New,            //!< make it; it must not exist (NEW_LEDGER)
        ProfileDefault, //!< desktop QGIS's ledger in the profile: made the first time, and the log says so
    };

    /**
     * Opens (or makes) the ledger at `location`: a file path or a PostgreSQL database, a connection URI
     * (`postgresql://user@host/database`) or GDAL's form (`PG:host=... dbname=...`). `keyFile` is where its
     * key is (empty: the default key folder, defaultKeyFolder()). `notes` receives what was done (a ledger or
     * key made). Throws QgsProcessingException naming RELEASE_LEDGER or LEDGER_KEY with what to do.
     */
    VbasLedgerStore(const QString& location, Opening opening, const QString& keyFile, QStringList& notes);
    ~VbasLedgerStore();
    VbasLedgerStore(const VbasLedgerStore&) = delete;
    VbasLedgerStore& operator=(const VbasLedgerStore&) = delete;

    const QString& location() const { return mLocation; }
    const QString& keyFile() const { return mKeyFile; }
    const vbas::HashKey& key() const { return mKey; }
    /** Every recorded entry in the order recorded, with its cells. Throws naming the entry that does not
     * parse. */
    std::vector<vbas::LedgerEntry> entries() const;
    /**
     * Records `entry` in one transaction that holds the ledger against other releases: `check` first runs
     * on the entries recorded by then (a release recorded since this one read the ledger included) and
     * throws to record nothing. Returns the entry's id.
     */
    std::int64_t record(vbas::LedgerEntry entry,
                        const std::function<void(const std::vector<vbas::LedgerEntry>&)>& check);
    /** Marks entry `id` withdrawn (never published) with `reason`; it binds nothing from then on. */
    void withdraw(std::int64_t id, const QString& reason);

    /** The ledger desktop QGIS keeps when RELEASE_LEDGER is empty: a file in the QGIS profile. */
    static QString profileLedger();
    /** Where keys are kept by default: vbas/ledger-keys in the user's configuration folder. */
    static QString defaultKeyFolder();

    class Database;

private:
    QString mLocation;
    QString mKeyFile;
    std::unique_ptr<Database> mDatabase;
    vbas::HashKey mKey;
};
