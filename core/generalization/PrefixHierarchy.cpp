#include "HierarchyKinds.h"
#include "base/Error.h"

#include <cstdlib>

namespace vbas
{
namespace
{
/** The first `length` characters (UTF-8 code points) of `text`, or all of it when shorter. */
std::string prefixOf(const std::string& text, std::size_t length)
{
    std::size_t characters = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && characters++ == length)
            return text.substr(0, i);
    return text;
}
} // namespace

Hierarchy prefixHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                          const std::vector<std::string>& arguments, const std::string*)
{
    const auto fail = [&](const std::string& what)
    {
        return Error(Subject::Generalization, field + ": " + what);
    };
    std::vector<Hierarchy::Level> levels;
    std::size_t previous = 0;
    for (const std::string& word : arguments)
    {
        char* end = nullptr;
        const long length = std::strtol(word.c_str(), &end, 10);
        if (word.empty() || *end != '\0' || length < 1)
            throw fail(quotedValue(word) +
                       " is no length; give decreasing numbers of characters, as in 'prefix 3 1'");
        if (previous != 0 && std::size_t(length) >= previous)
            throw fail("the levels do not nest: " + word + " after " + std::to_string(previous) +
                       "; give decreasing lengths, as in 'prefix 3 1'");
        previous = std::size_t(length);
        std::vector<std::string> keys;
        for (const CategoryValue& value : values)
            keys.push_back(value.null ? std::string() : prefixOf(value.text, previous));
        levels.push_back(levelOfKeys(word, values, keys));
    }
    if (levels.empty())
        throw fail("a prefix hierarchy needs lengths, as in 'prefix 3 1'");
    return Hierarchy(field, values, std::move(levels));
}

} // namespace vbas
