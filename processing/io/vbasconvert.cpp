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
    if (VbasCompat::isNull(value))
    {
        if (!mNull)
        {
            mFirstValue.resize(int(mSize) + 1);
            mFirstValue[int(mSize)] = value;
            mNull = mSize++;
        }
        ++mNullRows;
        return *mNull;
    }
    const bool wholeNumber = value.userType() == QMetaType::Int || value.userType() == QMetaType::LongLong;
    if (wholeNumber)
    {
        const auto found = mWholeNumber.constFind(value.toLongLong());
        if (found != mWholeNumber.constEnd())
            return found.value();
    }
    const QString text = vbasKeyText(value);
    const auto found = mText.constFind(text);
    if (found != mText.constEnd())
    {
        if (wholeNumber)
            mWholeNumber.insert(value.toLongLong(), found.value());
        return found.value();
    }
    if (wholeNumber)
        mWholeNumber.insert(value.toLongLong(), mSize);
    mText.insert(text, mSize);
    mFirstValue.resize(int(mSize) + 1);
    mFirstValue[int(mSize)] = value;
    return mSize++;
}

std::vector<vbas::CategoryValue> VbasCategoryCodes::values() const
{
    const std::vector<std::uint32_t> rank = ranks();
    std::vector<vbas::CategoryValue> values(mSize);
    for (std::uint32_t code = 0; code < mSize; ++code)
    {
        vbas::CategoryValue& value = values[rank[code]];
        if (mNull && code == *mNull)
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
    values.resize(int(mSize));
    for (std::uint32_t code = 0; code < mSize; ++code)
        values[int(rank[code])] = mFirstValue.at(int(code));
    return values;
}

std::vector<std::uint32_t> VbasCategoryCodes::ranks() const
{
    std::vector<std::pair<QString, std::uint32_t>> sorted;
    for (auto it = mText.constBegin(); it != mText.constEnd(); ++it)
        sorted.emplace_back(it.key(), it.value());
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> rank(mSize);
    std::uint32_t next = 0;
    if (mNull)
        rank[*mNull] = next++;
    for (const auto& entry : sorted)
        rank[entry.second] = next++;
    return rank;
}

QString vbasValueKey(const QVariant& value)
{
    // NULL is a value of its own, apart from empty text: a control character no field value starts with.
    return VbasCompat::isNull(value) ? QStringLiteral("\x1e") : vbasKeyText(value);
}
