#pragma once

#include "base/Error.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace vbas
{

/**
 * One option of a strategy, declared beside the code that reads it (as PDAL's addArgs()): a
 * stable key (stored in saved models and scripts: never rename; front ends show it as they
 * please, the QGIS layer upper-cased), a label, a type, a default, a range or choices, and help.
 * Strategies that read the same option declare the same spec (one shared helper).
 */
struct OptionSpec
{
    enum class Type
    {
        Integer, //!< a whole number in [minimum, maximum]
        Number,  //!< a real number in [minimum, maximum]
        Choice,  //!< one of `choices`, stable text values a strategy maps to its own enum
        Flag,    //!< on (1) or off (0)
    };

    std::string key;
    std::string label;
    Type type = Type::Number;
    /** Default of Integer, Number and Flag (0 or 1) options. */
    double defaultValue = 0.0;
    double minimum = -std::numeric_limits<double>::infinity();
    double maximum = std::numeric_limits<double>::infinity();
    std::vector<std::string> choices;
    std::string defaultChoice;
    /** Shown among the advanced settings. */
    bool advanced = false;
    std::string help;

    static OptionSpec integer(std::string key, std::string label, double defaultValue, double minimum,
                              double maximum, std::string help);
    static OptionSpec number(std::string key, std::string label, double defaultValue, double minimum,
                             double maximum, std::string help);
    static OptionSpec choice(std::string key, std::string label, std::vector<std::string> choices,
                             std::string defaultChoice, std::string help);
    static OptionSpec flag(std::string key, std::string label, bool defaultValue, std::string help);
    /** Returns this spec, shown among the advanced settings. */
    OptionSpec asAdvanced() const;

    /** Returns the range or choices a value must meet, for messages ("0 to 1", "one of: a, b"). */
    std::string allowed() const;
    /** Returns the index of `text` in `choices`, or throws Error(Option) naming the key and the choices. */
    std::size_t choiceIndex(const std::string& text) const;
};

/**
 * The options of one run, by key: a number or a text each. Strategies read them through typed
 * getters that take the option's spec and fall back to its default; validate() checks them
 * against a strategy's specs.
 */
class StrategyOptions
{
public:
    /** Sets a numeric option (Integer, Number, Flag). */
    StrategyOptions& set(const std::string& key, double value);
    /** Sets a Choice option to one of its text values. */
    StrategyOptions& set(const std::string& key, const std::string& text);
    StrategyOptions& set(const std::string& key, const char* text) { return set(key, std::string(text)); }

    bool has(const std::string& key) const { return mValues.count(key) > 0; }
    /** The keys set, in key order. */
    std::vector<std::string> keys() const;

    /** Value of a Number or Integer option, or its default. */
    double number(const OptionSpec& spec) const;
    /** Value of an Integer option with minimum >= 0, or its default. */
    std::uint64_t count(const OptionSpec& spec) const;
    /** Value of a Choice option, or its default; throws Error(Option) for a value not among the choices. */
    const std::string& choice(const OptionSpec& spec) const;
    /** Index of the value of a Choice option in its choices (so a strategy maps it to its enum). */
    std::size_t choiceIndex(const OptionSpec& spec) const { return spec.choiceIndex(choice(spec)); }
    bool flag(const OptionSpec& spec) const { return number(spec) != 0.0; }

    /**
     * Throws Error(Option) naming the key, the strategy and what is allowed when a value set for one of
     * `specs` has the wrong kind, lies outside the range, is not whole (Integer, Flag) or is not among
     * the choices. Keys not in `specs` are left to other strategies.
     */
    void validate(const std::vector<OptionSpec>& specs, const std::string& strategyId) const;

private:
    struct Value
    {
        bool isText = false;
        double number = 0.0;
        std::string text;
    };
    const Value* find(const OptionSpec& spec) const;

    std::map<std::string, Value> mValues;
};

/** The seed option shared by every seeded strategy ("seed", Integer, default 1). */
OptionSpec seedOption();

} // namespace vbas
