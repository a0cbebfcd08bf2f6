// The provider as QGIS sees it, and its registration as the plugin and vbas_process perform it.

#include "vbasprovider.h"
#include "Pipeline.h"
#include "Registry.h"
#include "vbaschoiceparameter.h"
#include "vbasproviderregistration.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingparameters.h>
#include <qgsprocessingregistry.h>

#include <QFile>
#include <QUrl>

#include <QTextStream>
#include <cmath>

#include <gtest/gtest.h>

namespace
{
/** Returns the value of `key` in the project's metadata.txt, the single source of the plugin's strings. */
QString metadataValue(const QString& key)
{
    QFile file(QStringLiteral(VBAS_METADATA_FILE));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text));
    QTextStream lines(&file);
    VbasCompat::useUtf8(lines);
    while (!lines.atEnd())
    {
        const QString line = lines.readLine();
        if (line.startsWith(key + '='))
            return line.mid(key.size() + 1);
    }
    ADD_FAILURE() << "metadata.txt has no " << key.toStdString();
    return {};
}

QgsProcessingProvider* vbasProvider()
{
    return QgsApplication::processingRegistry()->providerById(QStringLiteral("vbas"));
}
} // namespace

TEST(Provider, IsRegisteredWithTheNameAndVersionOfMetadata)
{
    const QgsProcessingProvider* provider = vbasProvider();
    ASSERT_TRUE(provider);
    EXPECT_EQ(provider->name(), metadataValue(QStringLiteral("name")));
    EXPECT_TRUE(provider->longName().endsWith(metadataValue(QStringLiteral("version"))));
    EXPECT_TRUE(provider->supportsNonFileBasedOutput());
}

TEST(Provider, ShowsTheEmbeddedIcon)
{
    const QgsProcessingProvider* provider = vbasProvider();
    ASSERT_TRUE(provider);
    EXPECT_TRUE(QFile::exists(provider->svgIconPath())) << provider->svgIconPath().toStdString();
    EXPECT_FALSE(provider->icon().pixmap(16, 16).isNull());
}

TEST(Provider, OffersCheckAnonymity)
{
    const QgsProcessingAlgorithm* algorithm =
        QgsApplication::processingRegistry()->algorithmById(QStringLiteral("vbas:checkanonymity"));
    ASSERT_TRUE(algorithm);
    EXPECT_EQ(algorithm->provider(), vbasProvider());
    EXPECT_EQ(algorithm->groupId(), QStringLiteral("verification"));
    EXPECT_FALSE(algorithm->shortHelpString().isEmpty());
}

TEST(Provider, OffersEveryAlgorithmWithGroupHelpAndCapitalParameters)
{
    const QgsProcessingProvider* provider = vbasProvider();
    ASSERT_TRUE(provider);
    QStringList names;
    for (const QgsProcessingAlgorithm* algorithm : provider->algorithms())
    {
        names << algorithm->name();
        EXPECT_FALSE(algorithm->group().isEmpty()) << algorithm->id().toStdString();
        EXPECT_GT(algorithm->shortHelpString().size(), 200) << algorithm->id().toStdString();
        for (const QgsProcessingParameterDefinition* parameter : algorithm->parameterDefinitions())
            EXPECT_EQ(parameter->name(), parameter->name().toUpper()) << algorithm->id().toStdString();
    }
    names.sort();
    EXPECT_EQ(names,
              (QStringList{"aggregateregions", "checkanonymity", "compareapproaches", "estimatesitecount",
                           "maprelease", "partitionregions", "populationfloor", "rateaggregation",
                           "releaseonaggregation", "selectsites", "withdrawrelease"}));
}

namespace
{
const QgsProcessingParameterDefinition* parameter(const QString& algorithm, const QString& name)
{
    const QgsProcessingAlgorithm* found =
        QgsApplication::processingRegistry()->algorithmById(QStringLiteral("vbas:") + algorithm);
    EXPECT_TRUE(found) << algorithm.toStdString();
    const QgsProcessingParameterDefinition* definition = found ? found->parameterDefinition(name) : nullptr;
    EXPECT_TRUE(definition) << name.toStdString();
    return definition;
}

template <typename Entry> QStringList names(const std::vector<Entry>& entries)
{
    QStringList list;
    for (const Entry& entry : entries)
        list << QString::fromStdString(entry.name);
    return list;
}

const VbasChoiceParameter* choice(const QString& algorithm, const QString& name)
{
    const auto* definition = dynamic_cast<const VbasChoiceParameter*>(parameter(algorithm, name));
    EXPECT_TRUE(definition) << name.toStdString();
    return definition;
}
} // namespace

