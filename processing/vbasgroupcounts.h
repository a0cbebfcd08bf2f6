#pragma once

#include <qgsfeature.h>
#include <qgsfields.h>

#include <QList>
#include <QVariant>

#include <map>
#include <optional>
#include <vector>

class QgsFeatureSource;
class QgsProcessingFeedback;

/**
 * Record counts of the groups of a table, where a group is the rows that share the values of the
 * key fields (for a release: region and quasi-identifiers).
 *
 * Plain QGIS feature iteration and no engine code, so that vbas:checkanonymity is an oracle
 * independent of the engine it verifies.
 */
class VbasGroupCounts
{
public:
    struct Group
    {
        QgsAttributes values; //!< the key values as read from the group's first row
        qint64 records = 0;

        /** Returns the group as a row of the table described by fields(): its values, then its size. */
        QgsAttributes row() const { return QgsAttributes(values) << records; }
    };

    /**
     * Counts the records of every group of `source`; each row counts VbasAlgorithmBase::recordCount()
     * records. Values are compared exactly, as text; NULL is a value of its own. Reports progress and
     * throws VbasAlgorithmBase::canceledError() as soon as `feedback` is canceled.
     */
    static VbasGroupCounts count(QgsFeatureSource& source, const QList<int>& keyFields, int countField,
                                 QgsProcessingFeedback& feedback);

    /** Returns the fields of a table of groups: the key fields, then group_size. */
    const QgsFields& fields() const { return mFields; }
    std::size_t groupCount() const { return mGroups.size(); }
    qint64 records() const { return mRecords; }
    /** Returns the size of the smallest group, NULL when there is no group. */
    QVariant minGroupSize() const;
    /** Returns the groups of fewer than `k` records, sorted by key values (NULL first, then as text). */
    std::vector<Group> groupsBelow(qint64 k) const;

private:
    /** NULL is std::nullopt, which sorts before any text. */
    using Key = std::vector<std::optional<QString>>;

    QgsFields mFields;
    std::map<Key, Group> mGroups;
    qint64 mRecords = 0;
};
