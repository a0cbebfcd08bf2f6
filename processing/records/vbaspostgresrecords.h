#pragma once

#include "vbasrecordstreams.h"

#include <memory>

class QgsVectorLayer;

namespace vbas
{
class Feedback;
}

/**
 * The records of a table of QGIS's PostgreSQL provider read with COPY (libpq, text format), in one
 * statement and so from one snapshot: only the fields asked for, the layer's filter as the WHERE clause.
 * Either every row travels and identical rows are counted here as they come, or the database groups them
 * (GROUP BY with COUNT(*)) and only the counts travel. At national scale the database's GROUP BY takes
 * several times as long as streaming the rows (its hash aggregation spills millions of groups to disk, and
 * sorts as slowly), and counting the streamed rows here costs little (docs/performance.md has the figures):
 * grouping in the database pays only when the network, not the server, is what limits.
 * Values are those QGIS's provider gives: int4 and int2 as int, int8 as qlonglong, float and numeric as
 * double, boolean as bool, date as QDate, text as QString, NULL as a null QVariant of the field's type.
 */
class VbasPostgresRecords : public VbasRecordSource
{
public:
    /** Where identical rows are counted. */
    enum class Counting
    {
        /** Every row travels; identical rows are counted here. */
        Here,
        /** The database groups them (GROUP BY); only the counts travel. */
        InDatabase,
    };
    /**
     * Opens the records of `layer` with the fields named `fields` and, counted `Here`, streams them all,
     * reporting progress to `feedback` and stopping when it is canceled (vbas::Canceled). Returns nullptr,
     * with `why` set, when the layer is not PostgreSQL's, has unsaved edits or fields of QGIS's own, a
     * field has a type not converted here, or the server refuses the connection or the query.
     * Throws QgsProcessingException when the server fails midway.
     */
    static std::unique_ptr<VbasPostgresRecords> open(const QgsVectorLayer& layer, const QStringList& fields,
                                                     Counting counting, vbas::Feedback& feedback,
                                                     QString& why);
    ~VbasPostgresRecords() override;
    VbasPostgresRecords(const VbasPostgresRecords&) = delete;
    VbasPostgresRecords& operator=(const VbasPostgresRecords&) = delete;

    /** Throws QgsProcessingException when the server fails midway, vbas::Canceled when canceled. */
    bool next(QgsFeatureId& id, QVector<QVariant>& values) override;
    /** The groups counted here; -1 while the database groups. */
    long expectedRows() const override;
    bool grouped() const override { return true; }
    qint64 groupSize() const override;
    QString description() const override;
    const std::uint32_t* valueIds() const override;

private:
    struct Copy;
    explicit VbasPostgresRecords(std::unique_ptr<Copy> copy);
    std::unique_ptr<Copy> mCopy;
};
