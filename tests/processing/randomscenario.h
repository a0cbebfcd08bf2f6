#pragma once

// Small random release inputs for property tests: everything a user may hand VBAS, drawn from a seed.

#include "releasecheck.h"

#include <qgsvectorlayer.h>

#include <QString>
#include <QVariantMap>

#include <cstdint>
#include <memory>
#include <random>

/** What a property test fixes of a run; a scenario draws everything else. */
struct StrategyCombination
{
    QString algorithm;     //!< vbas:aggregateregions or vbas:partitionregions
    QString siteLocation;  //!< empty for partitionregions
    QString refinerSwitch; //!< the parameter switching a refinement on (ADC...), empty for none
    QString partition;
};

/**
 * A random release input and run: a grid of square small areas (some cells missing, some areas multipart,
 * a parent field with NULLs) in a projected or a geographic CRS; records with random quasi-identifiers
 * (NULL and empty text among their values), counts, and now and then records whose small area is NULL or
 * unknown; an obstacle line in another CRS; for partitionregions random sites in another CRS; and random
 * choices of everything the combination leaves open (site-count method and count, offset, global
 * suppression, representative point, seed, parent constraint, contiguity, unknown-area policy, k).
 * Every output goes to memory.
 */
class RandomScenario
{
public:
    RandomScenario(std::uint64_t seed, const StrategyCombination& combination);

    std::unique_ptr<QgsVectorLayer> regions;
    std::unique_ptr<QgsVectorLayer> records;
    std::unique_ptr<QgsVectorLayer> obstacles;
    std::unique_ptr<QgsVectorLayer> sites;
    QVariantMap parameters;
    ReleaseInput input;
    /** The algorithm run: the combination's, or vbas:populationfloor for its main job without
     * quasi-identifiers. */
    QString algorithm;
    /**
     * The parameter the run's error must name ("QUASI_IDENTIFIERS", "RECORD_REGION_FIELD", "K"), worked out
     * from the drawn input without VBAS; empty when the run must succeed.
     */
    QString expectedError;
    /**
     * Whether some small area holds k records of one combination of quasi-identifier values: any aggregate
     * holding it releases them, so the release cannot be empty.
     */
    bool someAreaHoldsKOfAClass = false;

    /** Returns the seed and the drawn choices, to reproduce a failing scenario. */
    QString describe() const;

private:
    void drawRegions();
    void drawRecords();
    void drawParameters(const StrategyCombination& combination);
    void drawObstacle();
    void drawSites();
    /** Returns a random point inside the grid's extent, in the regions' CRS. */
    QgsPointXY randomPoint();

    std::uint64_t mSeed;
    std::mt19937_64 mRandom;
    QString mCrs;
    double mOriginX = 0.0;
    double mOriginY = 0.0;
    double mCell = 1.0;
    int mColumns = 1;
    int mRows = 1;
    QStringList mRegionIds;
};
