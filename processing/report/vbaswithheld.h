#pragma once

#include "vbasjob.h"
#include "vbasoutputs.h"

#include <QString>
#include <QVector>

#include <array>

/**
 * Who a release withheld, for the report (review only: a withheld count beside the released rows can
 * single people out). Recounted from every record's fate (VbasRelease::fates) and the codes the job read,
 * not from the engine's counters, so that it also checks them.
 */
struct VbasWithheld
{
    static constexpr std::size_t kFates = std::size_t(vbas::RecordFate::SuppressedSmallRow) + 1;

    /** Records and withheld records of one released value or one region. */
    struct Share
    {
        QString label;
        qint64 records = 0;
        qint64 withheld = 0;
        /** The withheld records by why (indexed by vbas::RecordFate; Released and Dropped stay 0). */
        std::array<qint64, kFates> byFate{};
    };
    /** A quasi-identifier: its name and a share per released value, in their order. */
    struct QuasiIdentifier
    {
        QString name;
        QVector<Share> values;
    };

    QVector<QuasiIdentifier> quasiIdentifiers; //!< in the order of QUASI_IDENTIFIERS
    QVector<Share> regions;                    //!< per aggregated region, labelled by its id
    qint64 records = 0;                        //!< records with a known small area (dropped ones aside)
    qint64 withheld = 0;

    /** Returns the part of `share`'s records withheld, 0 to 1 (0 for none). */
    static double shareOf(const Share& share);
    /**
     * Returns the shares of `shares` that withheld records, the highest shares first (ties in their order),
     * at most `count` of them: what the report lists first and the log names.
     */
    static QVector<Share> highestShares(QVector<Share> shares, int count);
    /**
     * Returns what the release cost, in a few lines for the log: the records withheld overall, then the
     * released values (of every quasi-identifier) and the regions that lost the highest shares, at most
     * `shown` of each, as the report's "Who was withheld" lists them.
     */
    QStringList costLines(int shown = 3) const;
    /**
     * Returns, when some released values lost more than twice the share withheld overall, a sentence naming
     * them (at most `shown`), why their records were withheld and what keeps more of them; else an empty
     * text. Analyses of such a value are biased: the log and the report both say it.
     */
    QString overWithheld(int shown = 3) const;

    /**
     * Counts the records of `job` by the value each quasi-identifier is published as (the label of its group
     * at the release's level, as `layout` writes it; NULL as "(empty)") and by region. Values come in their
     * natural order: numbers and dates by value, other text alphabetically, NULL last.
     */
    static VbasWithheld count(const VbasJob& job, const VbasRelease& release,
                              const VbasOutputs::RecordLayout& layout);
};
