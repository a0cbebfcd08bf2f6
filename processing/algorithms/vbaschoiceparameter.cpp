#include "vbaschoiceparameter.h"

namespace
{
QStringList labelsOf(const QVector<VbasChoiceParameter::Choice>& choices)
{
    QStringList labels;
    for (const VbasChoiceParameter::Choice& choice : choices)
        labels << choice.label;
    return labels;
}

QString labelOf(const QVector<VbasChoiceParameter::Choice>& choices, const QString& id)
{
    for (const VbasChoiceParameter::Choice& choice : choices)
        if (choice.id == id)
            return choice.label;
    return id;
}
} // namespace

VbasChoiceParameter::VbasChoiceParameter(const QString& name, const QString& description,
                                         const QVector<Choice>& choices, bool allowMultiple,
                                         const QString& defaultId, bool optional)
    : QgsProcessingParameterEnum(name, description, labelsOf(choices), allowMultiple,
                                 labelOf(choices, defaultId), optional, true)
    , mChoices(choices)
{
}

QVector<VbasChoiceParameter::Choice> VbasChoiceParameter::wordChoices(const QStringList& ids)
{
    QVector<Choice> choices;
    for (const QString& id : ids)
    {
        QString label = id;
        label.replace(QLatin1Char('_'), QLatin1Char(' '));
        if (!label.isEmpty())
            label[0] = label[0].toUpper();
        choices.push_back({id, label});
    }
    return choices;
}

QVector<VbasChoiceParameter::Choice> VbasChoiceParameter::literalChoices(const QStringList& ids)
{
    QVector<Choice> choices;
    for (const QString& id : ids)
        choices.push_back({id, id});
    return choices;
}

QgsProcessingParameterDefinition* VbasChoiceParameter::clone() const
{
    return new VbasChoiceParameter(*this);
}

bool VbasChoiceParameter::checkValueIsAcceptable(const QVariant& input, QgsProcessingContext* context) const
{
    if (QgsProcessingParameterEnum::checkValueIsAcceptable(input, context))
        return true;
    const QStringList given = texts(input);
    if (given.isEmpty() || (given.size() > 1 && !allowMultiple()))
        return false;
    for (const QString& text : given)
        if (idOf(text).isEmpty())
            return false;
    return true;
}

QString VbasChoiceParameter::toolTip() const
{
    QString tip = QgsProcessingParameterEnum::toolTip();
    return tip.replace(QLatin1Char('\n'), QLatin1String("<br>"));
}

QStringList VbasChoiceParameter::ids(const QVariant& value) const
{
    QStringList given = texts(value);
    if (given.isEmpty())
        given = texts(defaultValue());
    QStringList chosen;
    for (const QString& text : given)
        chosen << idOf(text);
    return chosen;
}

QString VbasChoiceParameter::idOf(const QString& text) const
{
    const QString trimmed = text.trimmed();
    for (const Choice& choice : mChoices)
        if (choice.id == trimmed || choice.label == trimmed)
            return choice.id;
    // By number, as QGIS's help (qgis_process help, vbas_process help) lists the choices: 0, 1, 2...
    bool isNumber = false;
    const int index = trimmed.toInt(&isNumber);
    if (isNumber && index >= 0 && index < mChoices.size())
        return mChoices[index].id;
    return QString();
}

QStringList VbasChoiceParameter::texts(const QVariant& value) const
{
    QStringList given;
    if (value.userType() == QMetaType::QVariantList || value.userType() == QMetaType::QStringList)
    {
        for (const QVariant& item : value.toList())
            if (!item.toString().isEmpty())
                given << item.toString();
    }
    else if (value.isValid() && !value.isNull() && !value.toString().isEmpty())
        given = allowMultiple() ? value.toString().split(QLatin1Char(','), Qt::SkipEmptyParts)
                                : QStringList{value.toString()};
    return given;
}

VbasChoiceParameter* vbasWordChoice(const QString& name, const QString& description,
                                    const QStringList& values, const QString& defaultValue,
                                    const QString& help, bool optional)
{
    return vbasWithHelp(new VbasChoiceParameter(name, description, VbasChoiceParameter::wordChoices(values),
                                                false, defaultValue, optional),
                        help);
}
