#pragma once

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QVariantMap>

class QgsProcessingAlgorithm;
class QgsProcessingContext;

/**
 * What a release needs to be made again: the versions of VBAS and of the libraries it reads, computes and
 * writes with, the algorithm, and its parameters by name. The report shows it and the release ledger keeps
 * it. With the same versions and parameters the same inputs give the same release; the plane being VBAS's own
 * (VbasPlanarFrame), other versions of PROJ give it too.
 */
namespace VbasProvenance
{
/** Returns every library and its version, VBAS first: ("VBAS", "0.1.0"), ("QGIS", "3.40.6-Bratislava")... */
QList<QPair<QString, QString>> versions();
/**
 * Returns the provenance of a run of `algorithm` with `parameters` as JSON: {"algorithm", "versions": {name:
 * version}, "parameters": {NAME: value as Python notation, as qgis_process and the report write it}}; the
 * outputs are left out, being where the release went, not what it is.
 */
QJsonObject json(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                 QgsProcessingContext& context);
} // namespace VbasProvenance
