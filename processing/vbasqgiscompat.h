#pragma once

// QGIS moved its Processing and geometry enums into `Qgis::` enum classes (3.30, 3.36, 3.38) and will
// drop the old spellings with Qt6/QGIS 4. Every version-dependent spelling the provider uses lives
// here, so a port touches this file only.

#include <qgis.h>
#include <qgsfeaturerequest.h>
#include <qgsprocessing.h>
#include <qgsprocessingparameters.h>
#include <qgswkbtypes.h>
#if _QGIS_VERSION_INT >= 32800
#include <qgsvariantutils.h>
#endif

#include <QVariant>

namespace VbasCompat
{

#if _QGIS_VERSION_INT >= 33600
inline constexpr auto SourceTypeVector = Qgis::ProcessingSourceType::Vector;
inline constexpr auto FieldTypeAny = Qgis::ProcessingFieldParameterDataType::Any;
inline constexpr auto NumberTypeInteger = Qgis::ProcessingNumberParameterType::Integer;
inline constexpr auto RequestNoGeometry = Qgis::FeatureRequestFlag::NoGeometry;
inline constexpr auto ParameterFlagOptional = Qgis::ProcessingParameterFlag::Optional;
inline constexpr auto ParameterFlagHidden = Qgis::ProcessingParameterFlag::Hidden;
#else
inline constexpr auto SourceTypeVector = QgsProcessing::TypeVector;
inline constexpr auto FieldTypeAny = QgsProcessingParameterField::Any;
inline constexpr auto NumberTypeInteger = QgsProcessingParameterNumber::Integer;
inline constexpr auto RequestNoGeometry = QgsFeatureRequest::NoGeometry;
inline constexpr auto ParameterFlagOptional = QgsProcessingParameterDefinition::FlagOptional;
inline constexpr auto ParameterFlagHidden = QgsProcessingParameterDefinition::FlagHidden;
#endif

#if _QGIS_VERSION_INT >= 33000
inline constexpr auto WkbNoGeometry = Qgis::WkbType::NoGeometry;
#else
inline constexpr auto WkbNoGeometry = QgsWkbTypes::NoGeometry;
#endif

#if _QGIS_VERSION_INT >= 33800
inline constexpr auto FieldTypeLongLong = QMetaType::Type::LongLong;
#else
inline constexpr auto FieldTypeLongLong = QVariant::LongLong;
#endif

/** Returns true for a NULL attribute value (Qt6 no longer treats a null QString variant as null). */
inline bool isNull(const QVariant& value)
{
#if _QGIS_VERSION_INT >= 32800
    return QgsVariantUtils::isNull(value);
#else
    return value.isNull();
#endif
}

} // namespace VbasCompat
