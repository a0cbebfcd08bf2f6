// vbas_process: qgis_process for VBAS without Python, a display or the user's QGIS profile.

#include "vbascommandline.h"
#include "vbasheadlesssession.h"
#include "vbasprocesscommands.h"
#include "vbasproviderlibrary.h"

#include <clocale>
#include <iostream>

int main(int argc, char* argv[])
{
    // Decode arguments (file names) in the user's locale before QGIS starts, as Qt would after.
    std::setlocale(LC_ALL, "");
    QStringList arguments;
    for (int i = 1; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));

    VbasCommandLine commandLine;
    QString error;
    if (!VbasCommandLine::parse(arguments, commandLine, error))
    {
        std::cerr << "ERROR:\t" << error.toStdString() << "\n\n" << VbasCommandLine::usage().toStdString();
        return 2;
    }
    if (commandLine.command.isEmpty())
    {
        std::cout << VbasCommandLine::usage().toStdString();
        return 0;
    }

    const VbasHeadlessSession session(argc, argv, vbas_register_provider);
    if (commandLine.command == QLatin1String("list"))
        return vbasListAlgorithms(commandLine);
    if (commandLine.command == QLatin1String("help"))
        return vbasShowHelp(commandLine);
    return vbasRunAlgorithm(commandLine);
}
