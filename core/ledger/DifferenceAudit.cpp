#include "DifferenceAudit.h"

#include "LinearBounds.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <unordered_map>

namespace vbas
{
namespace
{
/** Beyond these the parts or the atoms of a system are too many to solve; its cells are compared one by one.
 */
constexpr std::size_t kMaxRecordSets = 10;
constexpr std::size_t kMaxAtomsPerCell = 4096;
constexpr std::size_t kMaxUnknowns = 2500;
constexpr double kSlack = 1e-6;

class UnionFind
{
public:
    explicit UnionFind(std::size_t size)
        : mParent(size)
    {
        std::iota(mParent.begin(), mParent.end(), std::size_t(0));
    }
    std::size_t find(std::size_t x)
    {
        while (mParent[x] != x)
            x = mParent[x] = mParent[mParent[x]];
        return x;
    }
    void unite(std::size_t a, std::size_t b) { mParent[find(a)] = find(b); }

private:
    std::vector<std::size_t> mParent;
};

/**
 * The atoms of one quasi-identifier: the parts of its values that no release's labels split (elementary
 * intervals between every label's ends, or single texts), and the atoms each label of each release covers.
 */
struct ValueAtoms
{
    std::uint32_t count = 0;
    /** [release][label]: the atoms it covers; a release that does not publish the quasi-identifier covers
     * all. */
    std::vector<std::vector<std::vector<std::uint32_t>>> covered;
};

ValueAtoms valueAtoms(const std::vector<AuditedRelease>& releases, std::size_t qi)
{
    std::vector<double> ends;
    std::map<std::string, std::uint32_t> texts;
    for (const AuditedRelease& release : releases)
        for (const ValueSet& set : release.labels[qi])
        {
            for (const auto& [from, to] : set.intervals)
            {
                ends.push_back(from);
                ends.push_back(to);
            }
            for (const std::string& text : set.texts)
                texts.emplace(text, 0);
        }
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    // Elementary interval i is [ends[i], ends[i + 1]); numbered only when some label covers it.
    std::vector<std::uint32_t> intervalAtom(ends.empty() ? 0 : ends.size() - 1, ~0u);
    ValueAtoms atoms;
    const auto intervalsOf = [&](const ValueSet& set, const std::function<void(std::size_t)>& each)
    {
        for (const auto& [from, to] : set.intervals)
        {
            const auto first = std::size_t(std::lower_bound(ends.begin(), ends.end(), from) - ends.begin());
            const auto last = std::size_t(std::lower_bound(ends.begin(), ends.end(), to) - ends.begin());
            for (std::size_t i = first; i < last; ++i)
                each(i);
        }
    };
    for (const AuditedRelease& release : releases)
        for (const ValueSet& set : release.labels[qi])
            intervalsOf(set,
                        [&](std::size_t i)
                        {
                            if (intervalAtom[i] == ~0u)
                                intervalAtom[i] = atoms.count++;
                        });
    for (auto& [text, atom] : texts)
        atom = atoms.count++;
    atoms.covered.resize(releases.size());
    for (std::size_t r = 0; r < releases.size(); ++r)
    {
        const std::vector<ValueSet>& labels = releases[r].labels[qi];
        if (labels.empty())
            continue;
        for (const ValueSet& set : labels)
        {
            std::vector<std::uint32_t> covered;
            intervalsOf(set, [&](std::size_t i) { covered.push_back(intervalAtom[i]); });
            for (const std::string& text : set.texts)
                covered.push_back(texts.at(text));
            std::sort(covered.begin(), covered.end());
            covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
            atoms.covered[r].push_back(std::move(covered));
        }
    }
    return atoms;
}

/** A published cell with the atoms (region atom and value atoms together) it covers. */
struct BoxCell
{
    std::size_t release;
    std::size_t index; //!< in the release's cells
    Count count;
    std::vector<std::uint32_t> atoms; //!< sorted global atom ids (none when too many)
    /** Its region atoms and the value atoms of each quasi-identifier: equal for equal cells. */
    std::vector<std::uint32_t> signature;
};

/** The records of a part of the releases' record sets (an allowed combination of them) in one atom. */
struct Unknown
{
    std::uint32_t mask; //!< the record sets that hold these records
    std::uint32_t atom;
};

/** One connected system of cells and their atoms, with the unknowns the record sets make of them. */
class System
{
public:
    System(const std::vector<BoxCell>& cells, std::vector<std::size_t> members,
           const std::vector<std::uint32_t>& masks, const std::vector<std::size_t>& setOf,
           const std::vector<Count>& kOfSet)
        : mCells(cells)
        , mMembers(std::move(members))
    {
        std::vector<std::uint32_t> atoms;
        std::uint32_t used = 0;
        for (const std::size_t c : mMembers)
        {
            atoms.insert(atoms.end(), mCells[c].atoms.begin(), mCells[c].atoms.end());
            used |= 1u << setOf[mCells[c].release];
        }
        std::sort(atoms.begin(), atoms.end());
        atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
        // Sets without a cell here split nothing: the masks are read on the sets that have one.
        std::vector<std::uint32_t> projected;
        for (const std::uint32_t mask : masks)
            if ((mask & used) != 0)
                projected.push_back(mask & used);
        std::sort(projected.begin(), projected.end());
        projected.erase(std::unique(projected.begin(), projected.end()), projected.end());
        for (const std::uint32_t mask : projected)
        {
            Count k = 0;
            for (std::size_t s = 0; s < kOfSet.size(); ++s)
                if ((mask >> s) & 1u)
                    k = std::max(k, kOfSet[s]);
            for (const std::uint32_t atom : atoms)
            {
                mIndex[(std::uint64_t(mask) << 32) | atom] = mUnknowns.size();
                mUnknowns.push_back({mask, atom});
                mK.push_back(k);
            }
        }
        mSetOf = &setOf;
    }