TEST(Provider, StrategyChoicesShowNamesAndTakeIds)
{
    // The dialog shows the registry's names; scripts, the command line and models saved before the names
    // give the ids, which stay the values the engine gets, so reordering strategies changes nothing.
    const vbas::Registry& registry = vbas::Registry::builtIn();
    const VbasChoiceParameter* counters = choice("aggregateregions", "SITE_COUNT_METHOD");
    const VbasChoiceParameter* locators = choice("aggregateregions", "SITE_LOCATION");
    const VbasChoiceParameter* partitions = choice("aggregateregions", "PARTITION");
    ASSERT_TRUE(counters && locators && partitions);
    EXPECT_EQ(counters->options(), names(registry.siteCounters));
    EXPECT_EQ(locators->options(), names(registry.siteLocators));
    EXPECT_EQ(partitions->options(), names(registry.partitioners));
    for (const auto& entry : registry.siteCounters)
    {
        const QString id = QString::fromStdString(entry.id), name = QString::fromStdString(entry.name);
        EXPECT_TRUE(counters->checkValueIsAcceptable(id)) << entry.id;
        EXPECT_TRUE(counters->checkValueIsAcceptable(name)) << entry.name;
        EXPECT_EQ(counters->ids(id), QStringList{id});
        EXPECT_EQ(counters->ids(name), QStringList{id});
    }
    EXPECT_FALSE(counters->checkValueIsAcceptable(QStringLiteral("sitecount.nowhere")));
    EXPECT_FALSE(counters->checkValueIsAcceptable(QStringList{"sitecount.fixed", "sitecount.gaps_entropy"}));
    EXPECT_EQ(counters->ids(QStringLiteral("sitecount.nowhere")), QStringList{QString()});

    const VbasChoiceParameter* compared = choice("compareapproaches", "SITE_LOCATION");
    ASSERT_TRUE(compared);
    EXPECT_TRUE(compared->allowMultiple());
    const QStringList mixed{"Random", "sitelocation.naive_density"};
    EXPECT_TRUE(compared->checkValueIsAcceptable(mixed));
    EXPECT_EQ(compared->ids(mixed), (QStringList{"sitelocation.random", "sitelocation.naive_density"}));
    // The tooltip shows one line per strategy.
    EXPECT_EQ(locators->toolTip().count(QStringLiteral("<br>")), int(registry.siteLocators.size()) - 1);
}

TEST(Provider, EveryChoiceIsTakenByItsNumberAsTheHelpOffersIt)
{
    // qgis_process help and vbas_process help list every choice with its number (0, 1, 2...): the number
    // must choose what the label at that place chooses, in every enum parameter of every algorithm.
    int parameters = 0;
    for (const QgsProcessingAlgorithm* algorithm : vbasProvider()->algorithms())
        for (const QgsProcessingParameterDefinition* definition : algorithm->parameterDefinitions())
        {
            const auto* choices = dynamic_cast<const VbasChoiceParameter*>(definition);
            if (!choices)
            {
                EXPECT_FALSE(dynamic_cast<const QgsProcessingParameterEnum*>(definition))
                    << algorithm->id().toStdString() << " " << definition->name().toStdString()
                    << ": an enum parameter that does not read its choices by number";
                continue;
            }
            ++parameters;
            const QStringList labels = choices->options();
            for (int i = 0; i < labels.size(); ++i)
            {
                const std::string where =
                    (algorithm->id() + ' ' + definition->name()).toStdString() + ' ' + std::to_string(i);
                EXPECT_TRUE(choices->checkValueIsAcceptable(QString::number(i))) << where;
                EXPECT_TRUE(choices->checkValueIsAcceptable(i)) << where;
                EXPECT_EQ(choices->ids(QString::number(i)), choices->ids(labels[i])) << where;
                EXPECT_EQ(choices->ids(i), choices->ids(labels[i])) << where;
            }
            EXPECT_FALSE(choices->checkValueIsAcceptable(QString::number(labels.size())))
                << definition->name().toStdString();
            EXPECT_FALSE(choices->checkValueIsAcceptable(QStringLiteral("-1")))
                << definition->name().toStdString();
        }
    EXPECT_GT(parameters, 10);
    const VbasChoiceParameter* unknown = choice("aggregateregions", "UNKNOWN_REGIONS");
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->ids(QStringLiteral("1")), QStringList{"drop"});
    EXPECT_EQ(choice("compareapproaches", "SITE_LOCATION")->ids(QStringLiteral("0,2")),
              (QStringList{QString::fromStdString(vbas::Registry::builtIn().siteLocators[0].id),
                           QString::fromStdString(vbas::Registry::builtIn().siteLocators[2].id)}));
}

