#include "vbasalgorithm.h"

#include "vbashelppage.h"
#include "vbasmetadata.h"
#include "vbasparameterreader.h"
#include "vbasprovider.h"
#include "vbasqgiscompat.h"

#include <qgsprocessingparameters.h>

#include <QIcon>

QIcon VbasAlgorithm::icon() const
{
    return QIcon(VbasProvider::iconPath());
}

QString VbasAlgorithm::svgIconPath() const
{
    return VbasProvider::iconPath();
}

QString VbasAlgorithm::helpUrl() const
{
    return vbasHelpUrl(*this, QStringLiteral(VBAS_METADATA_VERSION));
}

bool VbasAlgorithm::checkParameterValues(const QVariantMap& parameters, QgsProcessingContext& context,
                                         QString* message) const
{
    const VbasParameterReader read(*this, parameters, context);
    for (const QgsProcessingParameterDefinition* definition : parameterDefinitions())
    {
        const auto* field = dynamic_cast<const QgsProcessingParameterField*>(definition);
        if (field == nullptr || (field->flags() & VbasCompat::ParameterFlagOptional) ||
            !read.fieldNames(field->name()).isEmpty())
            continue;
        if (message != nullptr)
            *message = vbasEmptyFieldMessage(*this, *field);
        return false;
    }
    return QgsProcessingAlgorithm::checkParameterValues(parameters, context, message);
}
