#pragma once

#include "Hierarchy.h"

#include <string>
#include <vector>

namespace vbas
{

/**
 * One kind of hierarchy a user names in a spec ("interval", "date"...): its id (stored in scripts and
 * models: never rename), a one-line help and its builder. A new kind is one new file with its builder
 * plus one line in hierarchyKinds().
 */
struct HierarchyKind
{
    using Builder = Hierarchy (*)(const std::string& field, const std::vector<CategoryValue>& values,
                                  const std::vector<std::string>& arguments, const std::string* table);
    const char* id;
    const char* help;
    Builder build;
};

/** The registered kinds, in the order help lists them. */
const std::vector<HierarchyKind>& hierarchyKinds();
/** The kind `id`, or null. */
const HierarchyKind* findHierarchyKind(const std::string& id);

// The builders, one file each. `table` is the ARX table's text for the table kind, else null.
Hierarchy intervalHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                            const std::vector<std::string>& arguments, const std::string* table);
Hierarchy dateHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                        const std::vector<std::string>& arguments, const std::string* table);
Hierarchy prefixHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                          const std::vector<std::string>& arguments, const std::string* table);
Hierarchy tableHierarchy(const std::string& field, const std::vector<CategoryValue>& values,
                         const std::vector<std::string>& arguments, const std::string* table);

/**
 * A level whose groups are given by a key per category (NULL categories excluded): groups numbered in
 * key order, labelled by `label(key)`, each losing (m - 1) / (M - 1) for m of the M non-NULL categories
 * (SPEC section 12); NULL a group of its own. For code prefixes and tables.
 */
Hierarchy::Level levelOfKeys(std::string name, const std::vector<CategoryValue>& values,
                             const std::vector<std::string>& keys);

/** Puts every NULL category of `values` into one group of its own of `level` (label empty, loss 0). */
void addNullGroup(Hierarchy::Level& level, const std::vector<CategoryValue>& values);

/** Quotes a value for an error message. */
std::string quotedValue(const std::string& text);

} // namespace vbas
