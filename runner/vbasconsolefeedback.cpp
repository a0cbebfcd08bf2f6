#include "vbasconsolefeedback.h"

#include <iostream>

VbasConsoleFeedback::VbasConsoleFeedback(bool json)
    : mJson(json)
{
}

void VbasConsoleFeedback::reportError(const QString& error, bool fatalError)
{
    std::cerr << "ERROR:\t" << error.toStdString() << '\n';
    keep(QStringLiteral("errors"), error);
    QgsProcessingFeedback::reportError(error, fatalError);
}

void VbasConsoleFeedback::pushWarning(const QString& warning)
{
    show(QStringLiteral("warning"), QStringLiteral("WARNING:\t"), warning);
    QgsProcessingFeedback::pushWarning(warning);
}

void VbasConsoleFeedback::pushInfo(const QString& info)
{
    show(QStringLiteral("info"), QString(), info);
    QgsProcessingFeedback::pushInfo(info);
}

void VbasConsoleFeedback::pushCommandInfo(const QString& info)
{
    show(QStringLiteral("info"), QString(), info);
    QgsProcessingFeedback::pushCommandInfo(info);
}

void VbasConsoleFeedback::pushConsoleInfo(const QString& info)
{
    show(QStringLiteral("info"), QString(), info);
    QgsProcessingFeedback::pushConsoleInfo(info);
}

void VbasConsoleFeedback::show(const QString& kind, const QString& prefix, const QString& message)
{
    if (!mJson)
        std::cout << prefix.toStdString() << message.toStdString() << '\n';
    keep(kind, message);
}

void VbasConsoleFeedback::keep(const QString& kind, const QString& message)
{
    QStringList messages = mJsonLog.value(kind).toStringList();
    messages.append(message);
    mJsonLog.insert(kind, messages);
}