TEST(Provider, MainJobDefaultsAreTheDocumentedOnes)
{
    // The recommended release: the most regions within a 1 % suppression budget, refined.
    EXPECT_EQ(choice("aggregateregions", "SITE_COUNT_METHOD")->ids(QVariant()),
              QStringList{"sitecount.suppression_budget"});
    EXPECT_EQ(choice("selectsites", "SITE_COUNT_METHOD")->ids(QVariant()),
              QStringList{"sitecount.suppression_budget"});
    EXPECT_EQ(choice("estimatesitecount", "SITE_COUNT_METHOD")->ids(QVariant()),
              QStringList{"sitecount.gaps_maxcombs"});
    EXPECT_EQ(parameter("aggregateregions", "SUPPRESSION_BUDGET")->defaultValue(), QVariant(1.0));
    EXPECT_EQ(parameter("aggregateregions", "REFINE_SUPPRESSION")->defaultValue(), QVariant(true));
    EXPECT_EQ(parameter("compareapproaches", "REFINE_SUPPRESSION")->defaultValue(), QVariant(false));
    // Region moves after the partition: on where the engine makes the whole release, off where the user
    // places the sites (and where they are selected for that) or compares methods.
    EXPECT_EQ(parameter("aggregateregions", "REFINE_BOUNDARIES")->defaultValue(), QVariant(true));
    EXPECT_EQ(parameter("selectsites", "REFINE_BOUNDARIES")->defaultValue(), QVariant(false));
    EXPECT_EQ(parameter("partitionregions", "REFINE_BOUNDARIES")->defaultValue(), QVariant(false));
    EXPECT_EQ(parameter("compareapproaches", "REFINE_BOUNDARIES")->defaultValue(), QVariant(false));
    EXPECT_EQ(choice("aggregateregions", "SITE_LOCATION")->ids(QVariant()),
              QStringList{"sitelocation.balanced_density"});
    EXPECT_EQ(choice("aggregateregions", "PARTITION")->ids(QVariant()), QStringList{"partition.voronoi"});
    EXPECT_EQ(choice("aggregateregions", "GAPS_MODEL")->ids(QVariant()), QStringList{"canada"});
    EXPECT_EQ(choice("aggregateregions", "REPRESENTATIVE_POINT")->ids(QVariant()), QStringList{"centroid"});
    EXPECT_EQ(choice("aggregateregions", "REPRESENTATIVE_POINT")->options(),
              (QStringList{"Centroid", "Point on surface"}));
    const QMap<QString, QVariant> defaults{
        {"K", 5}, {"ADC", false}, {"GLOBAL_SUPPRESSION", true}, {"SEED", 1}, {"KEEP_SUPPRESSED", false}};
    for (auto it = defaults.constBegin(); it != defaults.constEnd(); ++it)
        EXPECT_EQ(parameter("aggregateregions", it.key())->defaultValue(), it.value())
            << it.key().toStdString();
    for (const char* advanced :
         {"SEED", "GAPS_MODEL", "GAPS_C", "GAPS_B", "REPRESENTATIVE_POINT", "UNKNOWN_REGIONS"})
        EXPECT_TRUE(parameter("aggregateregions", advanced)->flags() & VbasCompat::ParameterFlagAdvanced)
            << advanced;
}

