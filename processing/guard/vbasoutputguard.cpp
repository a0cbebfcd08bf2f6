#include "vbasoutputguard.h"

#include "vbasdisk.h"
#include "vbasoutputs.h"
#include "vbasparameters.h"
#include "vbasrecordstorage.h"
#include "vbasstopsignals.h"

#include <qgsdatasourceuri.h>
#include <qgsmaplayer.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingcontext.h>
#include <qgsprocessingfeedback.h>
#include <qgsprocessingparameters.h>
#include <qgsprocessingprovider.h>
#include <qgsproviderregistry.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTemporaryFile>

#include <cpl_error.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_recordbatch.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

namespace
{
const QString kStagingPrefix = QStringLiteral(".vbas-staging-");
const QString kFolderLock = QStringLiteral(".vbas-release.lock");
const QString kRunLock = QStringLiteral("run.lock");
const QString kJournal = QStringLiteral("journal");
const QString kNew = QStringLiteral("new");
const QString kOld = QStringLiteral("old");
/** Files a shapefile writer creates next to the .shp. */
const QStringList kShapefileSidecars{"shx", "dbf", "prj", "cpg", "qix", "sbn", "sbx", "qmd"};
/** Files SQLite keeps next to a database; a stale one next to a new GeoPackage would corrupt it. */
const QStringList kSqliteSidecars{"-wal", "-shm", "-journal"};
/** Parameter types whose values are layers read by the algorithm. */
const QStringList kLayerParameterTypes{"source", "vector", "raster", "layer", "multilayer"};
/** What a GeoPackage layer for review only says of itself (gpkg_contents.description), for whoever opens it.
 */
const char* const kReviewDescription = "VBAS: for the custodian's review only, never to publish";

/** A file, and the layer inside it (empty: the whole file). */
struct LayerFile
{
    QString path;
    QString layer;
    bool ogrUri = false; //!< given as "ogr:..." rather than as a path
};

bool sameFile(const LayerFile& a, const LayerFile& b)
{
    return QFileInfo(a.path).absoluteFilePath() == QFileInfo(b.path).absoluteFilePath() &&
           (a.layer.isEmpty() || b.layer.isEmpty() || a.layer.compare(b.layer, Qt::CaseInsensitive) == 0);
}

/** Returns the text of a parameter value that may be a property or an output layer definition. */
QString valueText(QVariant value, QgsProcessingContext& context)
{
    if (value.userType() == qMetaTypeId<QgsProcessingOutputLayerDefinition>())
        value = value.value<QgsProcessingOutputLayerDefinition>().sink;
    else if (value.userType() == qMetaTypeId<QgsProcessingFeatureSourceDefinition>())
        value = value.value<QgsProcessingFeatureSourceDefinition>().source;
    if (value.userType() == qMetaTypeId<QgsProperty>())
        return value.value<QgsProperty>().valueAsString(context.expressionContext());
    return value.toString().trimmed();
}

/**
 * Returns the file the destination parameter `definition` writes for `text`, read the way QGIS reads
 * it (QgsProcessingUtils::createFeatureSink): "ogr:dbname='file' table=..." is a layer in a file, another
 * "provider:uri" no file at all, a plain path a file (a GeoPackage when its extension names no format).
 */
std::optional<LayerFile> destinationFile(const QgsProcessingAlgorithm& algorithm,
                                         const QgsProcessingParameterDefinition& definition,
                                         const QString& text)
{
    if (text.isEmpty() || text == QgsProcessing::TEMPORARY_OUTPUT)
        return std::nullopt;
    if (definition.type() == QgsProcessingParameterFileDestination::typeName())
        return LayerFile{text, QString()};
    static const QRegularExpression providerUri(QStringLiteral("^(.{3,}?):(.*)$"));
    const QRegularExpressionMatch match = providerUri.match(text);
    if (match.hasMatch())
    {
        if (match.captured(1) != QLatin1String("ogr"))
            return std::nullopt;
        const QgsDataSourceUri uri(match.captured(2));
        return uri.database().isEmpty() ? LayerFile{match.captured(2), QString(), true}
                                        : LayerFile{uri.database(), uri.table(), true};
    }
    const QgsProcessingProvider* provider = algorithm.provider();
    if (provider != nullptr && !provider->supportedOutputVectorLayerExtensions().contains(
                                   QFileInfo(text).suffix(), Qt::CaseInsensitive))
        return LayerFile{text + QStringLiteral(".gpkg"), QString()};
    return LayerFile{text, QString()};
}

/** Returns the files of the layers the algorithm reads, with the parameter that names each. */
std::vector<std::pair<QString, LayerFile>> inputFiles(const QgsProcessingAlgorithm& algorithm,
                                                      const QVariantMap& parameters,
                                                      QgsProcessingContext& context)
{
    std::vector<std::pair<QString, LayerFile>> files;
    for (const QgsProcessingParameterDefinition* definition : algorithm.parameterDefinitions())
    {
        if (!kLayerParameterTypes.contains(definition->type()) || !parameters.contains(definition->name()))
            continue;
        QVariant value = parameters.value(definition->name());
        if (value.userType() == qMetaTypeId<QgsProcessingFeatureSourceDefinition>())
            value = valueText(value, context);
        for (const QgsMapLayer* layer :
             QgsProcessingParameters::parameterAsLayerList(definition, value, context))
        {
            const QVariantMap parts =
                QgsProviderRegistry::instance()->decodeUri(layer->providerType(), layer->source());
            const QString path = parts.value(QStringLiteral("path")).toString();
            if (!path.isEmpty())
                files.push_back(
                    {definition->name(), {path, parts.value(QStringLiteral("layerName")).toString()}});
        }
    }
    return files;
}

QByteArray fileSystemPath(const QString& path)
{
    return QFile::encodeName(path);
}

/** A layer of a vector file that is already there. */
struct ExistingLayer
{
    QString name;
    /** Why it is for review only (its mark, or a field only review outputs carry); empty when it is not. */
    QString forReview;
};

/** Returns the layers of the vector file `path`; none when GDAL cannot open it. */
std::vector<ExistingLayer> existingLayers(const QString& path)
{
    std::vector<ExistingLayer> layers;
    const VbasQuietGdal quiet;
    GDALDatasetH dataset = GDALOpenEx(fileSystemPath(path).constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY,
                                      nullptr, nullptr, nullptr);
    if (!dataset)
        return layers;
    const QStringList reviewFields = VbasOutputs::reviewOnlyFields();
    for (int i = 0; i < GDALDatasetGetLayerCount(dataset); ++i)
    {
        OGRLayerH layer = GDALDatasetGetLayer(dataset, i);
        ExistingLayer existing{QString::fromUtf8(OGR_L_GetName(layer)), QString()};
        const char* description = GDALGetMetadataItem(layer, "DESCRIPTION", nullptr);
        if (description != nullptr && std::strcmp(description, kReviewDescription) == 0)
            existing.forReview = QObject::tr("it is marked so");
        OGRFeatureDefnH definition = OGR_L_GetLayerDefn(layer);
        for (int f = 0; f < OGR_FD_GetFieldCount(definition) && existing.forReview.isEmpty(); ++f)
        {
            const QString field = QString::fromUtf8(OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(definition, f)));
            if (reviewFields.contains(field, Qt::CaseInsensitive))
                existing.forReview = QObject::tr("its field %1 is for review only").arg(field);
        }
        layers.push_back(existing);
    }
    GDALClose(dataset);
    return layers;
}

