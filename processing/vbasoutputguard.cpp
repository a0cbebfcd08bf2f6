#include "vbasoutputguard.h"

#include "vbasalgorithmbase.h"

#include <qgsdatasourceuri.h>
#include <qgsmaplayer.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingparameters.h>
#include <qgsprocessingprovider.h>
#include <qgsproviderregistry.h>

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryFile>

#include <algorithm>
#include <optional>

namespace
{
/** Files a shapefile writer creates next to the .shp. */
const QStringList kShapefileSidecars{"shx", "dbf", "prj", "cpg", "qix", "sbn", "sbx", "qmd"};
/** Parameter types whose values are layers read by the algorithm. */
const QStringList kLayerParameterTypes{"source", "vector", "raster", "layer", "multilayer"};

/** A file, and the layer inside it (empty: the whole file). */
struct LayerFile
{
    QString path;
    QString layer;
};

/** Returns true when writing the file `destination` may create or change the file `name` in its folder. */
bool touches(const QFileInfo& destination, const QString& name)
{
    // The file itself and what its writer adds next to it: SQLite journals, a .csvt, shapefile parts.
    if (name.startsWith(destination.fileName()))
        return true;
    const QFileInfo other(name);
    return destination.suffix().compare(QLatin1String("shp"), Qt::CaseInsensitive) == 0 &&
           other.completeBaseName() == destination.completeBaseName() &&
           kShapefileSidecars.contains(other.suffix().toLower());
}

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
        return uri.database().isEmpty() ? LayerFile{match.captured(2), QString()}
                                        : LayerFile{uri.database(), uri.table()};
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
} // namespace

VbasOutputGuard::VbasOutputGuard(const QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                                 QgsProcessingContext& context)
{
    const auto inputs = inputFiles(algorithm, parameters, context);
    for (const QgsProcessingParameterDefinition* definition : algorithm.destinationParameterDefinitions())
    {
        const std::optional<LayerFile> file =
            destinationFile(algorithm, *definition, valueText(parameters.value(definition->name()), context));
        if (!file)
            continue;
        for (const auto& [input, inputFile] : inputs)
        {
            if (sameFile(*file, inputFile))
                throw VbasAlgorithmBase::parameterError(
                    definition->name(),
                    QObject::tr(
                        "%1 is also read as %2; writing it would destroy the input: choose another file")
                        .arg(QDir::toNativeSeparators(file->path), input));
        }
        for (const Destination& earlier : mDestinations)
        {
            if (sameFile(*file, {earlier.path, earlier.layer}))
                throw VbasAlgorithmBase::parameterError(
                    definition->name(),
                    QObject::tr("%1 is also where %2 goes; give each output its own file (or its own layer "
                                "name in one GeoPackage)")
                        .arg(QDir::toNativeSeparators(file->path), earlier.parameter));
        }
        mDestinations.push_back({definition->name(), QFileInfo(file->path).absoluteFilePath(), file->layer});
        checkWritable(mDestinations.back());
    }
    for (const Destination& destination : mDestinations)
        keepCopies(destination);
}

VbasOutputGuard::~VbasOutputGuard()
{
    if (!mCommitted)
        rollBack();
}

void VbasOutputGuard::commit()
{
    mCommitted = true;
    for (const QString& copy : qAsConst(mCopies))
        QFile::remove(copy);
    mCopies.clear();
}

void VbasOutputGuard::checkWritable(const Destination& destination) const
{
    const QFileInfo file(destination.path);
    const QString folder = QDir::toNativeSeparators(file.absolutePath());
    if (!file.absoluteDir().exists())
        throw VbasAlgorithmBase::parameterError(
            destination.parameter,
            QObject::tr("the folder %1 does not exist; create it or choose another place for the output")
                .arg(folder));
    // Permission bits do not tell (read-only mounts, root, network shares): try.
    QTemporaryFile probe(file.absoluteDir().filePath(QStringLiteral(".vbas-write-test-XXXXXX")));
    if (!probe.open())
        throw VbasAlgorithmBase::parameterError(
            destination.parameter,
            QObject::tr("cannot create files in the folder %1 (%2); choose a folder you can write to")
                .arg(folder, probe.errorString()));
    QFile existing(destination.path);
    if (file.exists() && (file.isDir() || !existing.open(QIODevice::ReadWrite)))
        throw VbasAlgorithmBase::parameterError(
            destination.parameter,
            QObject::tr("%1 exists and cannot be replaced (%2); close it in other programs or choose "
                        "another file")
                .arg(QDir::toNativeSeparators(destination.path),
                     file.isDir() ? QObject::tr("it is a folder") : existing.errorString()));
}

void VbasOutputGuard::keepCopies(const Destination& destination)
{
    const QFileInfo file(destination.path);
    const QString folder = file.absolutePath();
    if (!mExisting.contains(folder))
    {
        const QStringList names = QDir(folder).entryList(QDir::Files | QDir::Hidden | QDir::System);
        mExisting.insert(folder, QSet<QString>(names.begin(), names.end()));
    }
    for (const QString& name : qAsConst(mExisting[folder]))
    {
        const QString path = QDir(folder).filePath(name);
        if (!touches(file, name) || mCopies.contains(path))
            continue;
        QString copy;
        {
            // A free name next to the file, so that putting it back is a rename; QFile::copy() needs it free.
            QTemporaryFile free(QDir(folder).filePath(QStringLiteral(".%1.vbas-copy-XXXXXX").arg(name)));
            if (free.open())
                copy = free.fileName();
        }
        if (copy.isEmpty() || !QFile::copy(path, copy))
        {
            if (!copy.isEmpty())
                QFile::remove(copy);
            throw VbasAlgorithmBase::parameterError(
                destination.parameter,
                QObject::tr("cannot keep a copy of %1 to put it back should the run fail; free some disk "
                            "space or choose another file")
                    .arg(QDir::toNativeSeparators(path)));
        }
        mCopies.insert(path, copy);
    }
}

void VbasOutputGuard::rollBack()
{
    for (auto folder = mExisting.constBegin(); folder != mExisting.constEnd(); ++folder)
    {
        const QDir dir(folder.key());
        for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden | QDir::System))
        {
            const bool written =
                std::any_of(mDestinations.begin(), mDestinations.end(),
                            [&](const Destination& destination)
                            {
                                return QFileInfo(destination.path).absolutePath() == folder.key() &&
                                       touches(QFileInfo(destination.path), name);
                            });
            if (written && !folder.value().contains(name))
                QFile::remove(dir.filePath(name));
        }
    }
    for (auto copy = mCopies.constBegin(); copy != mCopies.constEnd(); ++copy)
    {
        QFile::remove(copy.key());
        QFile::rename(copy.value(), copy.key());
    }
}
