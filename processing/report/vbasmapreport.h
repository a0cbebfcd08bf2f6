#pragma once

#include "MapRelease.h"
#include "vbashtml.h"

#include <QString>
#include <QStringList>

/**
 * The report of a release for maps (vbas:maprelease): the map of the chosen rate first, regions shaded in
 * five classes of equal counts with unstable rates hatched and withheld ones grey, its legend in words, then
 * what was made (regions, floors, flags), every region's figures as published, the log's lines and the
 * parameters.
 */
namespace VbasMapReport
{
/**
 * Returns the report's HTML. `rate` is the field shown (VbasMapOutputs::rateFields()), `multiplier` the
 * rates' "per" (100,000), `lines` what the log said, `floors` the floors in words.
 */
QString html(const vbas::MapRelease& release, const QString& rate, double multiplier, const QString& floors,
             const QStringList& lines, const VbasHtml::Parameters& parameters);
} // namespace VbasMapReport
