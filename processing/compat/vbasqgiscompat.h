#pragma once

// QGIS moved its Processing and geometry enums into `Qgis::` enum classes (3.26 to 3.38) and drops
// the old spellings with Qt6/QGIS 4; Qt6 changed QVariant and QTextStream. Every version-dependent
// spelling the provider and its tests use lives here, so a port touches this file only. Built and
// tested on QGIS 3.22 and 3.40 (Qt5), compiled against QGIS 3.44 with Qt6.

#include <qgis.h>
#include <qgsfeaturerequest.h>
#include <qgsfields.h>
#include <qgspallabeling.h>
#include <qgsprocessing.h>
#include <qgsprocessingparameters.h>
#include <qgssymbollayer.h>
#include <qgsunittypes.h>
#include <qgswkbtypes.h>
#if _QGIS_VERSION_INT >= 32800
#include <qgsvariantutils.h>
#endif

#include <QTextStream>
#include <QVariant>

#include <memory>
#include <type_traits>

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
inline constexpr auto SourceTypeFile = Qgis::ProcessingSourceType::File;
inline constexpr auto FileBehaviorFile = Qgis::ProcessingFileParameterBehavior::File;
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
inline constexpr auto SourceTypeFile = QgsProcessing::TypeFile;
inline constexpr auto FileBehaviorFile = QgsProcessingParameterFile::File;
#endif

#if _QGIS_VERSION_INT >= 33000
using WkbType = Qgis::WkbType;
inline constexpr auto WkbNoGeometry = Qgis::WkbType::NoGeometry;
inline constexpr auto WkbPoint = Qgis::WkbType::Point;
inline constexpr auto WkbPolygon = Qgis::WkbType::Polygon;
inline constexpr auto WkbMultiPolygon = Qgis::WkbType::MultiPolygon;
inline constexpr auto WkbMultiSurface = Qgis::WkbType::MultiSurface;
inline constexpr auto GeometryPolygon = Qgis::GeometryType::Polygon;
inline constexpr auto GeometryPoint = Qgis::GeometryType::Point;
inline constexpr auto DistanceMeters = Qgis::DistanceUnit::Meters;
#else
using WkbType = QgsWkbTypes::Type;
inline constexpr auto WkbNoGeometry = QgsWkbTypes::NoGeometry;
inline constexpr auto WkbPoint = QgsWkbTypes::Point;
inline constexpr auto WkbPolygon = QgsWkbTypes::Polygon;
inline constexpr auto WkbMultiPolygon = QgsWkbTypes::MultiPolygon;
inline constexpr auto WkbMultiSurface = QgsWkbTypes::MultiSurface;
inline constexpr auto GeometryPolygon = QgsWkbTypes::PolygonGeometry;
inline constexpr auto GeometryPoint = QgsWkbTypes::PointGeometry;
inline constexpr auto DistanceMeters = QgsUnitTypes::DistanceMeters;
#endif

#if _QGIS_VERSION_INT >= 32600
inline constexpr auto LabelHorizontal = Qgis::LabelPlacement::Horizontal;
#else
inline constexpr auto LabelHorizontal = QgsPalLayerSettings::Horizontal;
#endif

// QgsField's type: QMetaType::Type from 3.38, QVariant::Type before (the same values).
#if _QGIS_VERSION_INT >= 33800
using FieldType = QMetaType::Type;
inline constexpr auto FieldTypeLongLong = QMetaType::Type::LongLong;
inline constexpr auto FieldTypeInt = QMetaType::Type::Int;
inline constexpr auto FieldTypeDouble = QMetaType::Type::Double;
inline constexpr auto FieldTypeString = QMetaType::Type::QString;
inline constexpr auto FieldTypeBool = QMetaType::Type::Bool;
inline constexpr auto FieldTypeDate = QMetaType::Type::QDate;
inline constexpr auto FieldTypeDateTime = QMetaType::Type::QDateTime;
inline constexpr auto FieldOriginProvider = Qgis::FieldOrigin::Provider;
#else
using FieldType = QVariant::Type;
inline constexpr auto FieldTypeLongLong = QVariant::LongLong;
inline constexpr auto FieldTypeInt = QVariant::Int;
inline constexpr auto FieldTypeDouble = QVariant::Double;
inline constexpr auto FieldTypeString = QVariant::String;
inline constexpr auto FieldTypeBool = QVariant::Bool;
inline constexpr auto FieldTypeDate = QVariant::Date;
inline constexpr auto FieldTypeDateTime = QVariant::DateTime;
inline constexpr auto FieldOriginProvider = QgsFields::OriginProvider;
#endif

/** Returns a NULL value of a field's type (how QGIS marks a missing attribute). */
inline QVariant nullOf(FieldType type)
{
#if _QGIS_VERSION_INT >= 33800
    return QgsVariantUtils::createNullVariant(type);
#else
    return QVariant(type);
#endif
}

/** Returns the QgsSymbolLayer property of the stroke colour (an enum class member from 3.30 on). */
template <typename Layer = QgsSymbolLayer> constexpr auto strokeColorProperty()
{
    // Detected rather than keyed on a version: the header gives no version for the change.
    if constexpr (std::is_enum_v<typename Layer::Property> &&
                  !std::is_convertible_v<typename Layer::Property, int>)
        return Layer::Property::StrokeColor;
    else
        return Layer::PropertyStrokeColor;
}

/** Takes ownership from a QGIS factory, which returns a raw pointer up to 3.40 and a unique_ptr after. */
template <typename T> T* released(T* object)
{
    return object;
}
template <typename T> T* released(std::unique_ptr<T> object)
{
    return object.release();
}

/** Makes `stream` read and write UTF-8 (Qt6's default; Qt5 takes the locale's codec). */
inline void useUtf8(QTextStream& stream)
{
#if QT_VERSION < QT_VERSION_CHECK(6, 0, 0)
    stream.setCodec("UTF-8");
#else
    Q_UNUSED(stream)
#endif
}

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
