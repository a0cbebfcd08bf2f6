#include "StrategyOptions.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace vbas
{
namespace
{
std::string text(double value)
{
    std::ostringstream stream;
    stream << value;
    return stream.str();
}

std::string joined(const std::vector<std::string>& values)
{
    std::string list;
    for (const std::string& value : values)
        list += (list.empty() ? "" : ", ") + value;
    return list;
}
} // namespace

OptionSpec OptionSpec::integer(std::string key, std::string label, double defaultValue, double minimum,
                               double maximum, std::string help)
{
    OptionSpec spec =
        number(std::move(key), std::move(label), defaultValue, minimum, maximum, std::move(help));
    spec.type = Type::Integer;
    return spec;
}

OptionSpec OptionSpec::number(std::string key, std::string label, double defaultValue, double minimum,
                              double maximum, std::string help)
{
    OptionSpec spec;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.type = Type::Number;
    spec.defaultValue = defaultValue;
    spec.minimum = minimum;
    spec.maximum = maximum;
    spec.help = std::move(help);
    return spec;
}

OptionSpec OptionSpec::choice(std::string key, std::string label, std::vector<std::string> choices,
                              std::string defaultChoice, std::string help)
{
    OptionSpec spec;
    spec.key = std::move(key);
    spec.label = std::move(label);
    spec.type = Type::Choice;
    spec.choices = std::move(choices);
    spec.defaultChoice = std::move(defaultChoice);
    spec.help = std::move(help);
    return spec;
}

OptionSpec OptionSpec::flag(std::string key, std::string label, bool defaultValue, std::string help)
{
    OptionSpec spec =
        number(std::move(key), std::move(label), defaultValue ? 1.0 : 0.0, 0.0, 1.0, std::move(help));
    spec.type = Type::Flag;
    return spec;
}

OptionSpec OptionSpec::asAdvanced() const
{
    OptionSpec spec = *this;
    spec.advanced = true;
    return spec;
}

std::string OptionSpec::allowed() const
{
    switch (type)
    {
    case Type::Choice:
        return "one of: " + joined(choices);
    case Type::Flag:
        return "0 (off) or 1 (on)";
    case Type::Integer:
    case Type::Number:
        break;
    }
    const std::string kind = type == Type::Integer ? "a whole number" : "a number";
    if (std::isinf(minimum) && std::isinf(maximum))
        return kind;
    if (std::isinf(maximum))
        return kind + " of at least " + text(minimum);
    if (std::isinf(minimum))
        return kind + " of at most " + text(maximum);
    return kind + " from " + text(minimum) + " to " + text(maximum);
}

std::size_t OptionSpec::choiceIndex(const std::string& value) const
{
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (choices[i] == value)
            return i;
    throw optionError(key, "'" + value + "' is not a choice; give " + allowed());
}

StrategyOptions& StrategyOptions::set(const std::string& key, double value)
{
    mValues[key] = Value{false, value, {}};
    return *this;
}

StrategyOptions& StrategyOptions::set(const std::string& key, const std::string& value)
{
    mValues[key] = Value{true, 0.0, value};
    return *this;
}

std::vector<std::string> StrategyOptions::keys() const
{
    std::vector<std::string> keys;
    for (const auto& [key, value] : mValues)
        keys.push_back(key);
    return keys;
}

const StrategyOptions::Value* StrategyOptions::find(const OptionSpec& spec) const
{
    const auto it = mValues.find(spec.key);
    if (it == mValues.end())
        return nullptr;
    if (it->second.isText != (spec.type == OptionSpec::Type::Choice))
        throw optionError(
            spec.key, "got " + (it->second.isText ? "'" + it->second.text + "'" : text(it->second.number)) +
                          "; give " + spec.allowed());
    return &it->second;
}

double StrategyOptions::number(const OptionSpec& spec) const
{
    const Value* value = find(spec);
    return value ? value->number : spec.defaultValue;
}

std::uint64_t StrategyOptions::count(const OptionSpec& spec) const
{
    const double value = number(spec);
    if (!(value >= 0.0 && value < 18446744073709551616.0) || value != std::floor(value))
        throw optionError(spec.key, "got " + text(value) + "; give " + spec.allowed());
    return static_cast<std::uint64_t>(value);
}

const std::string& StrategyOptions::choice(const OptionSpec& spec) const
{
    const Value* value = find(spec);
    const std::string& chosen = value ? value->text : spec.defaultChoice;
    spec.choiceIndex(chosen);
    return chosen;
}

void StrategyOptions::validate(const std::vector<OptionSpec>& specs, const std::string& strategyId) const
{
    for (const OptionSpec& spec : specs)
    {
        const auto it = mValues.find(spec.key);
        if (it == mValues.end())
            continue;
        const Value& value = it->second;
        const std::string given = value.isText ? "'" + value.text + "'" : text(value.number);
        const auto refuse = [&]()
        {
            throw optionError(spec.key, strategyId + " takes " + spec.allowed() + "; got " + given);
        };
        if (value.isText != (spec.type == OptionSpec::Type::Choice))
            refuse();
        switch (spec.type)
        {
        case OptionSpec::Type::Choice:
            if (std::find(spec.choices.begin(), spec.choices.end(), value.text) == spec.choices.end())
                refuse();
            break;
        case OptionSpec::Type::Integer:
        case OptionSpec::Type::Flag:
            if (value.number != std::floor(value.number))
                refuse();
            [[fallthrough]];
        case OptionSpec::Type::Number:
            if (!(value.number >= spec.minimum && value.number <= spec.maximum))
                refuse();
            break;
        }
    }
}

OptionSpec seedOption()
{
    return OptionSpec::integer("seed", "Random seed", 1, 0, std::numeric_limits<double>::infinity(),
                               "Seed of the random site location: the same seed gives the same release.")
        .asAdvanced();
}

} // namespace vbas
