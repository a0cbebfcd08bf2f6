#pragma once

#include "Hierarchy.h"

#include <optional>
#include <string>
#include <vector>

namespace vbas
{

/**
 * One kind of hierarchy a user names in a spec ("interval", "date"...): its id (stored in scripts and
 * models: never rename), a one-line help, and its builder or its resolver. A new kind is one new file with
 * its builder (or resolver) plus one line in hierarchyKinds().
 */
struct HierarchyKind
{
    using Builder = Hierarchy (*)(const std::string& field, const std::vector<CategoryValue>& values,
                                  const std::vector<std::string>& arguments, const std::string* table);
    /**
     * Turns a spec of this kind into one of a kind with a builder, its arguments decided from the values,
     * the records holding each and k; or into HierarchySpec::kNone when the values give no levels.
     */
    using Resolver = HierarchySpec (*)(const HierarchySpec& spec, const std::vector<CategoryValue>& values,
                                       const std::vector<Count>& records, Count k);
    const char* id;
    const char* help;
    /** Builds the levels; null for a kind that resolves into another. */
    Builder build;
    Resolver resolve = nullptr;
};

/** The automatic kind: numbers banded by widths and end bands chosen from the data (AutomaticHierarchy.cpp).
 */
inline constexpr const char* kAutomaticKind = "auto";

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
/** The automatic kind's resolver: an interval spec (AutomaticHierarchy.cpp). */
HierarchySpec automaticIntervals(const HierarchySpec& spec, const std::vector<CategoryValue>& values,
                                 const std::vector<Count>& records, Count k);

/**
 * The number a category holds: a numeric field's, or its text's when the whole text is one ("42", "0.5");
 * none for NULL and other text.
 */
std::optional<double> numberOf(const CategoryValue& value);
/** Whether a category is empty text, no number or date: a missing value as a CSV or a form leaves it. */
bool isEmptyText(const CategoryValue& value);
/**
 * Whether a quasi-identifier is numeric, the automatic kind's default: a number in every category but
 * NULL and empty text (at least one), none of them text with a leading zero ("01001" is a code).
 */
bool numericValues(const std::vector<CategoryValue>& values);

/**
 * A level whose groups are given by a key per category (NULL categories excluded): groups numbered in
 * key order, labelled by `label(key)`, each losing (m - 1) / (M - 1) for m of the M non-NULL categories
 * (SPEC section 12); NULL a group of its own. For code prefixes and tables.
 */
Hierarchy::Level levelOfKeys(std::string name, const std::vector<CategoryValue>& values,
                             const std::vector<std::string>& keys);

/** Puts every NULL category of `values` into one group of its own of `level` (label empty, loss 0). */
void addNullGroup(Hierarchy::Level& level, const std::vector<CategoryValue>& values);
/**
 * Puts every empty-text category of `values` (isEmptyText()) into one group of its own of `level`, published
 * as empty text (loss 0): kinds that read numbers or dates keep a missing value apart, as NULL.
 */
void addEmptyTextGroup(Hierarchy::Level& level, const std::vector<CategoryValue>& values);

/** Quotes a value for an error message. */
std::string quotedValue(const std::string& text);

} // namespace vbas