    std::size_t unknowns() const { return mUnknowns.size(); }
    const std::vector<std::size_t>& members() const { return mMembers; }

    /**
     * The unknowns pinned between 1 and k - 1 by the cells `included` marks (by cell index); nullopt when no
     * count satisfies them all (the relations assumed do not hold).
     */
    std::optional<std::vector<bool>> pinned(const std::vector<bool>& included) const
    {
        std::vector<LinearBounds::Equation> equations;
        for (const std::size_t c : mMembers)
        {
            if (!included[c])
                continue;
            const BoxCell& cell = mCells[c];
            const std::uint32_t set = 1u << (*mSetOf)[cell.release];
            LinearBounds::Equation equation;
            equation.value = double(cell.count);
            for (const auto& [key, unknown] : mIndex)
                if ((std::uint32_t(key >> 32) & set) != 0 &&
                    std::binary_search(cell.atoms.begin(), cell.atoms.end(), std::uint32_t(key)))
                    equation.terms.emplace_back(unknown, 1.0);
            equations.push_back(std::move(equation));
        }
        const LinearBounds bounds(mUnknowns.size(), equations);
        if (!bounds.feasible())
            return std::nullopt;
        std::vector<bool> pinned(mUnknowns.size(), false);
        for (std::size_t u = 0; u < mUnknowns.size(); ++u)
        {
            if (mK[u] < 2 || bounds.minimum(u) < 1.0 - kSlack)
                continue;
            const std::optional<double> most = bounds.maximum(u);
            pinned[u] = most && *most <= double(mK[u] - 1) + kSlack;
        }
        return pinned;
    }

