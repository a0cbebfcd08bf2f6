#include "vbasalgorithmwithdraw.h"

#include "vbasledgerstore.h"
#include "vbasparameterreader.h"
#include "vbasqgiscompat.h"

#include <qgsprocessingoutputs.h>

using namespace VbasParameters;

void VbasAlgorithmWithdraw::initAlgorithm(const QVariantMap&)
{
    addParameter(new QgsProcessingParameterString(kReleaseLedger, QObject::tr("Release ledger")));
    addParameter(new QgsProcessingParameterNumber(kLedgerEntry,
                                                  QObject::tr("Release to withdraw (ledger number)"),
                                                  VbasCompat::NumberTypeInteger, QVariant(), false, 1));
    addParameter(new QgsProcessingParameterString(kReason, QObject::tr("Why it was never published")));
    addParameter(new QgsProcessingParameterFile(kLedgerKey, QObject::tr("Key file of the release ledger"),
                                                VbasCompat::FileBehaviorFile, QString(), QVariant(), true));
    addOutput(new QgsProcessingOutputNumber(kLedgerEntry, QObject::tr("Release withdrawn")));
}

QString VbasAlgorithmWithdraw::name() const
{
    return QStringLiteral("withdrawrelease");
}

QString VbasAlgorithmWithdraw::displayName() const
{
    return QObject::tr("Withdraw a release that was never published");
}

QStringList VbasAlgorithmWithdraw::tags() const
{
    return QObject::tr("ledger,withdraw,trial,release,undo").split(',');
}

QString VbasAlgorithmWithdraw::group() const
{
    return QObject::tr("Release");
}

QString VbasAlgorithmWithdraw::groupId() const
{
    return QStringLiteral("release");
}

QString VbasAlgorithmWithdraw::shortHelpString() const
{
    return QObject::tr(
        "Marks a release recorded in the release ledger as withdrawn: it was recorded (its outputs were "
        "written "
        "to files) but never published. A withdrawn release no longer binds its small areas, so the same "
        "records "
        "can be aggregated again. It stays in the ledger, with when and why it was withdrawn.\n\n"
        "Release ledger (RELEASE_LEDGER): the ledger the release was recorded in.\n"
        "Release to withdraw (LEDGER_ENTRY): its number, as the log of the release said.\n"
        "Why (REASON): recorded with it, for whoever reads the ledger later.\n"
        "Key file (LEDGER_KEY, optional): where the ledger's key is, when not in the default key folder.\n\n"
        "Withdraw only what was never published: a published release stays published whatever the ledger "
        "says, "
        "and a second aggregation of its small areas could then be overlaid on it. To try settings without "
        "recording anything, write the outputs to temporary layers: such a run is a trial and is not "
        "recorded.");
}

QString VbasAlgorithmWithdraw::shortDescription() const
{
    return QObject::tr(
        "Marks a recorded release that was never published as withdrawn, so it binds nothing.");
}

VbasAlgorithmWithdraw* VbasAlgorithmWithdraw::createInstance() const
{
    return new VbasAlgorithmWithdraw();
}

QVariantMap VbasAlgorithmWithdraw::processAlgorithm(const QVariantMap& parameters,
                                                    QgsProcessingContext& context,
                                                    QgsProcessingFeedback* feedback)
{
    const VbasParameterReader read(*this, parameters, context);
    const QString reason = read.asString(kReason).trimmed();
    if (reason.isEmpty())
        throw parameterError(kReason,
                             QObject::tr("say why the release is withdrawn (it is kept in the ledger)"));
    QStringList notes;
    VbasLedgerStore ledger(read.asString(kReleaseLedger).trimmed(), VbasLedgerStore::Opening::Existing,
                           read.asString(kLedgerKey).trimmed(), notes);
    const int id = read.asInt(kLedgerEntry);
    ledger.withdraw(id, reason);
    feedback->pushInfo(
        QObject::tr("Release %1 of %2 is withdrawn: %3").arg(id).arg(ledger.location(), reason));
    return {{kLedgerEntry, id}};
}
