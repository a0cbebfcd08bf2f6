#pragma once

#include <qgsfeature.h>
#include <qgsprocessingalgorithm.h>
#include <qgsvectorlayer.h>

#include <QByteArray>
#include <QImage>
#include <QMap>
#include <QStringList>
#include <QVariantMap>

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>

/** The NULL attribute value of a text field. */
QVariant nullText();

/**
 * Returns a memory table without geometry. `fields` are "name:type" in the memory provider's
 * syntax (string, integer, double); each row gives one value per field.
 */
std::unique_ptr<QgsVectorLayer> makeTable(const QStringList& fields, const QList<QVariantList>& rows);

/**
 * Returns a memory layer of unit squares [i, i+1] x [0, 1] in UTM metres (EPSG:32633), with a text
 * field id holding `ids[i]`, so that areas, centroids and distances can be worked out by hand.
 */
std::unique_ptr<QgsVectorLayer> makeSquares(const QList<QVariant>& ids);
/** Returns unit squares like makeSquares(), `columns` to a row, rows stacked upwards: square i is at column
 * i % columns, row i / columns. */
std::unique_ptr<QgsVectorLayer> makeGrid(int columns, const QList<QVariant>& ids);

/** Returns a memory point layer (EPSG:32633, field site) with a point at each of `points`. */
std::unique_ptr<QgsVectorLayer> makePoints(const QList<QgsPointXY>& points);

/** Returns `row` `times` times, for tables with many identical records. */
QList<QVariantList> repeated(const QVariantList& row, int times);

/** What one algorithm run produced. */
struct AlgorithmRun
{
    bool ok = false;
    QVariantMap results;
    QList<QgsAttributes> outputRows; //!< the features of the OUTPUT layer, when there is one
    QStringList outputFields;
    /** Every result that is a vector layer (temporary outputs included), kept after the run's context. */
    std::map<QString, std::shared_ptr<QgsVectorLayer>> layers;
    QString errors; //!< what the algorithm reported as errors
    QString log;    //!< the whole text log
    /** Every progress the run reported, in order (percent). */
    QVector<double> progress;
};

/** Returns every file of `folder` (hidden ones too) with its bytes, to tell whether a run changed any. */
QMap<QString, QByteArray> filesIn(const QString& folder);

/**
 * Whether two maps drawn by QGIS are the same but for the anti-aliasing of their labels' glyphs: the same
 * size, no pixel more than 32 levels apart in any channel, at most 0.1 % of them apart at all. Qt's font
 * cache, which QGIS's text rendering goes through, drops and remakes its font engines on a timer, and a
 * remade engine's outlines can differ in their last bits, so that one release's maps drawn seconds apart in
 * one process may differ by a few levels at the edges of some letters (seen only after other tests drew
 * maps). A word, a shade or a line that differs moves pixels by far more.
 */
testing::AssertionResult sameButAntialiasing(const QImage& first, const QImage& second);

/** Returns the numeric result `name` of `run`, failing the test when there is none. */
qint64 number(const AlgorithmRun& run, const char* name);
/** Returns the output layer `name` of `run`, failing the test when there is none. */
QgsVectorLayer* outputLayer(const AlgorithmRun& run, const QString& name);

/**
 * Runs the algorithm `id` with `parameters`, through QgsProcessingAlgorithm::run() as QGIS does,
 * reads the OUTPUT layer and takes every output layer before the run's context goes away. A layer given as a
 * parameter must be a QgsVectorLayer pointer wrapped in a QVariant. With `canceled`, the user has already
 * canceled when the algorithm starts; with `cancelAtPercent` >= 0, the user cancels as soon as the
 * reported progress reaches it. `onInfo` sees every line of the log as the algorithm writes it.
 */
AlgorithmRun runAlgorithm(const QString& id, const QVariantMap& parameters, bool canceled = false,
                          double cancelAtPercent = -1.0,
                          const std::function<void(const QString&)>& onInfo = {});
/** Runs `algorithm` (a model, say) the same way. */
AlgorithmRun runAlgorithm(QgsProcessingAlgorithm& algorithm, const QVariantMap& parameters,
                          bool canceled = false, double cancelAtPercent = -1.0,
                          const std::function<void(const QString&)>& onInfo = {});
