#include "vbaslayerstyler.h"

#include "vbasoutputguard.h"

#include <qgslayertree.h>
#include <qgsproject.h>
#include <qgsvectorlayer.h>

namespace
{
const QString kRankProperty = QStringLiteral("vbas/drawing_rank");
const QString kRunProperty = QStringLiteral("vbas/run");

/**
 * Places `layer` among the layers of the same run in the project's layer tree, topmost role first;
 * returns its node (none when the layer is not in the tree).
 */
QgsLayerTreeLayer* stack(QgsMapLayer& layer, QgsProject* project, int rank, const QString& run)
{
    layer.setCustomProperty(kRankProperty, rank);
    layer.setCustomProperty(kRunProperty, run);
    QgsLayerTreeLayer* node = project ? project->layerTreeRoot()->findLayer(&layer) : nullptr;
    QgsLayerTreeGroup* group = node ? qobject_cast<QgsLayerTreeGroup*>(node->parent()) : nullptr;
    if (!group)
        return node;
    int below = -1, above = -1; // the first sibling of the run drawn below, the last drawn above
    const QList<QgsLayerTreeNode*> children = group->children();
    for (int i = 0; i < children.size(); ++i)
    {
        const QgsLayerTreeLayer* sibling =
            QgsLayerTree::isLayer(children[i]) ? QgsLayerTree::toLayer(children[i]) : nullptr;
        if (sibling == node || !sibling || !sibling->layer() ||
            sibling->layer()->customProperty(kRunProperty).toString() != run)
            continue;
        const int siblingRank = sibling->layer()->customProperty(kRankProperty).toInt();
        if (siblingRank > rank && below < 0)
            below = i;
        if (siblingRank < rank)
            above = i;
    }
    const int target = below >= 0 ? below : above >= 0 ? above + 1 : -1;
    if (target < 0)
        return node;
    // The clone goes in first: a layer whose last tree node goes away is removed from the project.
    QgsLayerTreeLayer* moved = node->clone();
    group->insertChildNode(target, moved);
    group->removeChildNode(node);
    return moved;
}
} // namespace

VbasLayerStyler::VbasLayerStyler(VbasStyling::Role role, const QString& shadeBy, const QString& run)
    : mRole(role)
    , mShadeBy(shadeBy)
    , mRun(run)
{
}

void VbasLayerStyler::attach(VbasOutputGuard& guard, QgsProcessingContext& context,
                             const QString& destination, VbasStyling::Role role, const QString& shadeBy,
                             const QString& run)
{
    // Under the final path: QGIS loads the layer from there once the guard has moved it into place.
    const QString layer = guard.publish(destination);
    if (context.willLoadLayerOnCompletion(layer))
        context.layerToLoadOnCompletionDetails(layer).setPostProcessor(
            new VbasLayerStyler(role, shadeBy, guard.finalDestination(run)));
}

void VbasLayerStyler::postProcessLayer(QgsMapLayer* layer, QgsProcessingContext& context,
                                       QgsProcessingFeedback*)
{
    auto* vector = qobject_cast<QgsVectorLayer*>(layer);
    if (!vector)
        return;
    VbasStyling::style(*vector, mRole, mShadeBy);
    if (mRole == VbasStyling::Role::Aggregates)
        VbasStyling::explainLegend(*vector);
    QgsLayerTreeLayer* node =
        stack(*vector, layer->project() ? layer->project() : context.project(), int(mRole), mRun);
    if (node && mRole == VbasStyling::Role::Mapping)
        node->setExpanded(false); // its legend lists every aggregate id, one colour each: folded
    vector->triggerRepaint();
}
