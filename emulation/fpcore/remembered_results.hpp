// RememberedResults: the ground truth's recent results of costly functions, so that a program
// that computes the same sine twice pays for it once (FPBench's "arclength of a wiggly function
// (old version)" evaluates each of its sines twice, and they were half of a corpus run).
#pragma once

#include <vector>

#include "emulation/fpcore/operations.hpp"
#include "emulation/fpcore/real.hpp"

namespace floatscope::emu::fpcore {

/// A direct-mapped table of (function, operands bit for bit, precision) -> correctly rounded
/// result. MPFR rounds each function correctly, so a remembered result is the one computing it
/// again would give.
class RememberedResults {
public:
    RememberedResults();

    /// Whether op costs enough to be worth a lookup: the elementary and special functions
    /// (microseconds at 256 bits), not + - * / sqrt and the like (a lookup costs about as much).
    static bool worth_remembering(Op op);

    /// The result of op on the operands at the thread's current precision, if remembered.
    const Real* find(Op op, const Real* const* args, int count) const;
    /// Keeps op and copies of its operands in their entry, and returns the entry's result, at the
    /// current precision, for the caller to compute into (before an operand may change).
    Real& remember(Op op, const Real* const* args, int count);

private:
    static constexpr std::size_t entry_count = 128;
    static constexpr int max_operands = 2;  ///< pow, hypot, atan2
    struct Entry {
        Op op = Op::Add;
        int count = 0;  ///< 0: empty
        Real operands[max_operands];
        Real result;
    };
    static std::size_t slot(Op op, const Real* const* args, int count);

    std::vector<Entry> entries_;
};

}  // namespace floatscope::emu::fpcore
