#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

/**
 * The command line of vbas_process, in qgis_process syntax:
 *   vbas_process [--json] list
 *   vbas_process [--json] help ALGORITHM
 *   vbas_process [--json] run ALGORITHM [--NAME=VALUE]... [-- NAME=VALUE...]
 * A parameter given several times takes all its values in order (multiple fields, layers...).
 */
struct VbasCommandLine
{
    QString command;                       //!< list, help, run; empty: show the usage
    QString algorithmId;                   //!< for help and run
    QMap<QString, QStringList> parameters; //!< name -> values, in command-line order
    bool json = false;

    /** Parses arguments without the program name; returns false and sets `error` when they are malformed. */
    static bool parse(const QStringList& arguments, VbasCommandLine& commandLine, QString& error);
    /** Returns the usage text. */
    static QString usage();
};