    std::uint32_t atomOf(std::size_t unknown) const { return mUnknowns[unknown].atom; }

private:
    const std::vector<BoxCell>& mCells;
    std::vector<std::size_t> mMembers;
    std::vector<Unknown> mUnknowns;
    std::vector<Count> mK;
    std::map<std::uint64_t, std::size_t> mIndex;
    const std::vector<std::size_t>* mSetOf = nullptr;
};

/** The masks of record sets that the relations between the sets allow. */
std::vector<std::uint32_t> allowedMasks(const std::vector<std::vector<RecordRelation>>& setRelations)
{
    const std::size_t sets = setRelations.size();
    std::vector<std::uint32_t> masks;
    for (std::uint32_t mask = 1; mask < (1u << sets); ++mask)
    {
        bool allowed = true;
        for (std::size_t a = 0; a < sets && allowed; ++a)
            for (std::size_t b = 0; b < sets && allowed; ++b)
            {
                const bool inA = (mask >> a) & 1u, inB = (mask >> b) & 1u;
                switch (setRelations[a][b])
                {
                case RecordRelation::Disjoint:
                    allowed = !(inA && inB);
                    break;
                case RecordRelation::Within:
                    allowed = !inA || inB;
                    break;
                case RecordRelation::Identical:
                    allowed = inA == inB;
                    break;
                case RecordRelation::Containing:
                case RecordRelation::Partial:
                    break;
                }
            }
        if (allowed)
            masks.push_back(mask);
    }
    return masks;
}
} // namespace

RecordRelation reversed(RecordRelation relation)
{
    switch (relation)
    {
    case RecordRelation::Within:
        return RecordRelation::Containing;
    case RecordRelation::Containing:
        return RecordRelation::Within;
    default:
        return relation;
    }
}

AuditOutcome auditReleases(const std::vector<AuditedRelease>& releases,
                           const std::vector<std::vector<RecordRelation>>& relations, Feedback& feedback)
{
    AuditOutcome outcome;
    if (releases.empty())
        return outcome;
    const std::size_t last = releases.size() - 1;
    outcome.withheld.assign(releases[last].cells.size(), false);
    if (releases.size() == 1)
        return outcome;

    // Record sets: identical releases share one.
    UnionFind identical(releases.size());
    for (std::size_t a = 0; a < releases.size(); ++a)
        for (std::size_t b = 0; b < releases.size(); ++b)
            if (relations[a][b] == RecordRelation::Identical)
                identical.unite(a, b);
    std::vector<std::size_t> setOf(releases.size()), representative;
    {
        std::map<std::size_t, std::size_t> setOfRoot;
        for (std::size_t r = 0; r < releases.size(); ++r)
        {
            const auto [found, added] = setOfRoot.emplace(identical.find(r), representative.size());
            if (added)
                representative.push_back(r);
            setOf[r] = found->second;
        }
    }
    const std::size_t sets = representative.size();
    std::vector<std::vector<RecordRelation>> setRelations(sets, std::vector<RecordRelation>(sets));
    std::vector<Count> kOfSet(sets, 0);
    for (std::size_t a = 0; a < sets; ++a)
        for (std::size_t b = 0; b < sets; ++b)
            setRelations[a][b] =
                a == b ? RecordRelation::Identical : relations[representative[a]][representative[b]];
    for (std::size_t r = 0; r < releases.size(); ++r)
        kOfSet[setOf[r]] = std::max(kOfSet[setOf[r]], releases[r].k);

    // The atoms: every region atom with every combination of value atoms some cell covers.
    const std::size_t q = releases[last].labels.size();
    std::vector<ValueAtoms> values;
    for (std::size_t i = 0; i < q; ++i)
        values.push_back(valueAtoms(releases, i));
    std::map<std::vector<std::uint32_t>, std::uint32_t> atomIds; // (region atom, value atoms...) -> id
    std::vector<BoxCell> cells;
    std::vector<bool> tooLarge;
    for (std::size_t r = 0; r < releases.size(); ++r)
        for (std::size_t c = 0; c < releases[r].cells.size(); ++c)
        {
            feedback.checkCanceled();
            const AuditedRelease::Cell& cell = releases[r].cells[c];
            std::vector<const std::vector<std::uint32_t>*> axes;
            std::vector<std::uint32_t> all;
            std::size_t size = cell.regionAtoms.size();
            std::vector<std::vector<std::uint32_t>> everyAtom(q);
            for (std::size_t i = 0; i < q; ++i)
            {
                if (releases[r].labels[i].empty())
                {
                    everyAtom[i].resize(values[i].count);
                    std::iota(everyAtom[i].begin(), everyAtom[i].end(), 0u);
                    axes.push_back(&everyAtom[i]);
                }
                else
                    axes.push_back(&values[i].covered[r].at(cell.labels[i]));
                size *= axes.back()->size();
            }
            BoxCell box{r, c, cell.count, {}, cell.regionAtoms};
            for (const std::vector<std::uint32_t>* axis : axes)
            {
                box.signature.push_back(~0u);
                box.signature.insert(box.signature.end(), axis->begin(), axis->end());
            }
            tooLarge.push_back(size > kMaxAtomsPerCell);
            if (!tooLarge.back())
            {
                std::vector<std::uint32_t> key(q + 1);
                std::vector<std::size_t> at(q, 0);
                for (const std::uint32_t regionAtom : cell.regionAtoms)
                {
                    key[0] = regionAtom;
                    std::fill(at.begin(), at.end(), 0);
                    for (bool more = size > 0; more;)
                    {
                        for (std::size_t i = 0; i < q; ++i)
                            key[i + 1] = (*axes[i])[at[i]];
                        box.atoms.push_back(
                            atomIds.emplace(key, std::uint32_t(atomIds.size())).first->second);
                        more = false;
                        for (std::size_t i = q; i-- > 0;)
                        {
                            if (++at[i] < axes[i]->size())
                            {
                                more = true;
                                break;
                            }
                            at[i] = 0;
                        }
                    }
                }
                std::sort(box.atoms.begin(), box.atoms.end());
            }
            cells.push_back(std::move(box));
        }

    // Systems: cells linked by the atoms they share.
    UnionFind linked(atomIds.size());
    for (const BoxCell& cell : cells)
        for (std::size_t i = 1; i < cell.atoms.size(); ++i)
            linked.unite(cell.atoms[0], cell.atoms[i]);
    std::map<std::size_t, std::vector<std::size_t>> systems;
    std::vector<std::size_t> cellByCell; // cells of systems too large to solve
    for (std::size_t c = 0; c < cells.size(); ++c)
    {
        if (tooLarge[c])
            cellByCell.push_back(c);
        else if (!cells[c].atoms.empty())
            systems[linked.find(cells[c].atoms[0])].push_back(c);
    }

    const std::vector<std::uint32_t> masks = allowedMasks(setRelations);
    std::vector<std::vector<RecordRelation>> partial(sets, std::vector<RecordRelation>(sets));
    for (std::size_t a = 0; a < sets; ++a)
        for (std::size_t b = 0; b < sets; ++b)
            partial[a][b] = setRelations[a][b] == RecordRelation::Disjoint ? RecordRelation::Disjoint
                            : a == b                                       ? RecordRelation::Identical
                                                                           : RecordRelation::Partial;
    const std::vector<std::uint32_t> looseMasks = allowedMasks(partial);
    std::vector<bool> included(cells.size(), true);
    // An earlier k is a floor for the same records: the last release's cells below the k of a release of
    // identical records go first.
    for (std::size_t c = 0; c < cells.size(); ++c)
        if (cells[c].release == last && cells[c].count < kOfSet[setOf[last]])
        {
            included[c] = false;
            outcome.withheld[cells[c].index] = true;
        }
    for (auto& [root, members] : systems)
    {
        feedback.checkCanceled();
        const bool hasLast = std::any_of(members.begin(), members.end(),
                                         [&](std::size_t c) { return cells[c].release == last; });
        const bool hasEarlier = std::any_of(members.begin(), members.end(),
                                            [&](std::size_t c) { return cells[c].release != last; });
        if (!hasLast || !hasEarlier)
            continue;
        if (sets > kMaxRecordSets)
        {
            cellByCell.insert(cellByCell.end(), members.begin(), members.end());
            continue;
        }
        // The relations as judged; if no count satisfies the cells under them, only disjointness is kept.
        std::optional<System> system(std::in_place, cells, members, masks, setOf, kOfSet);
        std::vector<bool> earlierOnly(cells.size(), false);
        for (const std::size_t c : members)
            earlierOnly[c] = cells[c].release != last;
        std::optional<std::vector<bool>> before;
        if (system->unknowns() <= kMaxUnknowns)
            before = system->pinned(earlierOnly);
        if (!before || !system->pinned(included))
        {
            // The relations judged do not hold (a correction among like records): only disjointness is kept,
            // and the cells are compared one by one too.
            system.emplace(cells, members, looseMasks, setOf, kOfSet);
            if (system->unknowns() <= kMaxUnknowns)
                before = system->pinned(earlierOnly);
            cellByCell.insert(cellByCell.end(), members.begin(), members.end());
        }
        if (system->unknowns() > kMaxUnknowns || !before)
        {
            cellByCell.insert(cellByCell.end(), members.begin(), members.end());
            continue;
        }
        outcome.pinnedBefore += std::size_t(std::count(before->begin(), before->end(), true));
        for (;;)
        {
            const std::optional<std::vector<bool>> now = system->pinned(included);
            if (!now)
                break; // withholding cannot make a satisfiable system unsatisfiable
            // Of the last release's cells over a newly pinned atom the smallest goes, else (the pin comes
            // from cells beside it) the smallest of the system.
            std::optional<std::size_t> over, beside;
            bool newPin = false;
            for (std::size_t u = 0; u < now->size(); ++u)
            {
                if (!(*now)[u] || (*before)[u])
                    continue;
                newPin = true;
                for (const std::size_t c : members)
                    if (cells[c].release == last && included[c] &&
                        std::binary_search(cells[c].atoms.begin(), cells[c].atoms.end(), system->atomOf(u)) &&
                        (!over || cells[c].count < cells[*over].count))
                        over = c;
            }
            if (!newPin)
                break;
            for (const std::size_t c : members)
                if (cells[c].release == last && included[c] &&
                    (!beside || cells[c].count < cells[*beside].count))
                    beside = c;
            const std::optional<std::size_t> withhold = over ? over : beside;
            if (!withhold)
                break;
            included[*withhold] = false;
            outcome.withheld[cells[*withhold].index] = true;
        }
    }

    // Cell by cell: a cell of the last release equal to an earlier one of overlapping records (partly
    // overlapping ones always; any, where the system was too large) may not differ from it by 1 to k - 1.
    std::vector<bool> compareAll(cells.size(), false);
    for (const std::size_t c : cellByCell)
        compareAll[c] = true;
    outcome.comparedCellByCell = cellByCell.size();
    std::map<std::vector<std::uint32_t>, std::vector<std::size_t>> lastByAtoms;
    for (std::size_t c = 0; c < cells.size(); ++c)
        if (cells[c].release == last)
            lastByAtoms[cells[c].signature].push_back(c);
    for (std::size_t c = 0; c < cells.size(); ++c)
    {
        const BoxCell& earlier = cells[c];
        if (earlier.release == last)
            continue;
        const RecordRelation relation = setRelations[setOf[earlier.release]][setOf[last]];
        if (relation == RecordRelation::Disjoint || (relation != RecordRelation::Partial && !compareAll[c]))
            continue;
        const auto found = lastByAtoms.find(earlier.signature);
        if (found == lastByAtoms.end())
            continue;
        const Count k = std::max(releases[earlier.release].k, releases[last].k);
        for (const std::size_t l : found->second)
        {
            const Count count = cells[l].count;
            const Count difference = count > earlier.count ? count - earlier.count : earlier.count - count;
            if (difference >= 1 && difference < k)
                outcome.withheld[cells[l].index] = true;
        }
    }
    return outcome;
}

} // namespace vbas
