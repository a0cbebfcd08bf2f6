#include "vbaswithheld.h"

#include "vbashtml.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace
{
bool isWithheld(vbas::RecordFate fate)
{
    return fate != vbas::RecordFate::Released && fate != vbas::RecordFate::Dropped;
}

/**
 * The order of the groups a quasi-identifier is published as. Above level 0 a hierarchy's groups come in
 * the order of their bands or periods already; level-0 codes are ranks in text order ("10" before "9"),
 * so they go by the number or day the job read.
 */
std::vector<std::uint32_t> naturalOrder(const QVector<QVariant>& values,
                                        const std::vector<vbas::CategoryValue>* level0)
{
    std::vector<std::uint32_t> order(std::size_t(values.size()));
    std::iota(order.begin(), order.end(), 0U);
    const auto key = [&](std::uint32_t group)
    {
        const vbas::CategoryValue* read = level0 ? &(*level0)[group] : nullptr;
        return std::make_tuple(values[int(group)].isNull(), read && read->number ? *read->number : 0.0,
                               read && read->day ? *read->day : std::int64_t(0), level0 ? 0U : group,
                               vbasKeyText(values[int(group)]));
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    return order;
}
} // namespace

VbasWithheld VbasWithheld::count(const VbasJob& job, const VbasRelease& release,
                                 const VbasOutputs::RecordLayout& layout)
{
    const vbas::Dataset& dataset = *job.data.dataset;
    const VbasLoadedData::RecordValues& read = job.data.recordValues;
    const QgsFields fields = job.records->fields();
    const std::size_t q = std::size_t(layout.roles.quasiIdentifiers.size());

    VbasWithheld withheld;
    std::vector<std::vector<Share>> byGroup(q);
    std::vector<const vbas::Hierarchy*> hierarchy(q, nullptr);
    std::vector<std::size_t> level(q, 0);
    std::vector<QVector<QVariant>> published(q);
    for (std::size_t j = 0; j < q; ++j)
    {
        level[j] = layout.level(release, j);
        if (level[j] > 0)
            hierarchy[j] = &(*release.hierarchies())[j]->hierarchy;
        published[j] = layout.releasedValues(release, j, read.values[j]);
        byGroup[j].resize(std::size_t(published[j].size()));
    }
    const vbas::Aggregation& aggregation = release.result.aggregation;
    std::vector<Share> byRegion(aggregation.size());
    for (std::size_t row = 0; row < dataset.rows(); ++row)
    {
        const vbas::RecordFate fate = release.fates[row];
        if (fate == vbas::RecordFate::Dropped)
            continue;
        const auto records = qint64(dataset.rowWeight(row)); // people, when counted by person
        const qint64 out = isWithheld(fate) ? records : 0;
        const auto add = [&](Share& share)
        {
            share.records += records;
            share.withheld += out;
            share.byFate[std::size_t(fate)] += out;
        };
        withheld.records += records;
        withheld.withheld += out;
        add(byRegion[aggregation.regionAggregate[dataset.rowRegion(row)]]);
        for (std::size_t j = 0; j < q; ++j)
        {
            const std::uint32_t code = read.quasiIdentifierCodes[row * q + j];
            add(byGroup[j][hierarchy[j] ? hierarchy[j]->group(level[j], code) : code]);
        }
    }

    for (std::size_t j = 0; j < q; ++j)
    {
        QuasiIdentifier quasiIdentifier;
        quasiIdentifier.name = fields.at(layout.roles.quasiIdentifiers.at(int(j))).name();
        const bool asRead = level[j] == 0;
        for (const std::uint32_t group :
             naturalOrder(published[j], asRead ? &job.data.dataset->quasiIdentifierValues()[j] : nullptr))
        {
            Share share = byGroup[j][group];
            if (share.records == 0) // a value of dropped records only
                continue;
            const QVariant& value = published[j][int(group)];
            share.label = value.isNull() ? QObject::tr("(empty)") : vbasKeyText(value);
            quasiIdentifier.values << share;
        }
        withheld.quasiIdentifiers << quasiIdentifier;
    }
    for (std::size_t a = 0; a < byRegion.size(); ++a)
    {
        byRegion[a].label = vbasKeyText(release.aggregateIds.at(int(a)));
        withheld.regions << byRegion[a];
    }
    return withheld;
}

double VbasWithheld::shareOf(const Share& share)
{
    return share.records > 0 ? double(share.withheld) / double(share.records) : 0.0;
}

QVector<VbasWithheld::Share> VbasWithheld::highestShares(QVector<Share> shares, int count)
{
    shares.erase(
        std::remove_if(shares.begin(), shares.end(), [](const Share& share) { return share.withheld == 0; }),
        shares.end());
    std::stable_sort(shares.begin(), shares.end(),
                     [](const Share& a, const Share& b) { return shareOf(a) > shareOf(b); });
    if (shares.size() > count)
        shares.resize(count);
    return shares;
}

QStringList VbasWithheld::costLines(int shown) const
{
    using VbasHtml::count;
    using VbasHtml::percent;
    QStringList lines{QObject::tr("What the release cost: %1 of %2 records withheld (%3).")
                          .arg(count(withheld), count(records), percent(double(withheld), double(records)))};
    if (withheld == 0)
        return lines;
    const auto listed = [](const QVector<Share>& shares)
    {
        QStringList items;
        for (const Share& share : shares)
            items << QObject::tr("%1: %2 (%3 of %4)")
                         .arg(share.label, percent(double(share.withheld), double(share.records)),
                              count(share.withheld), count(share.records));
        return items.join(QStringLiteral(", "));
    };
    QVector<Share> values;
    for (const QuasiIdentifier& quasiIdentifier : quasiIdentifiers)
        for (Share share : quasiIdentifier.values)
        {
            share.label = QStringLiteral("%1 = %2").arg(quasiIdentifier.name, share.label);
            values << share;
        }
    if (const QVector<Share> most = highestShares(values, shown); !most.isEmpty())
        lines << QObject::tr("Values withheld most: %1.").arg(listed(most));
    if (const QString over = overWithheld(shown); !over.isEmpty())
        lines << over;
    QVector<Share> mostRegions = highestShares(regions, shown);
    for (Share& region : mostRegions)
        region.label = QObject::tr("region %1").arg(region.label);
    if (!mostRegions.isEmpty())
        lines << QObject::tr("Regions withheld most: %1.").arg(listed(mostRegions));
    return lines;
}

QString VbasWithheld::overWithheld(int shown) const
{
    using VbasHtml::count;
    using VbasHtml::percent;
    if (withheld == 0)
        return QString();
    const double overall = double(withheld) / double(records);
    QVector<Share> over;
    for (const QuasiIdentifier& quasiIdentifier : quasiIdentifiers)
        for (Share share : quasiIdentifier.values)
            if (shareOf(share) > 2.0 * overall)
            {
                share.label = QStringLiteral("%1 = %2").arg(quasiIdentifier.name, share.label);
                over << share;
            }
    if (over.isEmpty())
        return QString();
    const int more = std::max(0, int(over.size()) - shown);
    using vbas::RecordFate;
    const std::pair<RecordFate, QString> reasons[] = {
        {RecordFate::SuppressedLocally, QObject::tr("%1 as too few like them in their region")},
        {RecordFate::SuppressedGlobally, QObject::tr("%1 as rare in the whole data set")},
        {RecordFate::SuppressedSmallRow, QObject::tr("%1 in count rows below k")},
        {RecordFate::SuppressedDiversity, QObject::tr("%1 for the sensitive values")},
        {RecordFate::SuppressedDifference, QObject::tr("%1 against earlier releases")}};
    QStringList items;
    for (const Share& share : highestShares(over, shown))
    {
        QStringList why;
        for (const auto& [fate, text] : reasons)
            if (const qint64 n = share.byFate[std::size_t(fate)]; n > 0)
                why << text.arg(count(n));
        items << QObject::tr("%1 (%2, %3 of %4: %5)")
                     .arg(share.label, percent(double(share.withheld), double(share.records)),
                          count(share.withheld), count(share.records), why.join(QStringLiteral(", ")));
    }
    if (more > 0)
        items << QObject::tr("%n more", nullptr, more);
    return QObject::tr(
               "Withheld more than twice the %1 overall, so analyses of them are biased: %2. Coarser "
               "values of these quasi-identifiers (GENERALIZATION) or fewer, larger regions keep more "
               "of them.")
        .arg(percent(double(withheld), double(records)), items.join(QStringLiteral("; ")));
}
