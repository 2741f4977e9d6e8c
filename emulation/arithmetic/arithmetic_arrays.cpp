// Arithmetic over arrays: a branch-free kernel per operation and rounding mode, which the compiler
// vectorizes, rounds every result that lies in the format's normal range and marks the others
// (tiny, overflow, special operands), which alone go through apply_values afterwards.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace floatscope::emu {

namespace {

using core::RoundingMode;

/// Short enough that a rare slow block costs little, long enough to amortize the dispatch.
constexpr std::size_t block_length = 256;

struct Operands {
    const double* a;
    const double* b;  ///< a's data when the operation has fewer operands (never read then)
    const double* c;
    double b_sign;  ///< -1 turns add into sub
};

template <Operation op, bool exact>
[[gnu::always_inline]] inline NearbyDouble nearby(double a, double b, double c) {
    if constexpr (op == Operation::Add) return nearby_sum(a, b, exact);
    if constexpr (op == Operation::Mul) return nearby_product(a, b);
    if constexpr (op == Operation::Div) return nearby_quotient(a, b);
    if constexpr (op == Operation::Sqrt) return nearby_root(a);
    if constexpr (op == Operation::Fma) return nearby_fma(a, b, c, exact);
    return {};
}

/// Rounds n results into out and marks in `failed` (1) those outside the normal range, whose out
/// is to be redone; returns whether any was. `inexact` says whether rounding changed a normal one.
template <Operation op, bool exact, RoundingMode mode>
FLOATSCOPE_KERNEL_CLONES bool round_block(const NormalRounding& plan, Operands in, double* __restrict out,
                                          std::uint8_t* __restrict failed, std::size_t n, bool& inexact) {
    const NormalRounding r = plan;  // a local copy: stores to out cannot alias it
    const double* __restrict a = in.a;
    const double* __restrict b = in.b;
    const double* __restrict c = in.c;
    const double b_sign = in.b_sign;
    std::uint64_t any_failed = 0, rounded = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t failed_here = 0, rounded_here = 0;
        const NearbyDouble near = nearby<op, exact>(a[i], b[i] * b_sign, c[i]);
        out[i] = std::bit_cast<double>(round_normal<mode>(r, near, failed_here, rounded_here));
        failed[i] = static_cast<std::uint8_t>(failed_here);
        any_failed |= failed_here;
        rounded |= rounded_here & (failed_here ^ 1);  // a redone result brings its own flags
    }
    inexact = rounded != 0;
    return any_failed != 0;
}

template <Operation op, bool exact>
bool round_block_in(RoundingMode mode, const NormalRounding& plan, Operands in, double* out, std::uint8_t* failed,
                    std::size_t n, bool& inexact) {
    switch (mode) {
        case RoundingMode::NearestEven:
            return round_block<op, exact, RoundingMode::NearestEven>(plan, in, out, failed, n, inexact);
        case RoundingMode::NearestAway:
            return round_block<op, exact, RoundingMode::NearestAway>(plan, in, out, failed, n, inexact);
        case RoundingMode::TowardZero:
            return round_block<op, exact, RoundingMode::TowardZero>(plan, in, out, failed, n, inexact);
        case RoundingMode::Upward:
            return round_block<op, exact, RoundingMode::Upward>(plan, in, out, failed, n, inexact);
        case RoundingMode::Downward:
            return round_block<op, exact, RoundingMode::Downward>(plan, in, out, failed, n, inexact);
        case RoundingMode::ToOdd: return round_block<op, exact, RoundingMode::ToOdd>(plan, in, out, failed, n, inexact);
        default:  // stochastic modes: never on the fast path; every result to be done one by one
            std::fill(failed, failed + n, std::uint8_t{1});
            return true;
    }
}

bool round_block_of(Operation op, RoundingMode mode, const NormalRounding& plan, Operands in, double* out,
                    std::uint8_t* failed, std::size_t n, bool& inexact) {
    switch (op) {
        case Operation::Add:
        case Operation::Sub:
            return plan.exact_sums ? round_block_in<Operation::Add, true>(mode, plan, in, out, failed, n, inexact)
                                   : round_block_in<Operation::Add, false>(mode, plan, in, out, failed, n, inexact);
        case Operation::Mul: return round_block_in<Operation::Mul, true>(mode, plan, in, out, failed, n, inexact);
        case Operation::Div: return round_block_in<Operation::Div, true>(mode, plan, in, out, failed, n, inexact);
        case Operation::Sqrt: return round_block_in<Operation::Sqrt, true>(mode, plan, in, out, failed, n, inexact);
        case Operation::Fma:
            return plan.exact_fmas ? round_block_in<Operation::Fma, true>(mode, plan, in, out, failed, n, inexact)
                                   : round_block_in<Operation::Fma, false>(mode, plan, in, out, failed, n, inexact);
    }
    std::fill(failed, failed + n, std::uint8_t{1});
    return true;
}

}  // namespace

core::ExceptionFlags Arithmetic::apply_arrays(Operation op, std::span<const double> a, std::span<const double> b,
                                              std::span<const double> c, std::span<double> out) const {
    const int count = operand_count(op);
    if (a.size() != out.size() || (count >= 2 && b.size() != a.size()) || (count >= 3 && c.size() != a.size()))
        throw Error(
            fmt::format("{} over arrays: operands of {}, {} and {} elements for {} results; each operand "
                        "the operation takes must have one element per result",
                        to_string(op), a.size(), b.size(), c.size(), out.size()));
    auto overlaps = [&](std::span<const double> x) {
        return !x.empty() && !out.empty() && std::less<>()(x.data(), out.data() + out.size()) &&
               std::less<>()(out.data(), x.data() + x.size());
    };
    if (overlaps(a) || (count >= 2 && overlaps(b)) || (count >= 3 && overlaps(c)))
        throw Error(fmt::format("{} over arrays: the results must not overlap the operands", to_string(op)));
    const Operands operands{a.data(), count >= 2 ? b.data() : a.data(), count >= 3 ? c.data() : a.data(),
                            op == Operation::Sub ? -1.0 : 1.0};
    core::ExceptionFlags flags;
    std::uint8_t failed[block_length];
    for (std::size_t start = 0; start < a.size(); start += block_length) {
        const std::size_t n = std::min(block_length, a.size() - start);
        const Operands block{operands.a + start, operands.b + (count >= 2 ? start : 0),
                             operands.c + (count >= 3 ? start : 0), operands.b_sign};
        bool inexact = false;
        const bool fast = fast_ != FastRounding::None;
        if (fast &&
            !round_block_of(op, rounder_.options().mode, normal_, block, out.data() + start, failed, n, inexact)) {
            if (inexact) flags.raise(core::ExceptionFlags::inexact);
            continue;
        }
        if (inexact) flags.raise(core::ExceptionFlags::inexact);
        // The results the kernel could not round (all of them without a fast path), one by one.
        for (std::size_t i = start; i < start + n; ++i) {
            if (fast && failed[i - start] == 0) continue;
            const core::Rounded r = apply_values(op, a[i], count >= 2 ? b[i] : 0, count >= 3 ? c[i] : 0);
            out[i] = r.value;
            flags |= r.flags;
        }
    }
    return flags;
}

}  // namespace floatscope::emu
