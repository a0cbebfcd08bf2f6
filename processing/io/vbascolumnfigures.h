#pragma once

#include <qgsfeature.h>

#include <QList>
#include <QString>

#include <optional>
#include <vector>

class QgsFeatureSource;
class QgsProcessingFeedback;

/**
 * What each column of a released table reveals together with the region and the quasi-identifiers (SPEC
 * section 14), counted from the table alone with plain QGIS iteration and no engine code, so that
 * vbas:checkanonymity judges any release, made by VBAS or not.
 */
struct VbasColumnFigures
{
    QString name;
    /** Share of the rows (weighted by the count field) in (region, quasi-identifiers, value) groups below k.
     */
    double shareBelowK = 0.0;
    /** Share of the rows in such groups of one. */
    double shareUnique = 0.0;
    /**
     * How well the column tells each row's small area inside its region beyond the region alone (0: no
     * better, 1: every row), leaving each row out of its own guess; only with the small-area field.
     */
    std::optional<double> placement;

    /**
     * The figures of every column of `columns` in `source`: groups by `keyFields` (region and
     * quasi-identifiers) and the column's value, counted in distinct values of `personField` when it is given
     * (>= 0) or in rows weighted by `countField`; placement against `smallAreaField` when given (the region
     * is `keyFields[0]`). Values are compared as text, NULL apart. Throws VbasParameters::canceledError() on
     * cancel.
     */
    static std::vector<VbasColumnFigures> count(QgsFeatureSource& source, const QList<int>& keyFields,
                                                const QList<int>& columns, int personField, int countField,
                                                int smallAreaField, qint64 k,
                                                QgsProcessingFeedback& feedback);
};
