#include "vbasprocesscommands.h"

#include "vbascommandline.h"
#include "vbasconsolefeedback.h"
#include "vbasqgiscompat.h"

#include <qgsapplication.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingoutputs.h>
#include <qgsprocessingprovider.h>
#include <qgsprocessingregistry.h>
#include <qgsproject.h>

#include <QJsonDocument>
#include <QJsonObject>

#include <iostream>
#include <memory>

namespace
{
int fail(const QString& message)
{
    std::cerr << "ERROR:\t" << message.toStdString() << '\n';
    return 1;
}

void printJson(const QVariantMap& map)
{
    std::cout << QJsonDocument(QJsonObject::fromVariantMap(map)).toJson().toStdString();
}

/** Returns the parameters of the command line as Processing takes them: one value, or a list of several. */
QVariantMap toParameters(const VbasCommandLine& commandLine)
{
    QVariantMap parameters;
    for (auto it = commandLine.parameters.constBegin(); it != commandLine.parameters.constEnd(); ++it)
        parameters.insert(it.key(),
                          it.value().size() == 1 ? QVariant(it.value().constFirst()) : QVariant(it.value()));
    return parameters;
}

/** Returns what is wrong with the parameter names (unknown, missing mandatory ones), empty when nothing. */
QStringList parameterNameProblems(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters)
{
    QStringList problems;
    for (const QString& name : parameters.keys())
    {
        if (!algorithm.parameterDefinition(name))
            problems << QObject::tr("%1 has no parameter %2 (see: vbas_process help %1)")
                            .arg(algorithm.id(), name);
    }
    for (const QgsProcessingParameterDefinition* definition : algorithm.parameterDefinitions())
    {
        if (!(definition->flags() & VbasCompat::ParameterFlagOptional) &&
            !parameters.contains(definition->name()) && !definition->defaultValue().isValid())
            problems << QObject::tr("the mandatory parameter %1 (%2) is missing")
                            .arg(definition->name(), definition->description());
    }
    return problems;
}
} // namespace

int vbasListAlgorithms(const VbasCommandLine& commandLine)
{
    QVariantMap json;
    for (const QgsProcessingProvider* provider : QgsApplication::processingRegistry()->providers())
    {
        if (!commandLine.json)
            std::cout << provider->name().toStdString() << '\n';
        for (const QgsProcessingAlgorithm* algorithm : provider->algorithms())
        {
            if (commandLine.json)
                json.insert(algorithm->id(), QVariantMap{{QStringLiteral("name"), algorithm->displayName()},
                                                         {QStringLiteral("provider"), provider->id()},
                                                         {QStringLiteral("group"), algorithm->group()}});
            else
                std::cout << '\t' << algorithm->id().toStdString() << '\t'
                          << algorithm->displayName().toStdString() << '\n';
        }
    }
    if (commandLine.json)
        printJson({{QStringLiteral("algorithms"), json}});
    return 0;
}

int vbasShowHelp(const VbasCommandLine& commandLine)
{
    const QgsProcessingAlgorithm* algorithm =
        QgsApplication::processingRegistry()->algorithmById(commandLine.algorithmId);
    if (!algorithm)
        return fail(QObject::tr("no algorithm '%1' (see: vbas_process list)").arg(commandLine.algorithmId));
    std::cout << algorithm->id().toStdString() << " - " << algorithm->displayName().toStdString() << "\n\n"
              << algorithm->shortHelpString().toStdString() << "\n\nParameters\n";
    for (const QgsProcessingParameterDefinition* definition : algorithm->parameterDefinitions())
    {
        if (definition->flags() & VbasCompat::ParameterFlagHidden)
            continue;
        QStringList traits{definition->type()};
        if (definition->flags() & VbasCompat::ParameterFlagOptional)
            traits << QObject::tr("optional");
        if (definition->defaultValue().isValid())
            traits << QObject::tr("default %1").arg(definition->defaultValue().toString());
        if (const auto* choices = dynamic_cast<const QgsProcessingParameterEnum*>(definition))
        {
            QStringList numbered;
            for (int i = 0; i < choices->options().size(); ++i)
                numbered << QStringLiteral("%1 %2").arg(i).arg(choices->options().at(i));
            traits << QObject::tr("choices (by name or number) %1").arg(numbered.join(QStringLiteral(", ")));
        }
        std::cout << "  " << definition->name().toStdString() << ": "
                  << definition->description().toStdString() << " ["
                  << traits.join(QStringLiteral("; ")).toStdString() << "]\n";
    }
    std::cout << "\nOutputs\n";
    for (const QgsProcessingOutputDefinition* output : algorithm->outputDefinitions())
        std::cout << "  " << output->name().toStdString() << ": " << output->description().toStdString()
                  << " [" << output->type().toStdString() << "]\n";
    return 0;
}

int vbasRunAlgorithm(const VbasCommandLine& commandLine)
{
    const std::unique_ptr<QgsProcessingAlgorithm> algorithm(
        QgsApplication::processingRegistry()->createAlgorithmById(commandLine.algorithmId));
    if (!algorithm)
        return fail(QObject::tr("no algorithm '%1' (see: vbas_process list)").arg(commandLine.algorithmId));
    const QVariantMap parameters = toParameters(commandLine);
    const QStringList problems = parameterNameProblems(*algorithm, parameters);
    if (!problems.isEmpty())
        return fail(problems.join(QStringLiteral("\n\t")));

    QgsProcessingContext context;
    context.setProject(QgsProject::instance());
    QString invalid;
    if (!algorithm->checkParameterValues(parameters, context, &invalid))
        return fail(QObject::tr("%1 (see: vbas_process help %2)").arg(invalid, algorithm->id()));

    VbasConsoleFeedback feedback(commandLine.json);
    bool ok = false;
    const QVariantMap results = algorithm->run(parameters, context, &feedback, &ok);
    if (commandLine.json)
    {
        QVariantMap report{{QStringLiteral("algorithm_details"),
                            QVariantMap{{QStringLiteral("id"), algorithm->id()},
                                        {QStringLiteral("name"), algorithm->displayName()}}},
                           {QStringLiteral("inputs"), parameters},
                           {QStringLiteral("log"), feedback.jsonLog()}};
        if (ok)
            report.insert(QStringLiteral("results"), results);
        printJson(report);
    }
    else if (ok)
    {
        for (auto it = results.constBegin(); it != results.constEnd(); ++it)
            std::cout << it.key().toStdString() << ":\t" << it.value().toString().toStdString() << '\n';
    }
    return ok ? 0 : 1;
}
