#include "vbasspatial.h"

#include "data/CategoryCoding.h"
#include "vbasparameters.h"
#include "vbasqgiscompat.h"

#include <qgsvectorlayer.h>

#include <QMap>

namespace
{

std::shared_ptr<const vbas::Obstacles> loadObstacles(const QList<QgsMapLayer*>& layers,
                                                     const VbasPlanarFrame& frame, vbas::Feedback& feedback)
{
    std::vector<vbas::Segment> segments;
    for (QgsMapLayer* layer : layers)
    {
        auto* vector = qobject_cast<QgsVectorLayer*>(layer);
        if (vector == nullptr)
            throw VbasParameters::parameterError(
                VbasParameters::kObstacles,
                QObject::tr("'%1' is not a vector layer; give line or polygon layers").arg(layer->name()));
        if (vector->geometryType() == VbasCompat::GeometryPoint)
            throw VbasParameters::parameterError(
                VbasParameters::kObstacles,
                QObject::tr("'%1' holds points, which bar nothing; give line layers (rivers, motorways) or "
                            "polygon layers (lakes)")
                    .arg(layer->name()));
        const VbasPlanarReader reader(frame, *vector, VbasParameters::kObstacles);
        QgsFeatureIterator features = vector->getFeatures(QgsFeatureRequest().setNoAttributes());
        QgsFeature feature;
        while (features.nextFeature(feature))
        {
            feedback.checkCanceled();
            const QByteArray wkb = reader.planarGeometry(feature).asWkb();
            if (wkb.isEmpty())
                continue;
            const std::vector<vbas::Segment> more = vbas::Obstacles::segmentsOfWkb(
                reinterpret_cast<const unsigned char*>(wkb.constData()), std::size_t(wkb.size()));
            segments.insert(segments.end(), more.begin(), more.end());
        }
    }
    feedback.info(std::to_string(segments.size()) + " obstacle segments from " +
                  std::to_string(layers.size()) + " layer(s)");
    return std::make_shared<const vbas::Obstacles>(std::move(segments));
}

std::vector<std::uint32_t> loadParents(QgsFeatureSource& regions, int parentField, const VbasLoadedData& data,
                                       vbas::Feedback& feedback)
{
    const QHash<QgsFeatureId, std::size_t> rowOf = vbasFeatureRows(data.regionFeatures);
    QgsFeatureRequest request;
    request.setFlags(VbasCompat::RequestNoGeometry).setSubsetOfAttributes(QgsAttributeList{parentField});
    VbasCategoryCodes codes; // NULL is a parent of its own, so its regions are never merged with others
    std::vector<std::uint32_t> parent(data.regionFeatures.size());
    QgsFeatureIterator features = regions.getFeatures(request);
    QgsFeature feature;
    while (features.nextFeature(feature))
    {
        const auto row = rowOf.find(feature.id());
        if (row != rowOf.end())
            parent[*row] = codes.code(feature.attribute(parentField));
    }
    vbas::rankCodes(codes.ranks(), parent);
    const std::size_t nulls = codes.nullRows();
    feedback.info(std::to_string(codes.size() - (nulls > 0 ? 1 : 0)) +
                  " parent values: no aggregate will mix two of them");
    if (nulls > 0)
        feedback.warning(std::to_string(nulls) +
                         " regions have no PARENT_FIELD value (NULL); they form a parent of their own");
    return parent;
}
} // namespace

VbasSpatialInputs vbasLoadSpatial(const QList<QgsMapLayer*>& obstacleLayers, QgsFeatureSource& regions,
                                  int parentField, const VbasLoadedData& data, const VbasPlanarFrame& frame,
                                  vbas::Feedback& feedback)
{
    VbasSpatialInputs inputs;
    if (!obstacleLayers.isEmpty())
        inputs.obstacles = loadObstacles(obstacleLayers, frame, feedback);
    if (parentField >= 0)
        inputs.regionParent = loadParents(regions, parentField, data, feedback);
    return inputs;
}
