// The provider as QGIS sees it, and its registration as the plugin and the shim perform it.

#include "vbasprovider.h"
#include "vbasproviderregistration.h"

#include <qgsapplication.h>
#include <qgsprocessingalgorithm.h>
#include <qgsprocessingregistry.h>

#include <QFile>
#include <QTextStream>

#include <gtest/gtest.h>

namespace
{
/** Returns the value of `key` in the project's metadata.txt, the single source of the plugin's strings. */
QString metadataValue(const QString& key)
{
    QFile file(QStringLiteral(VBAS_METADATA_FILE));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text));
    QTextStream lines(&file);
    lines.setCodec("UTF-8");
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
