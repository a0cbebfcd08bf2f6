#pragma once

#include "base/Types.h"
#include "data/CategoryValue.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vbas
{

/**
 * The generalization levels of one quasi-identifier (SPEC section 12): level 0 is the values as they
 * are, the last level is everything "*", and every level maps each category code to a group with a
 * label and an attribute loss. Levels nest: codes in one group at level i share a group at level i+1.
 * NULL stays a group of its own (label empty, loss 0) at every level below the last.
 */
class Hierarchy
{
public:
    /** One level above 0: the group of every category code, and per group its label and loss. */
    struct Level
    {
        /** How a user names the level in a limit ("5", "month", "3", "*"). */
        std::string name;
        std::vector<std::uint32_t> groupOf;
        std::vector<std::string> labels;
        /** Iyengar's loss of each group, 0 (as is) .. 1 (all "*"). */
        std::vector<double> loss;
        /** The group of NULL, if any category is NULL. */
        std::optional<std::uint32_t> nullGroup;
    };

    Hierarchy() = default;
    /**
     * A hierarchy of `values.size()` categories with the given levels above 0; appends the "*" level
     * when the last one has more than one group. Throws Error(Generalization) naming `quasiIdentifier`
     * when a level does not nest in the next.
     */
    Hierarchy(std::string quasiIdentifier, const std::vector<CategoryValue>& values,
              std::vector<Level> levels);

    const std::string& quasiIdentifier() const { return mQuasiIdentifier; }
    std::size_t categories() const { return mLevel0Labels.size(); }
    /** Number of levels, level 0 and the "*" level included. */
    std::size_t levels() const { return mLevels.size() + 1; }
    /** "0" for level 0, else the level's name. */
    std::string levelName(std::size_t level) const;
    /** The level a user names ("5", "month", "*", or a number of a level); throws Error listing the names. */
    std::size_t levelNamed(const std::string& name) const;
    /**
     * The first level above 0 at which the values (NULL and empty text aside) share one group: the level that
     * removes the quasi-identifier from the release ("*" at the latest). The highest level a search may use
     * lies below it unless the user allows removal ("max *").
     */
    std::size_t removalLevel() const;

    std::size_t groups(std::size_t level) const;
    /** Group of `category` at `level` (level 0: the category itself). */
    std::uint32_t group(std::size_t level, std::uint32_t category) const;
    /** Published label of a group (level 0: the value's text). */
    const std::string& label(std::size_t level, std::uint32_t group) const;
    /** Whether the group is NULL (published as NULL, not as a label). */
    bool isNull(std::size_t level, std::uint32_t group) const;
    double loss(std::size_t level, std::uint32_t group) const;

private:
    std::string mQuasiIdentifier;
    std::vector<std::string> mLevel0Labels;
    std::vector<bool> mLevel0Null;
    std::vector<Level> mLevels;
};

/** One hierarchy as a user writes it: "age: interval 5 10 20 max 10". */
struct HierarchySpec
{
    /** The kind that keeps a quasi-identifier as it is, even a numeric one ("age: none"). */
    static inline const std::string kNone = "none";

    std::string field;
    /** A kind id (interval, date, prefix, table, auto), or kNone. */
    std::string kind;
    std::vector<std::string> arguments;
    /** The highest level allowed, by name ("*" allows removal); empty: the level below removal. */
    std::string maxLevel;

    /** The spec as a user writes it: "age: interval 5 10 20 max 10". */
    std::string text() const;
};

/**
 * Parses GENERALIZATION text: specs separated by ';' or new lines, each "field: kind arguments
 * [max level]" or "field: none". Throws Error(Generalization) on a syntax error, an unknown kind
 * (listing the kinds) or a field named twice.
 */
std::vector<HierarchySpec> parseGeneralization(const std::string& text);

struct QuasiIdentifierHierarchy;
/** The hierarchies of a schema's quasi-identifiers, in its order; none for one kept as it is. */
using Hierarchies = std::vector<std::optional<QuasiIdentifierHierarchy>>;

/**
 * How the quasi-identifiers of a release may be generalized: the one description of it, parsed once from
 * what a user gives (GENERALIZATION's text and the ARX tables) or from an earlier release's ledger entry.
 * The configuration holds it (PipelineConfig::generalization); Pipeline::prepareHierarchies() builds the
 * hierarchies of a dataset from it, and a release carries what it built them as (builtAs()).
 */
struct Generalization
{
    std::vector<HierarchySpec> specs;
    /** The text of each field's ARX table (value;level1;level2;...). */
    std::map<std::string, std::string> tables;
    /** AutomaticBanding::byDefault: numeric quasi-identifiers no spec names get the automatic bands. */
    bool bandNumbers = false;

    /** Parses `text` (parseGeneralization()); throws Error(Generalization) as it does. */
    static Generalization parse(const std::string& text, std::map<std::string, std::string> tables = {},
                                bool bandNumbers = false);
    /** The text that parses into `specs` again: each spec's text, joined by "; ". */
    std::string text() const;
    /** Whether it asks for no hierarchy at all. */
    bool empty() const { return specs.empty() && tables.empty() && !bandNumbers; }
    /**
     * What `hierarchies`, built from this, were built as: a spec per hierarchy (its automatic bands
     * resolved), the tables they use and no automatic bands, so that a later release at their levels builds
     * the same hierarchies on its own records. Empty without any hierarchy.
     */
    Generalization builtAs(const Hierarchies& hierarchies) const;
};

/** A quasi-identifier's hierarchy with the highest level the search may use. */
struct QuasiIdentifierHierarchy
{
    Hierarchy hierarchy;
    std::size_t maxLevel = 0;
    /**
     * The spec it was built from, the automatic kind resolved into the interval it chose and the highest
     * level named: the text that builds the same levels on other records (a later release's).
     */
    HierarchySpec spec;
    /** Banded by the automatic kind (by default or as "auto"), which the log says. */
    bool automatic = false;

    /**
     * How `level` releases the values, in words that follow the field's name: "as it is", "in bands of 10",
     * "by month", "cut to its first 3 characters", "at level 2 of its table", "not released (all '*')".
     */
    std::string describeLevel(std::size_t level) const;
};

/** Whether any quasi-identifier has a hierarchy, so that a release searches generalization levels. */
bool generalizes(const Hierarchies& hierarchies);

/** What the automatic kind decides its bands from, besides the values (SPEC section 12). */
struct AutomaticBanding
{
    /** `records[i][c]`: the records holding category code c of quasi-identifier i. */
    std::vector<std::vector<Count>> records;
    /** The release's k: the end bands are widened until each holds at least k records. */
    Count k = 2;
    /** Numeric quasi-identifiers that no spec names get the automatic kind (else they stay as they are). */
    bool byDefault = true;
};

/**
 * Builds the hierarchy of every quasi-identifier a spec or a table names, in the order of
 * `quasiIdentifiers`, and with `automatic.byDefault` the automatic one of every numeric quasi-identifier
 * named by neither (none for the others and for "field: none"). `tables` maps a field name to the text of
 * its ARX table (value;level1;level2;...); a table without a spec is "field: table". `values[i]` gives the
 * value of every category code of quasi-identifier i. A spec without "max" may use every level below the
 * one that removes the quasi-identifier (Hierarchy::removalLevel()). Throws Error(Generalization) for a
 * field that is no quasi-identifier (listing them), a table spec without its table, a value missing from
 * a table, levels that do not nest, a kind that does not fit the values (a text for an interval) or bad
 * arguments.
 */
Hierarchies buildHierarchies(const std::vector<HierarchySpec>& specs,
                             const std::map<std::string, std::string>& tables,
                             const std::vector<std::string>& quasiIdentifiers,
                             const std::vector<std::vector<CategoryValue>>& values,
                             const AutomaticBanding& automatic);

} // namespace vbas
