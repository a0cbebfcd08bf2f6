// The process's resident memory, for benchmarks that print what a run needs; run such a benchmark alone
// (--benchmark_filter), since the peak covers everything the process did before.
#pragma once

#include <fstream>
#include <string>

namespace vbas::bench
{

/** A field of /proc/self/status in KiB (VmHWM: the peak resident memory, VmRSS: the current), as MiB. */
inline double statusMiB(const std::string& field)
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key)
    {
        if (key == field + ":")
        {
            double kib = 0;
            status >> kib;
            return kib / 1024.0;
        }
        status.ignore(1 << 10, '\n');
    }
    return 0;
}

/** Peak resident memory of the process (VmHWM), MiB. */
inline double peakMemoryMiB()
{
    return statusMiB("VmHWM");
}

/** Resident memory of the process now (VmRSS), MiB. */
inline double residentMemoryMiB()
{
    return statusMiB("VmRSS");
}

} // namespace vbas::bench
