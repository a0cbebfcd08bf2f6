#include "vbasalgorithmcompare.h"

#include "Sweep.h"
#include "vbaschoiceparameter.h"
#include "vbascomparisonreport.h"
#include "vbasdataparameters.h"
#include "vbashtml.h"
#include "vbasoutputguard.h"
#include "vbasoutputs.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"
#include "vbasreleaseoutputs.h"
#include "vbassteps.h"
#include "vbasstrategyparameters.h"

#include <qgsfeaturesink.h>
#include <qgsprocessingoutputs.h>

using namespace VbasParameters;

void VbasAlgorithmCompare::initAlgorithm(const QVariantMap&)
{
    VbasDataParameters::addTo(*this);
    VbasStrategyParameters::addSiteCountTo(*this, VbasStrategyParameters::Choice::Several);
    VbasStrategyParameters::addSiteLocationTo(*this, VbasStrategyParameters::Choice::Several);
    VbasStrategyParameters::addPartitionTo(*this, false);
    VbasDataParameters::addGeneralizationTo(*this);
    addParameter(VbasCompat::advanced(
        new QgsProcessingParameterNumber(kSweepSteps, QObject::tr("Sweep steps on each side of the estimate"),
                                         VbasCompat::NumberTypeInteger, 2, false, 0)));
    addParameter(VbasCompat::advanced(new QgsProcessingParameterNumber(
        kSweepFraction, QObject::tr("Sweep step as a fraction of the estimate"), VbasCompat::NumberTypeDouble,
        0.1, false, 0.0)));
    addParameter(VbasCompat::advanced(vbasWithHelp(
        new QgsProcessingParameterBoolean(
            kSweepGeneralizationLevels,
            QObject::tr("Also sweep the other generalization levels on the frontier"), false, true),
        QObject::tr(
            "With GENERALIZATION, each combination sweeps the levels its release would choose; switched on, "
            "it also sweeps every other combination of levels the search found on its frontier (more "
            "regions, less attribute loss, fewer withheld records or lower entropy than any other it "
            "tried), so that the table shows what coarser or finer values would give. Each row's "
            "levels are in its generalization field."))));
    addParameter(forReview(new QgsProcessingParameterFeatureSink(
        kOutput, QObject::tr("Comparison (review only: never publish)"), VbasCompat::SourceTypeVector)));
    addParameter(forReview(new QgsProcessingParameterFileDestination(
        kOutputHtml, QObject::tr("Report (review only: never publish)"), QObject::tr("HTML files (*.html)"),
        QVariant(), true)));
    addParameter(VbasCompat::advanced(
        new VbasChoiceParameter(kParetoChartX, QObject::tr("Report: objective across the Pareto chart"),
                                VbasChoiceParameter::literalChoices(vbasParetoChartFields()), false,
                                QStringLiteral("suppressed"), true)));
    addParameter(VbasCompat::advanced(
        new VbasChoiceParameter(kParetoChartY, QObject::tr("Report: objective up the Pareto chart"),
                                VbasChoiceParameter::literalChoices(vbasParetoChartFields()), false,
                                QStringLiteral("average_distance"), true)));
    addOutput(new QgsProcessingOutputNumber(kRows, QObject::tr("Solutions compared")));
    addOutput(new QgsProcessingOutputNumber(kParetoRows, QObject::tr("Pareto-optimal solutions")));
}

QString VbasAlgorithmCompare::name() const
{
    return QStringLiteral("compareapproaches");
}

QString VbasAlgorithmCompare::displayName() const
{
    return QObject::tr("Compare aggregation approaches");
}

QStringList VbasAlgorithmCompare::tags() const
{
    return QObject::tr(
               "k-anonymity,compare,sweep,pareto,metrics,strategies,site count,generalization,hierarchy")
        .split(',');
}

QString VbasAlgorithmCompare::group() const
{
    return QObject::tr("Evaluation");
}

QString VbasAlgorithmCompare::groupId() const
{
    return QStringLiteral("evaluation");
}

