#include "vbascommandline.h"

#include <QObject>

namespace
{
/** Adds `NAME=VALUE` to the parameters; returns false when there is no NAME or no '='. */
bool addParameter(const QString& assignment, QMap<QString, QStringList>& parameters)
{
    const auto equals = assignment.indexOf('=');
    if (equals <= 0)
        return false;
    parameters[assignment.left(equals)].append(assignment.mid(equals + 1));
    return true;
}
} // namespace

bool VbasCommandLine::parse(const QStringList& arguments, VbasCommandLine& commandLine, QString& error)
{
    commandLine = VbasCommandLine();
    QStringList positional;
    bool afterSeparator = false;
    for (const QString& argument : arguments)
    {
        if (afterSeparator)
        {
            if (!addParameter(argument, commandLine.parameters))
            {
                error = QObject::tr("'%1' after '--' is not of the form NAME=VALUE").arg(argument);
                return false;
            }
        }
        else if (argument == QLatin1String("--"))
            afterSeparator = true;
        else if (argument == QLatin1String("--json"))
            commandLine.json = true;
        else if (argument == QLatin1String("--help") || argument == QLatin1String("-h"))
            return true; // no command: usage
        else if (argument.startsWith(QLatin1String("--")))
        {
            if (!addParameter(argument.mid(2), commandLine.parameters))
            {
                error = QObject::tr("'%1' is not of the form --NAME=VALUE").arg(argument);
                return false;
            }
        }
        else if (positional.size() >= 2 && argument.contains('='))
            addParameter(argument, commandLine.parameters); // qgis_process also takes NAME=VALUE bare
        else
            positional.append(argument);
    }

    commandLine.command = positional.value(0);
    commandLine.algorithmId = positional.value(1);
    const int expectedPositional = commandLine.command == QLatin1String("list") ? 1 : 2;
    if (commandLine.command.isEmpty())
        return true;
    if (commandLine.command != QLatin1String("list") && commandLine.command != QLatin1String("help") &&
        commandLine.command != QLatin1String("run"))
        error = QObject::tr("unknown command '%1'; use list, help or run").arg(commandLine.command);
    else if (positional.size() < expectedPositional)
        error =
            QObject::tr("'%1' needs an algorithm id, such as vbas:checkanonymity").arg(commandLine.command);
    else if (positional.size() > expectedPositional)
        error = QObject::tr("unexpected argument '%1'; parameters are written --NAME=VALUE")
                    .arg(positional.at(expectedPositional));
    else if (commandLine.command != QLatin1String("run") && !commandLine.parameters.isEmpty())
        error = QObject::tr("'%1' takes no parameters").arg(commandLine.command);
    return error.isEmpty();
}

QString VbasCommandLine::usage()
{
    return QObject::tr(
        "Usage: vbas_process [--json] COMMAND ...\n"
        "Runs QGIS Processing algorithms (the native ones and VBAS) without a display, in a throw-away\n"
        "profile; the syntax is that of qgis_process.\n\n"
        "  vbas_process list                       lists the algorithms\n"
        "  vbas_process help ALGORITHM             describes an algorithm's parameters and outputs\n"
        "  vbas_process run ALGORITHM --NAME=VALUE ...\n"
        "  vbas_process run ALGORITHM -- NAME=VALUE ...\n"
        "                                          runs an algorithm; give a parameter several times\n"
        "                                          for several values (--FIELDS=a --FIELDS=b)\n"
        "  --json                                  prints the run (inputs, results, log) as JSON\n\n"
        "Example:\n"
        "  vbas_process run vbas:checkanonymity --INPUT=released.csv --REGION_FIELD=region \\\n"
        "      --QUASI_IDENTIFIERS=age_group --QUASI_IDENTIFIERS=sex --K=5 --OUTPUT=violations.csv\n");
}