/** Marks `layer` (every layer when empty) of the GeoPackage `path` for review only; nothing for other files.
 */
void markLayersForReview(const QString& path, const QString& layer)
{
    static const char* const kGeoPackage[] = {"GPKG", nullptr};
    const VbasQuietGdal quiet;
    GDALDatasetH dataset = GDALOpenEx(fileSystemPath(path).constData(), GDAL_OF_VECTOR | GDAL_OF_UPDATE,
                                      kGeoPackage, nullptr, nullptr);
    if (!dataset)
        return;
    for (int i = 0; i < GDALDatasetGetLayerCount(dataset); ++i)
    {
        OGRLayerH found = GDALDatasetGetLayer(dataset, i);
        if (layer.isEmpty() ||
            layer.compare(QString::fromUtf8(OGR_L_GetName(found)), Qt::CaseInsensitive) == 0)
            GDALSetMetadataItem(found, "DESCRIPTION", kReviewDescription, nullptr);
    }
    GDALClose(dataset);
}

/** Returns the tables of a VBAS release ledger that the SQLite or GeoPackage file `path` holds. */
QStringList ledgerTables(const QString& path)
{
    static const char* const kSqlite[] = {"GPKG", "SQLite", nullptr};
    QStringList tables;
    const VbasQuietGdal quiet;
    GDALDatasetH dataset = GDALOpenEx(fileSystemPath(path).constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY,
                                      kSqlite, nullptr, nullptr);
    if (!dataset)
        return tables;
    if (OGRLayerH found = GDALDatasetExecuteSQL(dataset,
                                                "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                                "name LIKE 'vbas\\_release\\_ledger%' ESCAPE '\\'",
                                                nullptr, nullptr))
    {
        while (OGRFeatureH table = OGR_L_GetNextFeature(found))
        {
            tables << QString::fromUtf8(OGR_F_GetFieldAsString(table, 0));
            OGR_F_Destroy(table);
        }
        GDALDatasetReleaseResultSet(dataset, found);
    }
    GDALClose(dataset);
    return tables;
}

/** Returns the path `path` names, the same for two names of one file (links followed where it exists). */
QString fileKey(const QString& path)
{
    const QFileInfo file(path);
    return file.exists() ? file.canonicalFilePath() : file.absoluteFilePath();
}

