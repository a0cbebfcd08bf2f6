#pragma once

#include <QVariant>
#include <QVector>

#include <cstdint>
#include <vector>

/**
 * Rows whose values come from a few per column, as released records do: each row a code per column into its
 * column's values, and the order the rows are written in (a row written several times is as many identical
 * records). Millions of records cost a few bytes each, and a writer converts each value once, not once per
 * row.
 */
struct VbasCodedRows
{
    std::vector<QVector<QVariant>> values; //!< per column: its values
    std::vector<std::uint32_t> codes;      //!< row after row: a code per column
    std::vector<std::uint32_t> order;      //!< the rows, in the order written
    bool numbered = false;                 //!< a first field numbers the rows written, from 1

    std::size_t columns() const { return values.size(); }
    /** The codes of the row written `i`-th. */
    const std::uint32_t* written(std::size_t i) const
    {
        return codes.data() + std::size_t(order[i]) * columns();
    }
    /**
     * Asks the processor for the codes of the row written `i` rows after `written`-th: rows come in shuffled
     * order, and a writer would otherwise wait on memory for each (most of its loop's time, measured).
     */
    void fetchAhead(std::size_t written) const
    {
        constexpr std::size_t kAhead = 16;
        if (written + kAhead < order.size())
            __builtin_prefetch(this->written(written + kAhead));
    }
};
