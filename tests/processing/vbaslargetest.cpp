// A million records: vbas:aggregateregions on a CSV of 1,000,000 patients over 400 small areas, written
// to files and checked like every release (verifier, every record recounted). Prints the time and the
// peak memory of the process. Too slow for the default run: registered as the ctest label "large"
// (see tests/processing/CMakeLists.txt).

#include "processingtestutils.h"
#include "realdata.h"
#include "releasecheck.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>

#include <gtest/gtest.h>

#include <iostream>
#include <random>

namespace
{
constexpr int kRecords = 1000000;
constexpr int kColumns = 20; //!< 20 x 20 = 400 small areas

/** Returns the peak resident memory of this process in MiB (Linux: VmHWM). */
double peakMemoryMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0.0;
    for (const QByteArray& line : status.readAll().split('\n'))
    {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return 0.0;
}
} // namespace

TEST(Large, AMillionRecordsFromACsvFile)
{
    QList<QVariant> ids;
    for (int i = 0; i < kColumns * kColumns; ++i)
        ids << QStringLiteral("t%1").arg(i, 3, 10, QLatin1Char('0'));
    const auto regions = makeGrid(kColumns, ids);

    // Patients spread unevenly (the first areas hold more), with four quasi-identifiers.
    const OutputFolder folder;
    const QString csv = folder.path(QStringLiteral("patients.csv"));
    {
        QFile file(csv);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        QTextStream out(&file);
        out << "rid,tract,age_band,sex,married,insurance\n";
        std::mt19937_64 random(1000000);
        std::geometric_distribution<int> area(0.01);
        for (int i = 0; i < kRecords; ++i)
            out << i << ",t" << QStringLiteral("%1").arg(area(random) % ids.size(), 3, 10, QLatin1Char('0'))
                << ",a" << random() % 8 << ',' << (random() % 2 ? 'F' : 'M') << ','
                << (random() % 3 ? "yes" : "no") << ',' << (random() % 2 ? "private" : "public") << '\n';
        QFile types(folder.path(QStringLiteral("patients.csvt")));
        ASSERT_TRUE(types.open(QIODevice::WriteOnly));
        types.write("Integer,String,String,String,String,String\n");
    }
    const auto records =
        std::make_unique<QgsVectorLayer>(csv, QStringLiteral("patients"), QStringLiteral("ogr"));
    ASSERT_TRUE(records->isValid());
    ASSERT_EQ(records->featureCount(), kRecords);

    const QStringList quasiIdentifiers{"age_band", "sex", "married"};
    QVariantMap parameters{
        {"REGIONS", asParameter(regions.get())},           {"REGION_ID_FIELD", "id"},
        {"RECORDS", asParameter(records.get())},           {"RECORD_REGION_FIELD", "tract"},
        {"QUASI_IDENTIFIERS", quasiIdentifiers},           {"K", 5},
        {"SITE_COUNT_METHOD", "sitecount.naive_anonymity"}};
    parameters = folder.release(parameters);
    QElapsedTimer timer;
    timer.start();
    const AlgorithmRun run = runAlgorithm(QStringLiteral("vbas:aggregateregions"), parameters);
    const double seconds = double(timer.elapsed()) / 1000.0;
    ASSERT_TRUE(run.ok) << run.errors.toStdString();
    std::cout << "[ figures  ] 1,000,000 records on 400 small areas, files in and out: " << seconds
              << " s, peak memory of the process " << peakMemoryMiB() << " MiB\n";

    timer.start();
    const ReleaseRecount recount = expectSoundRelease(
        run, {regions.get(), "id", records.get(), "tract", "rid", quasiIdentifiers, QString(), 5});
    std::cout << "[ figures  ] checked by the verifier and recounted in " << double(timer.elapsed()) / 1000.0
              << " s\n";
    EXPECT_EQ(recount.input, kRecords);
    EXPECT_GT(recount.released, kRecords * 9 / 10)
        << "8 x 2 x 2 = 32 classes, 2,500 records per area on average";
}