/** Flushes a file or folder to disk, so that a rename after it never exposes unwritten data. */
void syncPath(const QString& path)
{
    const int fd = ::open(fileSystemPath(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ::fsync(fd);
    ::close(fd);
}

/**
 * An exclusive flock() on a file. The folder lock is deleted when released, so that no lock file stays
 * in the user's folder; a run that locked a file deleted meanwhile notices it and locks the new one.
 */
class FileLock
{
public:
    FileLock() = default;
    ~FileLock() { release(); }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

    /** Locks `path`, creating it, waiting for other holders; false (errno set) when it cannot. */
    bool lockFolder(const QString& path)
    {
        mPath = path;
        mRemove = true;
        for (;;)
        {
            // Made, locked and known to the stop signals at once, so that a stopped process leaves no lock
            // file behind; a lock somebody holds is waited for apart, and is not ours to remove meanwhile.
            auto holdOff = VbasStopSignals::holdOff();
            mFd = ::open(fileSystemPath(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
            if (mFd < 0)
                return false;
            int locked = ::flock(mFd, LOCK_EX | LOCK_NB);
            if (locked != 0 && errno == EWOULDBLOCK)
            {
                holdOff.unlock();
                do
                    locked = ::flock(mFd, LOCK_EX);
                while (locked != 0 && errno == EINTR);
                holdOff.lock();
            }
            struct stat held, named;
            if (locked == 0 && ::fstat(mFd, &held) == 0 &&
                ::stat(fileSystemPath(path).constData(), &named) == 0 && held.st_ino == named.st_ino &&
                held.st_dev == named.st_dev)
            {
                VbasStopSignals::removeOnStop(mPath);
                return true;
            }
            ::close(mFd); // the holder before us deleted it: lock the one there now
            mFd = -1;
            if (locked != 0)
                return false;
        }
    }

    /** Locks the existing file `path` if nobody holds it; false when somebody does or it cannot be opened. */
    bool tryLock(const QString& path, bool create)
    {
        mPath = path;
        mRemove = false;
        mFd = ::open(fileSystemPath(path).constData(), O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
        if (mFd >= 0 && ::flock(mFd, LOCK_EX | LOCK_NB) == 0)
            return true;
        release();
        return false;
    }

    void release()
    {
        if (mFd < 0)
            return;
        const auto holdOff = VbasStopSignals::holdOff(); // gone and forgotten at once
        if (mRemove)
        {
            ::unlink(fileSystemPath(mPath).constData());
            VbasStopSignals::forget(mPath);
        }
        ::close(mFd);
        mFd = -1;
    }

private:
    QString mPath;
    int mFd = -1;
    bool mRemove = false;
};

/** Returns the files of a folder, hidden ones included. */
QStringList fileNames(const QString& folder)
{
    return QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System);
}

/** Renames `from` to `to` (replacing it); throws a message naming both when it cannot. */
void renameFile(const QString& from, const QString& to)
{
    if (::rename(fileSystemPath(from).constData(), fileSystemPath(to).constData()) != 0)
        throw QgsProcessingException(QObject::tr("cannot move %1 to %2 (%3)")
                                         .arg(QDir::toNativeSeparators(from), QDir::toNativeSeparators(to),
                                              QString::fromLocal8Bit(std::strerror(errno))));
}

/**
 * Completes the commit journaled in the staging folder `staging` of `folder`: moves the files listed as
 * aside into its old/ and the staged files of its new/ into `folder`. Every step can be repeated, so a
 * commit killed half-way is completed by running this again. Call it holding the folder lock.
 */
void rollForward(const QString& folder, const QString& staging)
{
    QFile journal(QDir(staging).filePath(kJournal));
    if (!journal.open(QIODevice::ReadOnly))
        return;
    const QStringList lines = QString::fromUtf8(journal.readAll()).split('\n', Qt::SkipEmptyParts);
    const QDir target(folder);
    const QDir staged(QDir(staging).filePath(kNew));
    const QDir old(QDir(staging).filePath(kOld));
    for (const QString& line : lines)
    {
        const QString name = line.section('\t', 1);
        if (line.startsWith(QLatin1String("aside\t")) && QFileInfo::exists(target.filePath(name)))
            renameFile(target.filePath(name), old.filePath(name));
    }
    for (const QString& line : lines)
    {
        const QString name = line.section('\t', 1);
        if (line.startsWith(QLatin1String("move\t")) && QFileInfo::exists(staged.filePath(name)))
            renameFile(staged.filePath(name), target.filePath(name));
    }
    syncPath(folder);
}

/**
 * Removes the staging folders in `folder` whose run is gone (nobody holds their run lock), completing
 * those that hold a commit journal. Call it holding the folder lock. Returns what it did, for the log.
 */
QStringList cleanUpAfterStoppedRuns(const QString& folder)
{
    QStringList done;
    const QDir dir(folder);
    for (const QString& name :
         dir.entryList({kStagingPrefix + '*'}, QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot))
    {
        const QString staging = dir.filePath(name);
        FileLock run;
        if (QFileInfo::exists(QDir(staging).filePath(kRunLock)) &&
            !run.tryLock(QDir(staging).filePath(kRunLock), false))
            continue; // a live run
        if (QFileInfo::exists(QDir(staging).filePath(kJournal)))
        {
            try
            {
                rollForward(folder, staging);
            }
            catch (const QgsProcessingException& error)
            {
                done << QObject::tr("Could not complete the release a stopped run left in %1: %2")
                            .arg(QDir::toNativeSeparators(staging), error.what());
                continue;
            }
            done << QObject::tr("Completed the release that a run stopped while moving it into %1.")
                        .arg(QDir::toNativeSeparators(folder));
        }
        else
            done << QObject::tr("Removed %1, left by a run that was stopped before its release was complete.")
                        .arg(QDir::toNativeSeparators(staging));
        QDir(staging).removeRecursively();
    }
    return done;
}

/**
 * Returns `details` for another key of the layers to load. QGIS deletes the post-processor of a key that
 * goes away, so it cannot move along: publish() moves a destination before one is attached.
 */
QgsProcessingContext::LayerDetails moved(const QgsProcessingContext::LayerDetails& details)
{
    QgsProcessingContext::LayerDetails copy(details.name, details.project, details.outputName,
                                            details.layerTypeHint);
    copy.forceName = details.forceName;
    return copy;
}

/** Returns the names of the files next to `path` that belong to it and its writer may leave behind. */
QStringList companionNames(const QString& path)
{
    const QFileInfo file(path);
    QStringList names;
    for (const QString& suffix : kSqliteSidecars)
        names << file.fileName() + suffix;
    const QString suffix = file.suffix().toLower();
    if (suffix == QLatin1String("shp"))
        for (const QString& sidecar : kShapefileSidecars)
            names << file.completeBaseName() + '.' + sidecar;
    if (suffix == QLatin1String("csv"))
        names << file.completeBaseName() + QStringLiteral(".csvt") << file.completeBaseName() + ".prj";
    return names;
}
} // namespace

/** The staging folder of one destination folder, locked for the life of the run. */
struct VbasOutputGuard::Staging
{
    QString folder; //!< the destination folder
    QString path;   //!< the staging folder inside it
    FileLock runLock;
    bool keep = false; //!< a commit failed half-way: the journal stays for the next run to complete

    QString stagedFolder() const { return QDir(path).filePath(kNew); }

    ~Staging()
    {
        if (!keep && !path.isEmpty())
            QDir(path).removeRecursively();
        VbasStopSignals::forget(path);
        runLock.release();
    }
};

VbasOutputGuard::VbasOutputGuard(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                                 QgsProcessingContext& context, QgsProcessingFeedback* feedback)
    : mWatch(std::make_unique<VbasStopSignals::Watch>(feedback))
    , mLabels(algorithm)
    , mContext(context)
    , mFeedback(feedback)
    , mParameters(parameters)
{
    const auto inputs = inputFiles(algorithm, parameters, context);
    std::vector<LayerFile> files;
    for (const QgsProcessingParameterDefinition* definition : algorithm.destinationParameterDefinitions())
    {
        const std::optional<LayerFile> file =
            destinationFile(algorithm, *definition, valueText(parameters.value(definition->name()), context));
        if (!file)
            continue;
        for (const auto& [input, inputFile] : inputs)
        {
            if (sameFile(*file, inputFile))
                throw VbasParameters::parameterError(
                    definition->name(),
                    QObject::tr(
                        "%1 is also read as %2; writing it would destroy the input: choose another file")
                        .arg(QDir::toNativeSeparators(file->path), input));
        }
        for (const Destination& earlier : mDestinations)
        {
            if (sameFile(*file, {earlier.path, earlier.layer}))
                throw VbasParameters::parameterError(
                    definition->name(),
                    QObject::tr("%1 is also where %2 goes; give each output its own file (or its own layer "
                                "name in one GeoPackage)")
                        .arg(QDir::toNativeSeparators(file->path), earlier.parameter));
        }
        mDestinations.push_back({definition->name(), QFileInfo(file->path).absoluteFilePath(), file->layer,
                                 definition->type() == QgsProcessingParameterFileDestination::typeName(),
                                 VbasParameters::isForReview(*definition, parameters, context)});
        files.push_back(*file);
        checkWritable(mDestinations.back());
    }
    checkAudiences();
    if (algorithm.parameterDefinition(VbasParameters::kReleaseLedger))
        checkLedgerApart(valueText(parameters.value(VbasParameters::kReleaseLedger), context));

    try
    {
        for (std::size_t d = 0; d < mDestinations.size(); ++d)
        {
            const Destination& destination = mDestinations[d];
            stage(destination);
            const QString staged = stagedPath(destination);
            QString text = staged;
            if (files[d].ogrUri)
            {
                const QString original = valueText(parameters.value(destination.parameter), context).mid(4);
                QgsDataSourceUri uri(original);
                if (uri.database().isEmpty())
                    text = QStringLiteral("ogr:") + staged;
                else
                {
                    uri.setDatabase(staged);
                    text = QStringLiteral("ogr:") + uri.uri(false);
                }
            }
            QVariant value = parameters.value(destination.parameter);
            if (value.userType() == qMetaTypeId<QgsProcessingOutputLayerDefinition>())
            {
                auto definition = value.value<QgsProcessingOutputLayerDefinition>();
                definition.sink = QgsProperty::fromValue(text);
                value = QVariant::fromValue(definition);
            }
            else
                value = text;
            mParameters.insert(destination.parameter, value);
        }
    }
    catch (...)
    {
        mStagings.clear();
        throw;
    }
}

VbasOutputGuard::~VbasOutputGuard()
{
    if (!mCommitted)
        removeLayersToLoad();
    mStagings.clear(); // deletes the staging folders, and with them whatever a failed run wrote
}

void VbasOutputGuard::checkWritable(const Destination& destination) const
{
    const QFileInfo file(destination.path);
    const QString folder = QDir::toNativeSeparators(file.absolutePath());
    if (!file.absoluteDir().exists())
        throw VbasParameters::parameterError(
            destination.parameter,
            QObject::tr("the folder %1 does not exist; create it or choose another place for the output")
                .arg(folder));
    // Permission bits do not tell (read-only mounts, root, network shares): try. A stop signal waits for the
    // probe to be gone.
    const auto holdOff = VbasStopSignals::holdOff();
    QTemporaryFile probe(file.absoluteDir().filePath(QStringLiteral(".vbas-write-test-XXXXXX")));
    if (!probe.open())
        throw VbasParameters::parameterError(
            destination.parameter,
            QObject::tr("cannot create files in the folder %1 (%2); choose a folder you can write to")
                .arg(folder, probe.errorString()));
    QFile existing(destination.path);
    if (file.exists() && (file.isDir() || !existing.open(QIODevice::ReadWrite)))
        throw VbasParameters::parameterError(
            destination.parameter,
            QObject::tr("%1 exists and cannot be replaced (%2); close it in other programs or choose "
                        "another file")
                .arg(QDir::toNativeSeparators(destination.path),
                     file.isDir() ? QObject::tr("it is a folder") : existing.errorString()));
}

void VbasOutputGuard::checkAudiences() const
{
    for (const Destination& review : mDestinations)
        for (const Destination& other : mDestinations)
            if (review.forReview && !other.forReview && review.path == other.path)
                throw VbasParameters::parameterError(
                    review.parameter,
                    QObject::tr(
                        "%1 is also where %2 goes, which is publishable; %3 is for review only and must "
                        "never be published with it: give %3 a file of its own")
                        .arg(QDir::toNativeSeparators(review.path), other.parameter, review.parameter));
    // A GeoPackage already there keeps the layers this run does not write (stage()): they must be of the
    // audience of the run's layers.
    for (const Destination& destination : mDestinations)
    {
        if (destination.layer.isEmpty() || !QFileInfo::exists(destination.path))
            continue;
        QStringList written;
        for (const Destination& other : mDestinations)
            if (other.path == destination.path)
                written << other.layer.toLower();
        for (const ExistingLayer& layer : existingLayers(destination.path))
        {
            if (written.contains(layer.name.toLower()) || layer.forReview.isEmpty() == !destination.forReview)
                continue;
            const QString path = QDir::toNativeSeparators(destination.path);
            if (destination.forReview)
                throw VbasParameters::parameterError(
                    destination.parameter,
                    QObject::tr(
                        "%1 already holds the layer '%2', which is not for review only; %3 is for review "
                        "only and must never share a file that may be published: give %3 a file of "
                        "its own")
                        .arg(path, layer.name, destination.parameter));
            throw VbasParameters::parameterError(
                destination.parameter,
                QObject::tr(
                    "%1 already holds the layer '%2' of an earlier run, which is for review only (%3); "
                    "a file that is published must hold no review layer: delete that layer from the "
                    "file, or write %4 into another file")
                    .arg(path, layer.name, layer.forReview, destination.parameter));
        }
    }
}

void VbasOutputGuard::checkLedgerApart(const QString& ledger) const
{
    for (const Destination& destination : mDestinations)
        if (!ledger.isEmpty() && fileKey(ledger) == fileKey(destination.path))
            throw VbasParameters::parameterError(
                VbasParameters::kReleaseLedger,
                QObject::tr(
                    "%1 is also where %2 goes; the ledger is the custodian's and is never published, "
                    "and moving the release into place would replace it: keep the ledger in a file of "
                    "its own, apart from every output")
                    .arg(QDir::toNativeSeparators(destination.path), destination.parameter));
    for (const Destination& destination : mDestinations)
        if (QFileInfo::exists(destination.path))
            if (const QStringList tables = ledgerTables(destination.path); !tables.isEmpty())
                throw VbasParameters::parameterError(
                    destination.parameter,
                    QObject::tr("%1 holds a release ledger (the table %2); an output there would publish the "
                                "ledger or replace it: choose another file for %3")
                        .arg(QDir::toNativeSeparators(destination.path), tables.constFirst(),
                             destination.parameter));
}

void VbasOutputGuard::stage(const Destination& destination)
{
    const QString folder = QFileInfo(destination.path).absolutePath();
    const auto found = std::find_if(mStagings.begin(), mStagings.end(),
                                    [&](const auto& staging) { return staging->folder == folder; });
    if (found == mStagings.end())
    {
        // Under the folder lock, so that no other run takes this staging folder for a stopped run's.
        FileLock folderLock;
        if (!folderLock.lockFolder(QDir(folder).filePath(kFolderLock)))
            throw VbasParameters::parameterError(
                destination.parameter,
                QObject::tr("cannot lock the folder %1 (%2); choose a folder you can "
                            "write to")
                    .arg(QDir::toNativeSeparators(folder), QString::fromLocal8Bit(std::strerror(errno))));
        for (const QString& note : cleanUpAfterStoppedRuns(folder))
            if (mFeedback)
                mFeedback->pushInfo(note);
        auto staging = std::make_unique<Staging>();
        staging->folder = folder;
        const auto holdOff = VbasStopSignals::holdOff(); // made and known together
        QTemporaryDir created(QDir(folder).filePath(kStagingPrefix + QStringLiteral("XXXXXX")));
        created.setAutoRemove(false);
        if (created.isValid())
        {
            staging->path = created.path();
            VbasStopSignals::removeOnStop(staging->path);
        }
        if (!created.isValid() || !QDir(staging->path).mkdir(kNew) || !QDir(staging->path).mkdir(kOld) ||
            !staging->runLock.tryLock(QDir(staging->path).filePath(kRunLock), true))
        {
            const QString error = created.errorString();
            mStagings.push_back(std::move(staging)); // removed by the destructor
            throw VbasParameters::parameterError(
                destination.parameter,
                QObject::tr("cannot create a staging folder in %1 (%2); free some disk space or choose a "
                            "folder you can write to")
                    .arg(QDir::toNativeSeparators(folder), error));
        }
        mPrefixes.emplace_back(staging->stagedFolder() + QLatin1Char('/'), folder + QLatin1Char('/'));
        mStagings.push_back(std::move(staging));
    }

    // Layers of a GeoPackage that is already there: the run adds its layers to a copy of it, so that the
    // layers it does not write survive the commit.
    const QString staged = stagedPath(destination);
    if (destination.layer.isEmpty() || !QFileInfo::exists(destination.path) || QFileInfo::exists(staged))
        return;
    FileLock folderLock; // no commit renames it while it is copied
    folderLock.lockFolder(QDir(folder).filePath(kFolderLock));
    for (const QString& suffix : {QString(), QStringLiteral("-wal")})
    {
        if (QFileInfo::exists(destination.path + suffix) &&
            !QFile::copy(destination.path + suffix, staged + suffix))
            throw VbasParameters::parameterError(
                destination.parameter,
                QObject::tr("cannot copy %1 into the staging folder to keep its other layers; free some disk "
                            "space or choose another file")
                    .arg(QDir::toNativeSeparators(destination.path + suffix)));
    }
}

QString VbasOutputGuard::stagedPath(const Destination& destination) const
{
    const QString folder = QFileInfo(destination.path).absolutePath();
    for (const auto& staging : mStagings)
        if (staging->folder == folder)
            return QDir(staging->stagedFolder()).filePath(QFileInfo(destination.path).fileName());
    return destination.path;
}

namespace
{
/**
 * Reads every feature of `layer` and returns how many there are; sets `failed` when GDAL stops on an error.
 * Through GDAL's Arrow stream, whole batches at a time (a GeoPackage's millions of records in a fraction of
 * the time feature by feature).
 */
qint64 readEveryFeature(OGRLayerH layer, bool& failed)
{
    ArrowArrayStream stream{};
    if (!OGR_L_GetArrowStream(layer, &stream, nullptr))
    {
        qint64 features = 0;
        OGR_L_ResetReading(layer);
        while (OGRFeatureH feature = OGR_L_GetNextFeature(layer))
        {
            OGR_F_Destroy(feature);
            ++features;
        }
        return features;
    }
    qint64 features = 0;
    for (;;)
    {
        ArrowArray batch{};
        if (stream.get_next(&stream, &batch) != 0)
        {
            failed = true;
            break;
        }
        if (batch.release == nullptr)
            break;
        features += batch.length;
        batch.release(&batch);
    }
    stream.release(&stream);
    return features;
}
/** The rows of a CSV file below its header, and whether its last row is whole. */
struct CsvRows
{
    qint64 rows = 0;
    bool complete = false;
};

/**
 * Counts the rows of a CSV file as GDAL writes it (a header, then a row per feature; a value holding the
 * separator, a quote or a line break quoted, its quotes doubled): the line breaks outside quotes. A pass
 * over the bytes, ten times as fast as GDAL parsing every value. Nothing when the file cannot be read.
 */
std::optional<CsvRows> csvRows(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    bool quoted = false;
    char last = '\0';
    qint64 lines = 0;
    std::vector<char> buffer(std::size_t(1) << 20);
    for (;;)
    {
        const qint64 read = file.read(buffer.data(), qint64(buffer.size()));
        if (read < 0)
            return std::nullopt;
        if (read == 0)
            break;
        for (qint64 i = 0; i < read; ++i)
        {
            const char c = buffer[std::size_t(i)];
            if (c == '"')
                quoted = !quoted;
            else if (c == '\n' && !quoted)
                ++lines;
        }
        last = buffer[std::size_t(read - 1)];
    }
    return CsvRows{std::max<qint64>(lines - 1, 0), !quoted && last == '\n'};
}
} // namespace

void VbasOutputGuard::verify(const Destination& destination) const
{
    const QString staged = stagedPath(destination);
    const QString path = QDir::toNativeSeparators(destination.path);
    const bool counted = mWritten.contains(destination.parameter);
    const qint64 written = mWritten.of(destination.parameter);
    const auto fail = [&](const QString& what)
    {
        const QString trouble = VbasDisk::writeTrouble(staged);
        throw VbasParameters::parameterError(
            destination.parameter,
            QObject::tr(
                "%1 (%2); nothing was moved into place, so the files there are as they were before the "
                "run")
                .arg(what, trouble.isEmpty() ? QObject::tr("disk full, or a write error?")
                                             : QObject::tr("disk full, or a write error: %1").arg(trouble)));
    };
    const QFileInfo file(staged);
    if (!file.exists())
    {
        if (counted)
            fail(QObject::tr("the file written for %1 has gone").arg(path));
        return; // the algorithm did not write this output
    }
    if (destination.isFile)
    {
        if (file.size() == 0)
            fail(QObject::tr("the file written for %1 is empty").arg(path));
        return;
    }
    if (!counted)
        return; // written past VbasSink, or not at all: the file is not ours to judge

    if (file.suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0)
    {
        const std::optional<CsvRows> rows = csvRows(staged);
        if (!rows)
            fail(QObject::tr("the file written for %1 cannot be read back").arg(path));
        // A row cut short still counts as a row.
        if (!rows->complete)
            fail(QObject::tr("the file written for %1 ends in the middle of a row").arg(path));
        if (rows->rows != written)
            fail(QObject::tr("the file written for %1 holds %2 of the %3 features written")
                     .arg(path)
                     .arg(rows->rows)
                     .arg(written));
        return;
    }
    const VbasQuietGdal quiet;
    GDALDatasetH dataset =
        GDALOpenEx(staged.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!dataset)
    {
        const QString reason = VbasQuietGdal::last();
        fail(QObject::tr("the file written for %1 cannot be read back (%2)")
                 .arg(path, reason.isEmpty() ? QObject::tr("GDAL finds no vector data in it") : reason));
    }
    const auto close = qScopeGuard([dataset] { GDALClose(dataset); });
    OGRLayerH layer = nullptr;
    if (!destination.layer.isEmpty())
        layer = GDALDatasetGetLayerByName(dataset, destination.layer.toUtf8().constData());
    else if (GDALDatasetGetLayerCount(dataset) == 1)
        layer = GDALDatasetGetLayer(dataset, 0);
    else
        layer = GDALDatasetGetLayerByName(dataset, file.completeBaseName().toUtf8().constData());
    if (!layer)
        fail(QObject::tr("the file written for %1 holds no layer %2").arg(path, destination.layer));
    // Every feature read, not a count from a header that the writer may have updated before it failed.
    bool readError = false;
    qint64 features = 0;
    if (VbasGdal::isGeoPackage(dataset))
    {
        OGRLayerH everyRow = VbasGdal::selectFrom(dataset, layer, {}, QString());
        if (!everyRow)
            fail(QObject::tr("the file written for %1 cannot be read back (%2)")
                     .arg(path, VbasQuietGdal::last()));
        features = readEveryFeature(everyRow, readError);
        GDALDatasetReleaseResultSet(dataset, everyRow);
    }
    else
        features = readEveryFeature(layer, readError);
    readError = readError || CPLGetLastErrorType() >= CE_Failure;
    if (features != written || readError)
        fail(QObject::tr("the file written for %1 holds %2 of the %3 features written%4")
                 .arg(path)
                 .arg(features)
                 .arg(written)
                 .arg(readError ? QStringLiteral(" (%1)").arg(QString::fromUtf8(CPLGetLastErrorMsg()))
                                : QString()));
}

QVariantMap VbasOutputGuard::runAndCommit(QgsProcessingFeedback* feedback,
                                          const std::function<QVariantMap()>& work,
                                          const std::function<void()>& beforeMoving)
{
    QVariantMap results;
    try
    {
        results = work();
    }
    catch (const QgsProcessingException& error)
    {
        throw QgsProcessingException(finalDestination(error.what()));
    }
    if (feedback)
        feedback->setProgress(100.0);
    if (feedback && feedback->isCanceled())
        throw VbasParameters::canceledError();
    return commit(results, beforeMoving);
}

QVariantMap VbasOutputGuard::commit(const QVariantMap& results, const std::function<void()>& beforeMoving)
{
    for (const Destination& destination : mDestinations)
        if (destination.forReview && !destination.isFile)
            markLayersForReview(stagedPath(destination), destination.layer);
    for (const Destination& destination : mDestinations)
        verify(destination);

    // The folders locked in one order, so that two runs into the same folders never wait for each other.
    std::vector<Staging*> stagings;
    for (const auto& staging : mStagings)
        stagings.push_back(staging.get());
    std::sort(stagings.begin(), stagings.end(),
              [](const Staging* a, const Staging* b) { return a->folder < b->folder; });
    std::vector<std::unique_ptr<FileLock>> locks;
    for (Staging* staging : stagings)
    {
        locks.push_back(std::make_unique<FileLock>());
        if (!locks.back()->lockFolder(QDir(staging->folder).filePath(kFolderLock)))
            throw QgsProcessingException(
                QObject::tr("cannot lock the folder %1 to move the release into place (%2); nothing was "
                            "moved")
                    .arg(QDir::toNativeSeparators(staging->folder),
                         QString::fromLocal8Bit(std::strerror(errno))));
    }

    if (beforeMoving)
        beforeMoving();

    // A stop signal waits until everything is in place, and once it came nothing moves: the files in place
    // are one release.
    const auto holdOff = VbasStopSignals::holdOff();
    if (mWatch->stopped())
        throw VbasParameters::canceledError();
    // Every journal is on disk before the first rename, so that a run killed among the renames of any
    // folder is completed by the next run there.
    for (Staging* staging : stagings)
    {
        QStringList moved = fileNames(staging->stagedFolder());
        moved.erase(std::remove_if(moved.begin(), moved.end(),
                                   [](const QString& name)
                                   {
                                       return std::any_of(kSqliteSidecars.begin(), kSqliteSidecars.end(),
                                                          [&](const QString& s) { return name.endsWith(s); });
                                   }),
                    moved.end());
        QStringList aside;
        for (const Destination& destination : mDestinations)
        {
            if (QFileInfo(destination.path).absolutePath() != staging->folder)
                continue;
            for (const QString& name : companionNames(destination.path))
                if (!moved.contains(name) && !aside.contains(name) &&
                    QFileInfo::exists(QDir(staging->folder).filePath(name)))
                    aside << name;
        }
        QString journal;
        for (const QString& name : std::as_const(aside))
            journal += QStringLiteral("aside\t%1\n").arg(name);
        for (const QString& name : std::as_const(moved))
        {
            syncPath(QDir(staging->stagedFolder()).filePath(name));
            journal += QStringLiteral("move\t%1\n").arg(name);
        }
        QSaveFile file(QDir(staging->path).filePath(kJournal));
        if (!file.open(QIODevice::WriteOnly) || file.write(journal.toUtf8()) < 0 || !file.commit())
            throw QgsProcessingException(
                QObject::tr("cannot write the commit journal in %1 (%2); nothing was moved")
                    .arg(QDir::toNativeSeparators(staging->path), file.errorString()));
        syncPath(QDir(staging->path).filePath(kJournal));
        syncPath(staging->path);
    }
    for (Staging* staging : stagings)
    {
        try
        {
            rollForward(staging->folder, staging->path);
        }
        catch (const QgsProcessingException& error)
        {
            for (Staging* started : stagings)
                started->keep = true; // the next run into these folders completes the commit
            throw QgsProcessingException(
                QObject::tr("%1; the release is half in place: the next run into %2 completes it")
                    .arg(error.what(), QDir::toNativeSeparators(staging->folder)));
        }
    }
    mCommitted = true;
    mStagings.clear(); // the old files, the journal, the locks: all go, still under the folder locks
    locks.clear();

    QVariantMap final;
    for (auto it = results.constBegin(); it != results.constEnd(); ++it)
    {
        QVariant value = it.value();
        if (value.userType() == QMetaType::QString)
            value = rewritten(value.toString());
        final.insert(it.key(), value);
    }
    relabelLayersToLoad();
    if (mFeedback && !mDestinations.empty())
        mFeedback->pushInfo(mDestinations.size() == 1
                                ? QObject::tr("Checked the written file and moved it into place.")
                                : QObject::tr("Checked the %1 written files and moved them into place.")
                                      .arg(mDestinations.size()));
    return final;
}

QString VbasOutputGuard::rewritten(QString text) const
{
    for (const auto& [staged, final] : mPrefixes)
        text.replace(staged, final);
    return text;
}

QString VbasOutputGuard::finalDestination(const QString& destination) const
{
    return rewritten(destination);
}

QString VbasOutputGuard::publish(const QString& destination)
{
    QgsProcessingContext& context = mContext;
    const QString final = finalDestination(destination);
    if (final == destination || !context.willLoadLayerOnCompletion(destination))
        return final;
    QMap<QString, QgsProcessingContext::LayerDetails> layers = context.layersToLoadOnCompletion();
    layers.insert(final, moved(layers.take(destination)));
    context.setLayersToLoadOnCompletion(layers);
    mPublished << final;
    return final;
}

void VbasOutputGuard::relabelLayersToLoad()
{
    QMap<QString, QgsProcessingContext::LayerDetails> layers;
    bool relabeled = false;
    const auto loaded = mContext.layersToLoadOnCompletion();
    for (auto it = loaded.constBegin(); it != loaded.constEnd(); ++it)
    {
        const QString final = rewritten(it.key());
        relabeled |= final != it.key();
        layers.insert(final, final == it.key() ? it.value() : moved(it.value()));
    }
    if (relabeled)
        mContext.setLayersToLoadOnCompletion(layers);
}

void VbasOutputGuard::removeLayersToLoad()
{
    QMap<QString, QgsProcessingContext::LayerDetails> layers = mContext.layersToLoadOnCompletion();
    const auto before = layers.size();
    for (const QString& key : layers.keys())
        if (rewritten(key) != key || mPublished.contains(key))
            layers.remove(key);
    if (layers.size() != before)
        mContext.setLayersToLoadOnCompletion(layers);
}
