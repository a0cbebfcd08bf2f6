#pragma once

#include <stdexcept>
#include <string>

namespace vbas
{

/**
 * What an error is about, so a front end can name its own parameter (the QGIS layer maps
 * Subject::RecordRegion to RECORD_REGION_FIELD, for example) without parsing messages.
 */
enum class Subject
{
    General,
    Regions,         //!< the initial regions (ids, geometries, points)
    Records,         //!< the record table as a whole
    RecordRegion,    //!< the region reference of records
    RecordCount,     //!< the count (weight) of records
    QuasiIdentifier, //!< quasi-identifier schema or values
    K,               //!< the required anonymity
    SiteCount,       //!< the number of sites or its estimation parameters
    SiteLocation,    //!< site location parameters or given sites
    Partition,       //!< partition parameters (obstacles, parent field...)
    Strategy,        //!< an unknown strategy id
    Option,          //!< an option of a strategy, named by Error::option()
    Sensitive,       //!< the sensitive fields and their l-diversity rule
    Generalization,  //!< generalization hierarchies and their levels
    Ledger,          //!< the release ledger: what earlier releases of the same records allow
    Cases,           //!< the cases of a rate release (counts per small area, or per stratum)
    Population,      //!< the population of a rate release (per small area, or per stratum)
};

/**
 * A problem a user can fix. The message says what is wrong and what to do, in the engine's own
 * words; front ends prefix their parameter name for subject().
 */
class Error : public std::runtime_error
{
public:
    Error(Subject subject, const std::string& message)
        : std::runtime_error(message)
        , mSubject(subject)
    {
    }
    /** An error about the strategy option `option`: what() reads "<option>: <detail>". */
    Error(std::string option, const std::string& detail)
        : std::runtime_error(option + ": " + detail)
        , mSubject(Subject::Option)
        , mOption(std::move(option))
        , mDetail(detail)
    {
    }
    Subject subject() const { return mSubject; }
    /** The key of the option at fault (Subject::Option), else empty. */
    const std::string& option() const { return mOption; }
    /** The message without the option key (Subject::Option), else what(). */
    std::string detail() const { return mOption.empty() ? what() : mDetail; }

private:
    Subject mSubject;
    std::string mOption;
    std::string mDetail;
};

/** Returns Error(Subject::Option) about the option `key`: `detail` says what is wrong and what to do. */
inline Error optionError(const std::string& key, const std::string& detail)
{
    return Error(key, detail);
}

/** Thrown when the user cancels; callers discard partial results. */
class Canceled : public std::runtime_error
{
public:
    Canceled()
        : std::runtime_error("canceled by the user")
    {
    }
};

} // namespace vbas
