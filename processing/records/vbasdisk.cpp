#include "vbasdisk.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QStringList>

#include <sys/resource.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

QString VbasDisk::writeTrouble(const QString& file)
{
    const QFileInfo info(file);
    struct statvfs system
    {
    };
    if (::statvfs(QFile::encodeName(info.absolutePath()).constData(), &system) == 0)
    {
        if ((system.f_flag & ST_RDONLY) != 0)
            return QString::fromLocal8Bit(std::strerror(EROFS));
        // A write fails short of the last block: say "full" below a mebibyte.
        const auto free = qint64(system.f_bavail) * qint64(system.f_frsize);
        if (free < (qint64(1) << 20))
            return QObject::tr("%1: %2 KiB free")
                .arg(QString::fromLocal8Bit(std::strerror(ENOSPC)))
                .arg(free / 1024);
    }
    struct rlimit limit
    {
    };
    if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        return QObject::tr("%1: this process may write files of at most %2 bytes, and the file holds %3")
            .arg(QString::fromLocal8Bit(std::strerror(EFBIG)))
            .arg(qulonglong(limit.rlim_cur))
            .arg(info.exists() ? info.size() : 0);
    return QString();
}

QString VbasDisk::reason(const QString& writerReason, const QString& file)
{
    QStringList reasons;
    const QString trouble = writeTrouble(file);
    // The writer's reason once: the system's often starts with it ("File too large").
    if (!writerReason.trimmed().isEmpty() && !trouble.startsWith(writerReason.trimmed()))
        reasons << writerReason.trimmed();
    if (!trouble.isEmpty())
        reasons << trouble;
    return reasons.isEmpty() ? QObject::tr("the writer gave no reason") : reasons.join(QStringLiteral("; "));
}