namespace
{
/** Checks the parameter of every option of `entries` on `algorithm`; returns how many it checked. */
template <typename Entry>
int expectOptionParameters(const QString& algorithm, const std::vector<Entry>& entries)
{
    int checked = 0;
    for (const Entry& entry : entries)
        for (const vbas::OptionSpec& spec : entry.options)
        {
            const QString name = QString::fromStdString(spec.key).toUpper();
            SCOPED_TRACE(entry.id + " " + name.toStdString());
            const QgsProcessingParameterDefinition* definition = parameter(algorithm, name);
            if (!definition)
                continue;
            ++checked;
            EXPECT_EQ(bool(definition->flags() & VbasCompat::ParameterFlagAdvanced), spec.advanced);
            switch (spec.type)
            {
            case vbas::OptionSpec::Type::Choice:
            {
                const auto* choice = dynamic_cast<const VbasChoiceParameter*>(definition);
                if (!choice)
                {
                    ADD_FAILURE() << "wrong parameter type";
                    continue;
                }
                EXPECT_TRUE(choice->usesStaticStrings()); // saved models store the text
                // Shown as words ("weighted_mean" as "Weighted mean"), taken by their values.
                for (const std::string& value : spec.choices)
                {
                    const QString id = QString::fromStdString(value);
                    QString shown = id;
                    shown.replace('_', ' ');
                    shown[0] = shown[0].toUpper();
                    EXPECT_TRUE(choice->options().contains(shown)) << shown.toStdString();
                    EXPECT_EQ(choice->ids(id), QStringList{id});
                    EXPECT_EQ(choice->ids(shown), QStringList{id});
                }
                EXPECT_EQ(choice->options().size(), int(spec.choices.size()));
                EXPECT_EQ(choice->ids(QVariant()), QStringList{QString::fromStdString(spec.defaultChoice)});
                break;
            }
            case vbas::OptionSpec::Type::Flag:
                EXPECT_TRUE(dynamic_cast<const QgsProcessingParameterBoolean*>(definition));
                EXPECT_EQ(definition->defaultValue().toBool(), spec.defaultValue != 0.0);
                break;
            case vbas::OptionSpec::Type::Integer:
            case vbas::OptionSpec::Type::Number:
            {
                const auto* number = dynamic_cast<const QgsProcessingParameterNumber*>(definition);
                if (!number)
                {
                    ADD_FAILURE() << "wrong parameter type";
                    continue;
                }
                EXPECT_EQ(number->dataType() == VbasCompat::NumberTypeInteger,
                          spec.type == vbas::OptionSpec::Type::Integer);
                EXPECT_EQ(number->defaultValue().toDouble(), spec.defaultValue);
                if (std::isfinite(spec.minimum))
                {
                    EXPECT_EQ(number->minimum(), spec.minimum);
                }
                if (std::isfinite(spec.maximum))
                {
                    EXPECT_EQ(number->maximum(), spec.maximum);
                }
                break;
            }
            }
        }
    return checked;
}
} // namespace

TEST(Provider, EveryStrategyOptionIsAParameterWithItsDeclaredDefault)
{
    const vbas::Registry& registry = vbas::Registry::builtIn();
    int checked = 0;
    checked += expectOptionParameters("aggregateregions", registry.siteCounters);
    checked += expectOptionParameters("aggregateregions", registry.siteLocators);
    checked += expectOptionParameters("aggregateregions", registry.siteRefiners);
    checked += expectOptionParameters("aggregateregions", registry.partitioners);
    checked += expectOptionParameters("aggregateregions", registry.boundaryRefiners);
    EXPECT_GT(checked, 0);
    const auto expectSwitches = [](const auto& entries, const std::string& recommended)
    {
        for (const auto& refiner : entries)
        {
            const auto* toggle = dynamic_cast<const QgsProcessingParameterBoolean*>(
                parameter("aggregateregions", QString::fromStdString(refiner.switchKey).toUpper()));
            ASSERT_TRUE(toggle) << refiner.id;
            EXPECT_EQ(toggle->defaultValue().toBool(), refiner.id == recommended) << refiner.id;
        }
    };
    expectSwitches(registry.siteRefiners, vbas::recommendedConfig().siteRefiner);
    expectSwitches(registry.boundaryRefiners, vbas::recommendedConfig().boundaryRefiner);
    // The same parameters where several strategies are compared.
    expectOptionParameters("compareapproaches", registry.siteCounters);
    expectOptionParameters("compareapproaches", registry.siteRefiners);
}

