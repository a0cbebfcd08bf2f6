#include "vbasalgorithmaggregate.h"

void VbasAlgorithmAggregate::initAlgorithm(const QVariantMap&)
{
    addDataParameters();
    addSiteCountParameters();
    addSiteLocationParameters();
    addPartitionParameters();
    addGeneralizationParameters();
    addReleaseOutputs(true);
}

QString VbasAlgorithmAggregate::name() const
{
    return QStringLiteral("aggregateregions");
}

QString VbasAlgorithmAggregate::displayName() const
{
    return QObject::tr("Aggregate to k-anonymity");
}

QStringList VbasAlgorithmAggregate::tags() const
{
    return QObject::
        tr("k-anonymity,anonymize,aggregate,merge,regions,voronoi,privacy,disclosure,health,records,census "
           "tracts,population floor")
            .split(',');
}

QString VbasAlgorithmAggregate::group() const
{
    return QObject::tr("Release");
}

QString VbasAlgorithmAggregate::groupId() const
{
    return QStringLiteral("release");
}

QString VbasAlgorithmAggregate::shortHelpString() const
{
    return QObject::tr(
        "Makes a table of records k-anonymous by coarsening only its geography: small areas (census "
        "tracts...) are merged into larger regions around Voronoi sites until every group of records with "
        "the same quasi-identifier values (age group, sex...) in every region holds at least k records; the "
        "few records that still stand out are suppressed.\n\n"
        "Records: one row per record, or per group of identical records with a count field. "
        "Quasi-identifiers: the fields an attacker may know. Leave them empty to aggregate to a population "
        "floor: every region then holds at least k records, e.g. the small areas layer itself as records, "
        "its population as count and K = 20000 (use the naive site-count method, and ADC so that no region "
        "stays below the floor).\n\n"
        "Site-count methods: how many regions to aim for (by default the most regions whose release "
        "withholds at most SUPPRESSION_BUDGET % of the records). Site-location methods: where the sites go "
        "(balanced density by default, least suppression); the sites are then refined while fewer records "
        "are withheld, and after the partition single small areas move to a bordering region while that "
        "withholds fewer records (REFINE_BOUNDARIES: a region is then not exactly its site's Voronoi cell, "
        "never split and never across OBSTACLES). All distances are planar, in metres: small areas in a "
        "geographic CRS are projected for "
        "the "
        "computation and results come back in their CRS.\n\n"
        "Generalization: numeric quasi-identifiers (exact ages) are banded automatically (bands of 5, 10 or "
        "20 years, sparse ends as '85+'), never removed unless allowed; GENERALIZATION sets other "
        "hierarchies (e.g. 'age: interval 5 10 20 max 10', 'age: none' for exact ages). The release uses "
        "the levels that give the most regions within the budget, and the "
        "records carry the labels ('30-39'). The report lists every combination tried.\n\n"
        "Publishable outputs: the aggregated regions (dissolved polygons, with id, site, member count, "
        "records released, classes, anonymity after suppression, mean distance in m, area in m², parts, "
        "Polsby-Popper compactness), the small area ids with their aggregate, the anonymized records (the "
        "small area replaced by the aggregate id, then the quasi-identifiers, SENSITIVE_FIELDS and "
        "RELEASE_FIELDS and no other field, in a random order; a pre-aggregated input merged to one row per "
        "released group), the sites, optionally the Voronoi cells, and a map image. For the custodian's "
        "review only, never to publish: the regions with their withheld counts (OUTPUT_REVIEW), the HTML "
        "report, and the records output with KEEP_SUPPRESSED. Loaded into QGIS, the layers arrive styled: "
        "regions shaded by SHADE_BY and labelled with their k, hot spots of withheld records hatched on "
        "the review layer, small areas coloured by their region.\n\n"
        "Privacy options: MAX_RISK states k as a highest re-identification risk (k = ceil(1 / MAX_RISK)); "
        "L with SENSITIVE_FIELDS withholds groups whose sensitive values are too uniform (l-diversity).\n\n"
        "Release only one aggregation of the same records, ever: two aggregations can be overlaid to single "
        "people out. Check any release with 'Check k-anonymity of a release'.");
}

QString VbasAlgorithmAggregate::shortDescription() const
{
    return QObject::tr("Merges small areas until every group of look-alike records holds k, withholds what "
                       "still stands out and writes the release.");
}

VbasAlgorithmAggregate* VbasAlgorithmAggregate::createInstance() const
{
    return new VbasAlgorithmAggregate();
}

VbasRelease VbasAlgorithmAggregate::computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                                                   const vbas::ReleaseRequest& request, const QVariantMap&,
                                                   QgsProcessingContext&,
                                                   QgsProcessingFeedback* feedback) const
{
    return runEngine(feedback, [&](vbas::Feedback& engineFeedback)
                     { return VbasRelease(pipeline.release(job.engineJob(), request, engineFeedback)); });
}
