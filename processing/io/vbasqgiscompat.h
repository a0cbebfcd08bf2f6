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
inline constexpr auto SourceTypeVectorPoint = Qgis::ProcessingSourceType::VectorPoint;
inline constexpr auto SourceTypeVectorPolygon = Qgis::ProcessingSourceType::VectorPolygon;
inline constexpr auto FieldTypeAny = Qgis::ProcessingFieldParameterDataType::Any;
inline constexpr auto FieldNumeric = Qgis::ProcessingFieldParameterDataType::Numeric;
inline constexpr auto NumberTypeInteger = Qgis::ProcessingNumberParameterType::Integer;
inline constexpr auto NumberTypeDouble = Qgis::ProcessingNumberParameterType::Double;
inline constexpr auto RequestNoGeometry = Qgis::FeatureRequestFlag::NoGeometry;
inline constexpr auto ParameterFlagOptional = Qgis::ProcessingParameterFlag::Optional;
inline constexpr auto ParameterFlagHidden = Qgis::ProcessingParameterFlag::Hidden;
inline constexpr auto ParameterFlagAdvanced = Qgis::ProcessingParameterFlag::Advanced;
#else
inline constexpr auto SourceTypeVector = QgsProcessing::TypeVector;
inline constexpr auto SourceTypeVectorPoint = QgsProcessing::TypeVectorPoint;
inline constexpr auto SourceTypeVectorPolygon = QgsProcessing::TypeVectorPolygon;
inline constexpr auto FieldTypeAny = QgsProcessingParameterField::Any;
inline constexpr auto FieldNumeric = QgsProcessingParameterField::Numeric;
inline constexpr auto NumberTypeInteger = QgsProcessingParameterNumber::Integer;
inline constexpr auto NumberTypeDouble = QgsProcessingParameterNumber::Double;
inline constexpr auto RequestNoGeometry = QgsFeatureRequest::NoGeometry;
inline constexpr auto ParameterFlagOptional = QgsProcessingParameterDefinition::FlagOptional;
inline constexpr auto ParameterFlagHidden = QgsProcessingParameterDefinition::FlagHidden;
inline constexpr auto ParameterFlagAdvanced = QgsProcessingParameterDefinition::FlagAdvanced;
#endif

#if _QGIS_VERSION_INT >= 33000
inline constexpr auto WkbNoGeometry = Qgis::WkbType::NoGeometry;
inline constexpr auto WkbPoint = Qgis::WkbType::Point;
inline constexpr auto WkbMultiPolygon = Qgis::WkbType::MultiPolygon;
inline constexpr auto GeometryPolygon = Qgis::GeometryType::Polygon;
inline constexpr auto GeometryPoint = Qgis::GeometryType::Point;
#else
inline constexpr auto WkbNoGeometry = QgsWkbTypes::NoGeometry;
inline constexpr auto WkbPoint = QgsWkbTypes::Point;
inline constexpr auto WkbMultiPolygon = QgsWkbTypes::MultiPolygon;
inline constexpr auto GeometryPolygon = QgsWkbTypes::PolygonGeometry;
inline constexpr auto GeometryPoint = QgsWkbTypes::PointGeometry;
#endif

#if _QGIS_VERSION_INT >= 33800
inline constexpr auto FieldTypeLongLong = QMetaType::Type::LongLong;
inline constexpr auto FieldTypeInt = QMetaType::Type::Int;
inline constexpr auto FieldTypeDouble = QMetaType::Type::Double;
inline constexpr auto FieldTypeString = QMetaType::Type::QString;
inline constexpr auto FieldTypeBool = QMetaType::Type::Bool;
#else
inline constexpr auto FieldTypeLongLong = QVariant::LongLong;
inline constexpr auto FieldTypeInt = QVariant::Int;
inline constexpr auto FieldTypeDouble = QVariant::Double;
inline constexpr auto FieldTypeString = QVariant::String;
inline constexpr auto FieldTypeBool = QVariant::Bool;
#endif

/** Marks `definition` as advanced (hidden under "Advanced parameters" in the dialog) and returns it. */
template <typename Definition> Definition* advanced(Definition* definition)
{
    definition->setFlags(definition->flags() | ParameterFlagAdvanced);
    return definition;
}

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
