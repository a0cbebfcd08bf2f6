#pragma once

#include "vbasjobalgorithm.h"
#include "vbasoutputs.h"

/**
 * Base of the algorithms that produce a release (aggregateregions, partitionregions,
 * rateaggregation): QGIS's four blocks, the same for all but the engine call. It reads the parameters
 * and builds the pipeline (a bad one fails before any data is read), loads the job, makes the release
 * (computeRelease(), the only part each algorithm writes) and writes the same outputs for all; progress
 * runs in these three steps.
 */
class VbasReleaseAlgorithm : public VbasJobAlgorithm
{
public:
    // Parameter and output names. Saved models and scripts store them: never rename.
    static inline const QString kKeepSuppressed = QStringLiteral("KEEP_SUPPRESSED");
    static inline const QString kAddRowId = QStringLiteral("ADD_ROW_ID");
    static inline const QString kOutputReview = QStringLiteral("OUTPUT_REVIEW");
    static inline const QString kOutput = QStringLiteral("OUTPUT");
    static inline const QString kOutputMapping = QStringLiteral("OUTPUT_MAPPING");
    static inline const QString kOutputRecords = QStringLiteral("OUTPUT_RECORDS");
    static inline const QString kOutputSites = QStringLiteral("OUTPUT_SITES");
    static inline const QString kOutputCells = QStringLiteral("OUTPUT_CELLS");
    static inline const QString kOutputHtml = QStringLiteral("OUTPUT_HTML_FILE");
    static inline const QString kShadeBy = QStringLiteral("SHADE_BY");
    static inline const QString kOutputMapImage = QStringLiteral("OUTPUT_MAP_IMAGE");
    static inline const QString kMapImageWidth = QStringLiteral("MAP_IMAGE_WIDTH");
    static inline const QString kMapImageHeight = QStringLiteral("MAP_IMAGE_HEIGHT");

protected:
    /**
     * Adds RELEASE_FIELDS, ADD_ROW_ID, KEEP_SUPPRESSED, SHADE_BY, MAP_IMAGE_WIDTH, MAP_IMAGE_HEIGHT, the
     * outputs OUTPUT, OUTPUT_RECORDS, OUTPUT_REVIEW, OUTPUT_HTML_FILE, OUTPUT_MAP_IMAGE and the numbers; with
     * `withSites` also OUTPUT_MAPPING, OUTPUT_SITES and OUTPUT_CELLS. Each output's name says whether it is
     * for publication or for review (docs/publishing.md).
     */
    void addReleaseOutputs(bool withSites);

    /** Checks the algorithm's own inputs before any data is read (the default has none). */
    virtual void checkInputs(const QVariantMap& parameters, QgsProcessingContext& context) const;
    /**
     * Returns the release of `job`: converts what the algorithm reads beyond the job and makes one engine
     * call of `pipeline` (through runEngine) with `request`.
     */
    virtual VbasRelease computeRelease(const vbas::Pipeline& pipeline, const Job& job,
                                       const vbas::ReleaseRequest& request, const QVariantMap& parameters,
                                       QgsProcessingContext& context,
                                       QgsProcessingFeedback* feedback) const = 0;

private:
    QVariantMap processGuarded(const QVariantMap& parameters, QgsProcessingContext& context,
                               QgsProcessingFeedback* feedback) final;
    /**
     * Creates the sinks asked for, writes them, the map image and the report, has the layers QGIS loads
     * styled for review, and returns every output.
     */
    QVariantMap writeRelease(const QVariantMap& parameters, QgsProcessingContext& context,
                             QgsProcessingFeedback* feedback, const Job& job,
                             const VbasRelease& release) const;
};
