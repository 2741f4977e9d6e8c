// The ground truth's precision by exactness: an FPCore result re-evaluated with twice the bits
// until it settles, since cancellation can leave too few correct bits at any fixed precision.
#pragma once

#include <string>
#include <vector>

#include "emulation/fpcore/program.hpp"
#include "emulation/fpcore/real.hpp"
#include "emulation/fpcore/truth_domain.hpp"

namespace floatscope::emu::fpcore {

/// Bits beyond the widest format's p that the truth must get right: a result that agrees to
/// p + guard bits at two precisions is taken as the real one rounded to the format.
constexpr int truth_guard_bits = 30;

/// What the truth of one program needs: `start` bits to begin with (2p + 30 of the widest format of
/// its contexts, 256 at least, at most Real::max_precision) and `kept` correct bits in its results
/// (p + truth_guard_bits, 80 at least: the narrow formats' rule before). `format` names that
/// widest format ("" without one).
struct TruthNeed {
    int start = 256;
    int kept = 80;
    int needed = 0;  ///< 2p + 30, which an explicit precision must reach (even above the cap)
    std::string format;
};
TruthNeed truth_need(const Program& program);
/// The need of one format (binary formats; others need the 256 bits of the start).
TruthNeed truth_need(const core::FormatSpec& format);

/// The start for `requested` bits (0: automatic, need.start); throws floatscope::Error with the
/// reason when `requested` is below what the program's widest format needs (or above the cap).
int chosen_start_precision(int requested, const TruthNeed& need);

/// Whether two results agree to `bits` relative bits (NaNs with NaNs, infinities and zeros exactly).
bool agree(const std::vector<Real>& a, const std::vector<Real>& b, int bits);

struct SettledTruth {
    std::vector<Real> values;
    int precision = 0;  ///< the bits of the evaluation `values` come from
    bool settled = true;  ///< false: the cap was reached with the last two evaluations disagreeing
};

/// Evaluates (`evaluate()`, which returns the flattened result at the thread's Real precision) at
/// `start` bits; while an addition cancelled more than all but `kept` bits (TruthDomain::cancelled),
/// again at twice the bits, until two evaluations in a row agree to `kept` bits (a cancellation
/// to zero is never taken on agreement, except at the cap: sqrt(x + 1) - sqrt(x) is 0 at 256 bits
/// for x = 10^300) or Real::max_precision is reached. Leaves the precision at `start`.
template <class Evaluate>
SettledTruth settle_truth(const TruthDomain& truth, int start, int kept, Evaluate evaluate) {
    truth.set_kept_bits(kept);
    SettledTruth out;
    std::vector<Real> previous;
    for (int bits = start;; bits *= 2) {
        truth.set_precision(bits);
        truth.reset_cancelled();
        out.values = evaluate();
        out.precision = bits;
        const TruthDomain::Cancellation cancelled = truth.cancelled();
        const bool at_cap = bits * 2 > Real::max_precision;
        const bool agrees = !previous.empty() && agree(previous, out.values, kept);
        if (cancelled == TruthDomain::Cancellation::None ||
            (agrees && (cancelled == TruthDomain::Cancellation::Partial || at_cap)))
            break;
        if (at_cap) {
            out.settled = false;
            break;
        }
        previous = std::move(out.values);
    }
    truth.set_precision(start);
    return out;
}

}  // namespace floatscope::emu::fpcore
