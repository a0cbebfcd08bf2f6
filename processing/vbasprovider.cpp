#include "vbasprovider.h"

#include "vbasalgorithmaggregate.h"
#include "vbasalgorithmcheckanonymity.h"
#include "vbasalgorithmcompare.h"
#include "vbasalgorithmestimatesitecount.h"
#include "vbasalgorithmmaprelease.h"
#include "vbasalgorithmpartition.h"
#include "vbasalgorithmpopulationfloor.h"
#include "vbasalgorithmrate.h"
#include "vbasalgorithmreleaseonaggregation.h"
#include "vbasalgorithmselectsites.h"
#include "vbasalgorithmwithdraw.h"
#include "vbasmetadata.h"

#include <QIcon>

// Q_INIT_RESOURCE must be expanded outside any namespace and function of ours.
static void registerVbasResources()
{
    Q_INIT_RESOURCE(vbas);
}

VbasProvider::VbasProvider(QObject* parent)
    : QgsProcessingProvider(parent)
{
}

QString VbasProvider::iconPath()
{
    // The resources are compiled into this static library, whose unreferenced objects the linker
    // drops; registering them explicitly (once, thread-safe) keeps them in every binary.
    static const bool registered = (registerVbasResources(), true);
    Q_UNUSED(registered)
    return QStringLiteral(":/vbas/icons/vbas.svg");
}

QIcon VbasProvider::icon() const
{
    return QIcon(iconPath());
}

QString VbasProvider::svgIconPath() const
{
    return iconPath();
}

QString VbasProvider::id() const
{
    return kId;
}

QString VbasProvider::name() const
{
    return QStringLiteral(VBAS_METADATA_NAME);
}

QString VbasProvider::longName() const
{
    return QStringLiteral("%1 %2").arg(QStringLiteral(VBAS_METADATA_NAME),
                                       QStringLiteral(VBAS_METADATA_VERSION));
}

bool VbasProvider::supportsNonFileBasedOutput() const
{
    return true;
}

void VbasProvider::loadAlgorithms()
{
    addAlgorithm(new VbasAlgorithmAggregate());
    addAlgorithm(new VbasAlgorithmCheckAnonymity());
    addAlgorithm(new VbasAlgorithmCompare());
    addAlgorithm(new VbasAlgorithmEstimateSiteCount());
    addAlgorithm(new VbasAlgorithmPartition());
    addAlgorithm(new VbasAlgorithmPopulationFloor());
    addAlgorithm(new VbasAlgorithmMapRelease());
    addAlgorithm(new VbasAlgorithmRate());
    addAlgorithm(new VbasAlgorithmReleaseOnAggregation());
    addAlgorithm(new VbasAlgorithmSelectSites());
    addAlgorithm(new VbasAlgorithmWithdraw());
}
