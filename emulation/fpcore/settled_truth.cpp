// The FPCore ground truth's precision: where it starts, and when two evaluations agree.
#include "emulation/fpcore/settled_truth.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::emu::fpcore {

TruthNeed truth_need(const core::FormatSpec& format) {
    TruthNeed need;
    if (format.kind != core::FormatKind::Binary) return need;
    const int p = format.mantissa_bits + 1;
    need.needed = 2 * p + 30;
    need.start = std::clamp(need.needed, 256, static_cast<int>(Real::max_precision));
    need.kept = std::max(80, p + truth_guard_bits);
    need.format = format.name;
    return need;
}

TruthNeed truth_need(const Program& program) {
    TruthNeed need;
    for (const RoundingContext& c : program.contexts) {
        if (c.precision.kind != PrecisionKind::Float || !c.precision.emulable) continue;
        TruthNeed of_context = truth_need(c.precision.format);
        if (of_context.needed > need.needed) need = std::move(of_context);
    }
    return need;
}

int chosen_start_precision(int requested, const TruthNeed& need) {
    if (requested == 0 || need.needed == 0) return requested == 0 ? need.start : requested;
    const int p = (need.needed - 30) / 2;
    if (requested < std::min(need.needed, static_cast<int>(Real::max_precision)))
        throw Error(
            fmt::format("--mpfr-precision {}: below the {} bits the ground truth needs for '{}' (2p + 30, "
                        "p = {}); give at least {}, or leave it out to have it chosen",
                        requested, std::min(need.needed, static_cast<int>(Real::max_precision)), need.format, p,
                        std::min(need.needed, static_cast<int>(Real::max_precision))));
    return requested;
}

bool agree(const std::vector<Real>& a, const std::vector<Real>& b, int bits) {
    if (a.size() != b.size()) return false;
    core::MpfrNumber difference(64);
    for (std::size_t i = 0; i < a.size(); ++i) {
        mpfr_srcptr x = a[i].get();
        mpfr_srcptr y = b[i].get();
        if (mpfr_nan_p(x) || mpfr_nan_p(y)) {
            if (!(mpfr_nan_p(x) && mpfr_nan_p(y))) return false;
            continue;
        }
        if (!mpfr_regular_p(x) || !mpfr_regular_p(y)) {
            if (!mpfr_equal_p(x, y)) return false;  // zeros and infinities only agree exactly
            continue;
        }
        // |x - y| <= 2^-bits |y|, compared by exponents: |x - y| < 2^exp(x - y) and 2^(exp(y) - 1) <= |y|.
        mpfr_sub(difference.get(), x, y, MPFR_RNDA);
        if (!mpfr_zero_p(difference.get()) && mpfr_get_exp(difference.get()) > mpfr_get_exp(y) - 1 - bits) return false;
    }
    return true;
}

}  // namespace floatscope::emu::fpcore