QString VbasAlgorithmCompare::shortHelpString() const
{
    return QObject::tr(
        "Runs 'Aggregate to k-anonymity' for every combination of the chosen site-count and site-location "
        "methods (and ADC when asked), each over a sweep of site counts around its estimate s0: s0 + j * "
        "ceil(fraction * s0) for j = -steps .. steps. It writes one row per solution with every metric, and "
        "marks pareto_optimal the rows no other row beats on all of anonymity deviation, average distance, "
        "suppression, precision loss, discernibility and non-uniform entropy (lower is better). The optional "
        "report charts two of these objectives, Pareto-optimal rows highlighted, above the whole table.\n\n"
        "With GENERALIZATION (and numeric quasi-identifiers, banded by default), each combination first "
        "chooses the levels of the quasi-identifiers as "
        "'Aggregate to k-anonymity' would (the most regions within SUPPRESSION_BUDGET, then the least "
        "attribute loss) and sweeps the records at those levels; the columns generalization and "
        "attribute_loss say which levels and how much detail they gave up, and attribute loss is a "
        "Pareto objective too.\n\n"
        "Use the table to choose one approach, then run the main job with it. Release only one of these "
        "aggregations, ever: two aggregations of the same records can be overlaid to single people out.");
}

QString VbasAlgorithmCompare::shortDescription() const
{
    return QObject::tr(
        "Runs combinations of methods over a sweep of site counts and marks the Pareto-optimal solutions.");
}

VbasAlgorithmCompare* VbasAlgorithmCompare::createInstance() const
{
    return new VbasAlgorithmCompare();
}

QVariantMap VbasAlgorithmCompare::processAlgorithm(const QVariantMap& parameters,
                                                   QgsProcessingContext& context,
                                                   QgsProcessingFeedback* feedback)
{
    VbasOutputGuard guard(*this, VbasReleaseOutputs::withReportKept(*this, parameters, context), context,
                          feedback);
    const VbasParameterReader read(*this, guard.parameters(), context);
    return guard.runAndCommit(
        feedback,
        [&]
        {
            const auto ids = [](const QStringList& list)
            {
                std::vector<std::string> converted;
                for (const QString& id : list)
                    converted.push_back(id.toStdString());
                return converted;
            };
            const vbas::ComparisonChoices choices{ids(read.strategyIds(kSiteCountMethod)),
                                                  ids(read.strategyIds(kSiteLocation)),
                                                  ids(VbasStrategyParameters::refinerIds(read))};
            const vbas::SweepOptions sweep{read.asInt(kSweepSteps), read.asDouble(kSweepFraction),
                                           read.has(kSweepGeneralizationLevels) &&
                                               read.asBoolean(kSweepGeneralizationLevels)};
            const vbas::PipelineConfig base = VbasStrategyParameters::readConfig(read, feedback);
            // A bad combination fails here, before any data is read.
            const auto comparison =
                read.runEngine(feedback, [&](vbas::Feedback&)
                               { return std::make_unique<vbas::Comparison>(base, choices, sweep); });
            VbasSteps steps(3, feedback);
            const VbasJob job = VbasDataParameters::loadJob(read, &steps);
            steps.next();
            const vbas::ComparisonResult rows =
                read.runEngine(&steps, [&](vbas::Feedback& engineFeedback)
                               { return comparison->run(job.engineJob(), engineFeedback); });
            steps.next();
            const QList<QgsAttributes> table = VbasOutputs::comparisonTable(rows, comparison->configs());

            QString destination;
            const std::unique_ptr<QgsFeatureSink> sink =
                read.sink(kOutput, destination, VbasOutputs::comparisonFields(), VbasCompat::WkbNoGeometry);
            if (!sink)
                throw read.invalidSinkError(kOutput);
            VbasSink out(*sink, kOutput, steps, &guard.writtenCounts(), destination);
            VbasOutputs::writeComparison(out, table);
            QVariantMap outputs{{kOutput, destination},
                                {kRows, qlonglong(rows.rows.size())},
                                {kParetoRows, qlonglong(rows.paretoRows)}};
            const QString report = read.asFileOutput(kOutputHtml);
            if (!report.isEmpty())
            {
                steps.setProgress(50.0);
                vbasWriteComparisonReport(report, kOutputHtml, displayName(),
                                          VbasHtml::parameters(*this, read.parameters(), context),
                                          VbasOutputs::comparisonFields(), table,
                                          read.choiceId(kParetoChartX), read.choiceId(kParetoChartY));
                outputs.insert(kOutputHtml, report);
            }
            feedback->pushWarning(
                QObject::tr("%1 of %2 solutions are Pareto-optimal. Release only one of them, ever: two "
                            "aggregations of the same records can be overlaid to single people out.")
                    .arg(rows.paretoRows)
                    .arg(rows.rows.size()));
            return outputs;
        });
}
