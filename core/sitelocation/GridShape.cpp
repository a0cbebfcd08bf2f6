#include "GridShape.h"

#include <algorithm>
#include <cmath>

namespace vbas
{

GridShape gridShape(std::size_t cells, double width, double height)
{
    std::size_t rows = 1;
    if (height > 0.0 && cells > 0)
    {
        const double ratio = width / height;
        rows =
            std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(std::sqrt(double(cells) / ratio))));
    }
    const std::size_t columns = std::max<std::size_t>(1, cells / rows);
    return {rows, columns};
}

} // namespace vbas
