// vbas_process's command line, in qgis_process syntax.

#include "vbascommandline.h"

#include <gtest/gtest.h>

namespace
{
VbasCommandLine parsed(const QStringList& arguments)
{
    VbasCommandLine commandLine;
    QString error;
    EXPECT_TRUE(VbasCommandLine::parse(arguments, commandLine, error)) << error.toStdString();
    return commandLine;
}

std::string parseError(const QStringList& arguments)
{
    VbasCommandLine commandLine;
    QString error;
    EXPECT_FALSE(VbasCommandLine::parse(arguments, commandLine, error));
    return error.toStdString();
}
} // namespace

TEST(CommandLine, DashedParametersRepeatIntoLists)
{
    const VbasCommandLine commandLine = parsed({"run", "vbas:checkanonymity", "--INPUT=a.csv",
                                                "--QUASI_IDENTIFIERS=age", "--QUASI_IDENTIFIERS=sex"});
    EXPECT_EQ(commandLine.command, "run");
    EXPECT_EQ(commandLine.algorithmId, "vbas:checkanonymity");
    EXPECT_FALSE(commandLine.json);
    EXPECT_EQ(commandLine.parameters.value("INPUT"), QStringList{"a.csv"});
    EXPECT_EQ(commandLine.parameters.value("QUASI_IDENTIFIERS"), (QStringList{"age", "sex"}));
    EXPECT_EQ(commandLine.parameters.size(), 2);
}

TEST(CommandLine, ParametersAfterSeparatorKeepLaterEqualsSigns)
{
    const VbasCommandLine commandLine =
        parsed({"--json", "run", "alg", "--", "EXPRESSION=a=b", "K=3", "K=4"});
    EXPECT_TRUE(commandLine.json);
    EXPECT_EQ(commandLine.parameters.value("EXPRESSION"), QStringList{"a=b"});
    EXPECT_EQ(commandLine.parameters.value("K"), (QStringList{"3", "4"}));
}

TEST(CommandLine, BareParametersAfterTheAlgorithmAreAccepted)
{
    EXPECT_EQ(parsed({"run", "alg", "K=3"}).parameters.value("K"), QStringList{"3"});
}

TEST(CommandLine, NoCommandOrHelpMeansUsage)
{
    EXPECT_TRUE(parsed({}).command.isEmpty());
    EXPECT_TRUE(parsed({"list", "--help"}).command.isEmpty());
    EXPECT_EQ(parsed({"list"}).command, "list");
    EXPECT_EQ(parsed({"help", "vbas:checkanonymity"}).algorithmId, "vbas:checkanonymity");
}

TEST(CommandLine, MalformedArgumentsAreRejected)
{
    EXPECT_EQ(parseError({"frobnicate"}), "unknown command 'frobnicate'; use list, help or run");
    EXPECT_EQ(parseError({"run"}), "'run' needs an algorithm id, such as vbas:checkanonymity");
    EXPECT_EQ(parseError({"list", "extra"}),
              "unexpected argument 'extra'; parameters are written --NAME=VALUE");
    EXPECT_EQ(parseError({"run", "alg", "--K"}), "'--K' is not of the form --NAME=VALUE");
    EXPECT_EQ(parseError({"run", "alg", "--", "K"}), "'K' after '--' is not of the form NAME=VALUE");
    EXPECT_EQ(parseError({"help", "alg", "--K=3"}), "'help' takes no parameters");
}
