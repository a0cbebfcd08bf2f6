#pragma once

#include "privacy/Criteria.h"

#include <qgsfeature.h>
#include <qgsfields.h>

#include <QList>
#include <QVariant>

#include <map>
#include <optional>
#include <set>
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
    /** A value as compared: NULL is std::nullopt, which sorts before any text. */
    using Value = std::optional<QString>;

    struct Group
    {
        QgsAttributes values; //!< the key values as read from the group's first row
        /** Records, or distinct people when counted by person. */
        qint64 records = 0;
        /** The people of the group, when counted by person. */
        std::set<Value> persons;
        /** Per sensitive field, the records of each of its values in the group. */
        std::vector<std::map<Value, qint64>> sensitive;

        /** Returns the fewest distinct values of a sensitive field (0 without sensitive fields). */
        qint64 distinctValues() const;
        /** Returns the lowest entropy (natural logarithm) of a sensitive field (0 without sensitive fields).
         */
        double entropy() const;
        /** Returns the group as a row of the table described by fields(). */
        QgsAttributes row() const;
    };

    /**
     * Counts the records of every group of `source`, and of every value of `sensitiveFields` in each; each
     * row counts VbasParameters::recordCount() records, or, with `personField` (>= 0), each group counts its
     * distinct values of it: its people. Values are compared exactly, as text; NULL is a value of its own.
     * Reports progress and throws VbasParameters::canceledError() as soon as `feedback` is canceled.
     */
    static VbasGroupCounts count(QgsFeatureSource& source, const QList<int>& keyFields,
                                 const QList<int>& sensitiveFields, int countField, int personField,
                                 QgsProcessingFeedback& feedback);

    /**
     * Returns the fields of a table of groups: the key fields, then group_size, and with sensitive fields
     * distinct_values and entropy.
     */
    const QgsFields& fields() const { return mFields; }
    std::size_t groupCount() const { return mGroups.size(); }
    qint64 records() const { return mRecords; }
    /** Returns the size of the smallest group, NULL when there is no group. */
    QVariant minGroupSize() const;
    /**
     * Returns the groups of fewer than `k` records or failing one of `criteria` (l-diversity, t-closeness...,
     * decided on the values counted here, against the values of the whole table), sorted by key values (NULL
     * first, then as text).
     */
    std::vector<Group> groupsFailing(qint64 k, const vbas::Criteria& criteria) const;

private:
    using Key = std::vector<Value>;

    QgsFields mFields;
    std::map<Key, Group> mGroups;
    qint64 mRecords = 0;
};
