#pragma once

#include <qgsprocessingprovider.h>

/**
 * The "vbas" Processing provider. Its id prefixes every algorithm id (vbas:checkanonymity) and is
 * stored in saved models: never change it.
 */
class VbasProvider : public QgsProcessingProvider
{
public:
    /** The provider id. */
    static inline const QString kId = QStringLiteral("vbas");

    explicit VbasProvider(QObject* parent = nullptr);

    /** Returns the path of the VBAS icon among the embedded resources; valid before any provider exists. */
    static QString iconPath();

    QIcon icon() const override;
    QString svgIconPath() const override;
    QString id() const override;
    QString name() const override;
    QString longName() const override;
    bool supportsNonFileBasedOutput() const override;

protected:
    void loadAlgorithms() override;
};