TEST(Provider, StrategyParametersKeepTheNamesAndDefaultsSavedModelsStore)
{
    // Built from the registry now: renaming an option key in the engine must not rename these.
    // Choices are shown by their words ("Canada") and keep taking the values models saved ("canada").
    const QMap<QString, QVariant> defaults{{"SITE_COUNT", 0},        {"SITE_COUNT_OFFSET", 0.0},
                                           {"GAPS_MODEL", "Canada"}, {"GAPS_C", 1588.0},
                                           {"GAPS_B", 0.42},         {"CELL_CENTRE", "Mean"},
                                           {"ADC", false},           {"ADC_MAX_MOVES", 0},
                                           {"ADC_MAX_SECONDS", 0.0}, {"SEED", 1}};
    for (auto it = defaults.constBegin(); it != defaults.constEnd(); ++it)
        for (const char* algorithm : {"aggregateregions", "compareapproaches", "selectsites"})
        {
            const QgsProcessingParameterDefinition* definition = parameter(algorithm, it.key());
            ASSERT_TRUE(definition) << algorithm << " " << it.key().toStdString();
            EXPECT_EQ(definition->defaultValue(), it.value()) << algorithm << " " << it.key().toStdString();
            // Among the advanced settings, but for a comparison's switch of what it also tries refined.
            const bool advanced = definition->flags() & VbasCompat::ParameterFlagAdvanced;
            EXPECT_EQ(advanced, it.key() != "ADC" || QLatin1String(algorithm) != "compareapproaches")
                << algorithm << " " << it.key().toStdString();
        }
    const VbasChoiceParameter* models = choice("aggregateregions", "GAPS_MODEL");
    ASSERT_TRUE(models);
    EXPECT_EQ(models->options(), (QStringList{"Western", "Central", "Eastern", "Canada", "Custom"}));
    const VbasChoiceParameter* centres = choice("aggregateregions", "CELL_CENTRE");
    ASSERT_TRUE(centres);
    EXPECT_EQ(centres->options(), (QStringList{"Mean", "Weighted mean", "Median"}));
    for (const char* saved : {"western", "central", "eastern", "canada", "custom"})
        EXPECT_TRUE(models->checkValueIsAcceptable(saved)) << saved;
    EXPECT_EQ(centres->ids("weighted_mean"), QStringList{"weighted_mean"});
}

TEST(Provider, EveryMetricIsANumericOutputOfTheReleases)
{
    for (const char* algorithm : {"aggregateregions", "partitionregions", "rateaggregation"})
    {
        const QgsProcessingAlgorithm* found =
            QgsApplication::processingRegistry()->algorithmById(QStringLiteral("vbas:") + algorithm);
        ASSERT_TRUE(found);
        for (const vbas::MetricEntry& metric : vbas::Registry::builtIn().metrics)
        {
            const QString name = QString::fromStdString(metric.id).section('.', -1).toUpper();
            const QgsProcessingOutputDefinition* output = found->outputDefinition(name);
            ASSERT_TRUE(output) << algorithm << " " << name.toStdString();
            EXPECT_EQ(output->type(), QgsProcessingOutputNumber::typeName());
        }
    }
}

TEST(Registration, SecondRegistrationNeitherAddsNorRemovesTheProvider)
{
    QgsProcessingProvider* registered = vbasProvider();
    ASSERT_TRUE(registered);
    VbasProviderRegistration second;
    EXPECT_FALSE(second.registerProvider());
    second.unregisterProvider();
    EXPECT_EQ(vbasProvider(), registered);
}

