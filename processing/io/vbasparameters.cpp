#include "vbasparameters.h"

#include "vbasqgiscompat.h"

#include <qgsfeature.h>

#include <cmath>

namespace
{
/** Counts beyond 2^53 would lose precision as doubles; no real table has rows that heavy. */
constexpr double kLargestExactCount = 9007199254740992.0;
} // namespace

QgsProcessingException VbasParameters::parameterError(const QString& parameterName, const QString& message)
{
    return QgsProcessingException(QStringLiteral("%1: %2").arg(parameterName, message));
}

QgsProcessingException VbasParameters::canceledError()
{
    return QgsProcessingException(QObject::tr("Canceled by the user; no output was written."));
}

qint64 VbasParameters::recordCount(const QgsFeature& feature, int countFieldIndex)
{
    if (countFieldIndex < 0)
        return 1;
    const QVariant value = feature.attribute(countFieldIndex);
    bool isNumber = false;
    const double count = VbasCompat::isNull(value) ? 0.0 : value.toDouble(&isNumber);
    if (!isNumber || !(count >= 1.0) || count > kLargestExactCount || std::floor(count) != count)
        throw parameterError(
            kParameterCountField,
            QObject::tr("feature %1 has the count '%2', but counts must be whole numbers of at "
                        "least 1; fix that row, or leave COUNT_FIELD empty to count every row "
                        "as one record")
                .arg(feature.id())
                .arg(VbasCompat::isNull(value) ? QStringLiteral("NULL") : value.toString()));
    return static_cast<qint64>(count);
}
