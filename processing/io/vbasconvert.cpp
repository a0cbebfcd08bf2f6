#include "vbasconvert.h"

#include "vbasqgiscompat.h"

#include <QDate>
#include <QDateTime>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

QHash<QgsFeatureId, std::size_t> vbasFeatureRows(const std::vector<QgsFeatureId>& features)
{
    QHash<QgsFeatureId, std::size_t> rows;
    rows.reserve(int(features.size()));
    for (std::size_t row = 0; row < features.size(); ++row)
        rows.insert(features[row], row);
    return rows;
}

QString vbasKeyText(const QVariant& value)
{
    return value.toString();
}

std::uint32_t VbasCategoryCodes::code(const QVariant& value)
{
    std::uint32_t code = 0;
    if (VbasCompat::isNull(value))
        code = mCoding.nullCode();
    else
    {
        const bool wholeNumber =
            value.userType() == QMetaType::Int || value.userType() == QMetaType::LongLong;
        if (wholeNumber)
        {
            const auto found = mWholeNumber.constFind(value.toLongLong());
            if (found != mWholeNumber.constEnd())
                return found.value();
        }
        const QString text = vbasKeyText(value);
        const QStringView view(text);
        code = mCoding.code(std::u16string_view(view.utf16(), std::size_t(view.size())));
        if (wholeNumber)
            mWholeNumber.insert(value.toLongLong(), code);
    }
    if (code == std::uint32_t(mFirstValue.size()))
        mFirstValue.append(value);
    return code;
}

std::vector<vbas::CategoryValue> VbasCategoryCodes::values() const
{
    const std::vector<std::uint32_t> rank = ranks();
    std::vector<vbas::CategoryValue> values(mCoding.size());
    const std::optional<std::uint32_t> null = mCoding.nullCodeIfCoded();
    for (std::uint32_t code = 0; code < mCoding.size(); ++code)
    {
        vbas::CategoryValue& value = values[rank[code]];
        if (null && code == *null)
        {
            value.null = true;
            continue;
        }
        const QVariant& first = mFirstValue.at(int(code));
        value.text = vbasKeyText(first).toStdString();
        switch (first.userType())
        {
        case QMetaType::Int:
        case QMetaType::UInt:
        case QMetaType::LongLong:
        case QMetaType::ULongLong:
        case QMetaType::Double:
            value.number = first.toDouble();
            break;
        case QMetaType::QDate:
        case QMetaType::QDateTime:
            value.day = QDate(1970, 1, 1).daysTo(first.toDate());
            break;
        default:
            break;
        }
    }
    return values;
}

QVector<QVariant> VbasCategoryCodes::rankedValues() const
{
    const std::vector<std::uint32_t> rank = ranks();
    QVector<QVariant> values;
    values.resize(int(mCoding.size()));
    for (std::uint32_t code = 0; code < mCoding.size(); ++code)
        values[int(rank[code])] = mFirstValue.at(int(code));
    return values;
}

QString vbasValueKey(const QVariant& value)
{
    // NULL is a value of its own, apart from empty text: a control character no field value starts with.
    return VbasCompat::isNull(value) ? QStringLiteral("\x1e") : vbasKeyText(value);
}
