#pragma once

#include "base/Feedback.h"
#include "data/CategoryCoding.h"
#include "data/Dataset.h"
#include "generalization/Hierarchy.h"

#include <qgscoordinatereferencesystem.h>
#include <qgscoordinatetransform.h>
#include <qgsdistancearea.h>
#include <qgsfeature.h>
#include <qgsfeatureid.h>
#include <qgsgeometry.h>

#include <QHash>
#include <QList>
#include <QVector>

#include <memory>
#include <optional>
#include <vector>

/** Returns the index of every feature id in `features`, to find a feature's row when reading a source again.
 */
QHash<QgsFeatureId, std::size_t> vbasFeatureRows(const std::vector<QgsFeatureId>& features);

/**
 * Dense codes for the values of one field as a layer holds them: vbas::CategoryCoding's rule (values matched
 * as text, NULL a category of its own apart from empty text, codes in order of first appearance, ranks() in
 * text order) over QVariants, with the first value read of each code.
 */
class VbasCategoryCodes
{
public:
    /** Returns the code of `value`, a new one for a value not seen before. */
    std::uint32_t code(const QVariant& value);
    /** Returns each code's rank in text order, NULL first. */
    std::vector<std::uint32_t> ranks() const { return mCoding.ranks(); }
    /** Returns the number of codes (categories). */
    std::uint32_t size() const { return mCoding.size(); }
    /**
     * Returns the value of every category in rank order (the engine's codes): its text, its number for a
     * numeric field and its day for a date, for generalization hierarchies.
     */
    std::vector<vbas::CategoryValue> values() const;
    /** Returns the value of every category in rank order, as first read (NULL as read too). */
    QVector<QVariant> rankedValues() const;
    /** Returns the number of NULL values coded. */
    std::size_t nullRows() const { return mCoding.nullCount(); }

private:
    vbas::CategoryCoding mCoding;
    /** The codes of whole numbers already coded, found without writing them as text first. */
    QHash<qlonglong, std::uint32_t> mWholeNumber;
    QVector<QVariant> mFirstValue; //!< the first value coded, per code
};

/** Returns the text a field value is compared as: region ids and categories are matched as text. */
QString vbasKeyText(const QVariant& value);
/** Returns vbasKeyText() of a value, or a mark of its own for NULL: values compared with NULL apart. */
QString vbasValueKey(const QVariant& value);