TEST(Registration, RemovesOnlyTheProviderItAdded)
{
    ASSERT_TRUE(QgsApplication::processingRegistry()->removeProvider(QStringLiteral("vbas")));
    VbasProviderRegistration owner;
    EXPECT_TRUE(owner.registerProvider());
    EXPECT_TRUE(vbasProvider());
    EXPECT_TRUE(QgsApplication::processingRegistry()->algorithmById(QStringLiteral("vbas:checkanonymity")));
    owner.unregisterProvider();
    EXPECT_FALSE(vbasProvider());
    owner.unregisterProvider(); // twice is harmless

    VbasProviderRegistration restore; // later tests in this process expect the provider
    EXPECT_TRUE(restore.registerProvider());
}

TEST(Provider, EveryAlgorithmHasAShortDescriptionAndAHelpPageOfItsParameters)
{
    const QgsProcessingProvider* provider = vbasProvider();
    ASSERT_TRUE(provider);
    for (const QgsProcessingAlgorithm* algorithm : provider->algorithms())
    {
        SCOPED_TRACE(algorithm->id().toStdString());
        EXPECT_FALSE(algorithm->shortDescription().isEmpty());
        EXPECT_LT(algorithm->shortDescription().size(), 140) << "one line in the Toolbox";
        const QUrl url(algorithm->helpUrl());
        ASSERT_TRUE(url.isLocalFile()) << algorithm->helpUrl().toStdString();
        QFile page(url.toLocalFile());
        ASSERT_TRUE(page.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(page.readAll());
        for (const QgsProcessingParameterDefinition* definition : algorithm->parameterDefinitions())
            EXPECT_TRUE(html.contains(QStringLiteral("<code>%1</code>").arg(definition->name())))
                << definition->name().toStdString();
        for (const QgsProcessingOutputDefinition* output : algorithm->outputDefinitions())
            EXPECT_TRUE(html.contains(QStringLiteral("<code>%1</code>").arg(output->name())))
                << output->name().toStdString();
        // What to tick in desktop QGIS and what to enable for qgis_process.
        EXPECT_TRUE(
            html.contains(QStringLiteral("tick <i>%1</i> in <i>Plugins &gt; Manage and Install Plugins</i>")
                              .arg(provider->name().toHtmlEscaped())));
        EXPECT_TRUE(html.contains("qgis_process plugins enable vbas_processing"));
    }
    // A choice's page names its strategies in a user's words: their names, not their ids.
    QFile aggregate(QUrl(parameter("aggregateregions", "K")->algorithm()->helpUrl()).toLocalFile());
    ASSERT_TRUE(aggregate.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(aggregate.readAll());
    for (const auto& entry : vbas::Registry::builtIn().siteCounters)
    {
        EXPECT_TRUE(html.contains(QString::fromStdString(entry.name).toHtmlEscaped())) << entry.id;
        EXPECT_FALSE(html.contains(QString::fromStdString(entry.id))) << entry.id;
    }
    EXPECT_FALSE(html.contains("SPEC")) << "no references to our own documents";
}

TEST(Provider, StrategyOptionsAndSwitchesAreOptionalWithTheirDefaults)
{
    // QGIS 3.22 refuses a saved model whose step lacks a mandatory parameter, even one with a default: the
    // parameters a new strategy brings must be optional, or every model saved before it would break.
    const vbas::Registry& registry = vbas::Registry::builtIn();
    int checked = 0;
    const auto expectOptional = [&](const std::string& key)
    {
        const QgsProcessingParameterDefinition* definition =
            parameter("aggregateregions", QString::fromStdString(key).toUpper());
        if (!definition)
            return;
        ++checked;
        EXPECT_TRUE(definition->flags() & VbasCompat::ParameterFlagOptional) << key;
        EXPECT_TRUE(definition->defaultValue().isValid()) << key;
    };
    const auto visit = [&](const auto& entries)
    {
        for (const auto& entry : entries)
        {
            for (const vbas::OptionSpec& spec : entry.options)
                expectOptional(spec.key);
            if (!entry.switchKey.empty())
                expectOptional(entry.switchKey);
        }
    };
    visit(registry.siteCounters);
    visit(registry.siteLocators);
    visit(registry.siteRefiners);
    visit(registry.partitioners);
    visit(registry.boundaryRefiners);
    visit(registry.suppressors);
    EXPECT_GE(checked, 10);
}
