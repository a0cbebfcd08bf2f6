#pragma once

#include <qgsprocessingparameters.h>

#include <QVector>

/**
 * A choice among values with stable ids, shown by readable labels. QGIS 3.22's enum parameter shows what
 * it stores, so the options are the labels ("Balanced density"); a value may name a choice by its label or
 * by its id ("sitelocation.balanced_density"), as scripts, the command line and models saved before the
 * labels do, or by its number in the list (0, 1, 2...), as QGIS's help offers it. Read it with ids(), never
 * with parameterAsEnumString(), which knows only the labels.
 */
class VbasChoiceParameter : public QgsProcessingParameterEnum
{
public:
    struct Choice
    {
        QString id;
        QString label;
    };

    VbasChoiceParameter(const QString& name, const QString& description, const QVector<Choice>& choices,
                        bool allowMultiple, const QString& defaultId, bool optional = false);
    /** Returns choices whose ids are words ("point_on_surface") shown as words ("Point on surface"). */
    static QVector<Choice> wordChoices(const QStringList& ids);
    /** Returns choices shown as their ids are ("anonymity_after"). */
    static QVector<Choice> literalChoices(const QStringList& ids);

    QgsProcessingParameterDefinition* clone() const override;
    bool checkValueIsAcceptable(const QVariant& input,
                                QgsProcessingContext* context = nullptr) const override;
    /** The help's lines (one per choice) as lines, where QGIS would run them into one paragraph. */
    QString toolTip() const override;

    /** Returns the id of every choice `value` names (the default when it is empty); an empty id for text
     * that names none. */
    QStringList ids(const QVariant& value) const;

private:
    /** Returns the id of the choice whose id, label or number is `text`, else an empty string. */
    QString idOf(const QString& text) const;
    /** Returns the texts `value` holds: a list's items, or the text itself. */
    QStringList texts(const QVariant& value) const;

    QVector<Choice> mChoices;
};

/** Returns `definition` with its tooltip help set. */
template <typename Definition> Definition* vbasWithHelp(Definition* definition, const QString& help)
{
    definition->setHelp(help);
    return definition;
}

/** Returns a choice among words (stored and read as they are, shown as words: "point_on_surface" as
 * "Point on surface"). */
VbasChoiceParameter* vbasWordChoice(const QString& name, const QString& description,
                                    const QStringList& values, const QString& defaultValue,
                                    const QString& help, bool optional = false);
