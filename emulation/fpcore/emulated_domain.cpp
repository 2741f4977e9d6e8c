// Emulated FPCore arithmetic: bit-exact + - * / sqrt fma, every other function through MPFR.
#include "emulation/fpcore/emulated_domain.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/mpfr_number.hpp"
#include "emulation/fpcore/exact_number.hpp"
#include "emulation/fpcore/basic_arithmetic.hpp"
#include "emulation/fpcore/mpfr_functions.hpp"

namespace floatscope::emu::fpcore {

namespace {

/// MPFR scratch numbers of one thread: operands hold doubles exactly, results 64 or 256 bits.
struct Scratch {
    core::MpfrNumber operands[3] = {core::MpfrNumber(64), core::MpfrNumber(64), core::MpfrNumber(64)};
    core::MpfrNumber result64{64};
    core::MpfrNumber result256{256};
};
Scratch& scratch() {
    thread_local Scratch s;
    return s;
}

}  // namespace

EmulatedDomain::EmulatedDomain(const Program& program) {
    static const core::FormatSpec fp64 = core::parse_format("fp64");
    for (const RoundingContext& rc : program.contexts) {
        const Precision& p = rc.precision;
        if (p.kind == PrecisionKind::Real)
            throw Error(
                "precision 'real' cannot be emulated (no format rounds it); choose a format for it with --override");
        if (p.kind == PrecisionKind::Float && !p.emulable)
            throw Error(
                "precision " + p.name +
                " cannot be emulated: FloatScope's formats hold at most 52 significand bits and 11 exponent bits "
                "(--override all replaces it with the chosen format)");
        const bool integer = p.kind == PrecisionKind::Integer;
        const core::FormatSpec& format = integer ? fp64 : p.format;
        const core::RoundingOptions options{rc.mode, core::Tininess::AfterRounding, nullptr};
        contexts_.push_back(Context{integer, format, rc.mode, core::binary_geometry(format),
                                    Arithmetic(format, options), core::Rounder(format, options)});
    }
    literals_.resize(static_cast<std::size_t>(program.literal_count));
    visit_expressions(program, [&](const Expr& e) {
        if (e.literal < 0) return;
        double& value = literals_[static_cast<std::size_t>(e.literal)];
        if (e.kind == Expr::Kind::Number) {
            value = round_exact(e.context, e.number.exact());
        } else if (e.kind == Expr::Kind::Constant && e.constant != Constant::True && e.constant != Constant::False) {
            core::MpfrNumber truncated(64);
            const int ternary = mpfr_constant(e.constant, truncated.get(), MPFR_RNDZ);
            value = round_exact(e.context, exact_from_truncated(truncated.get(), ternary));
        }
    });
}

bool EmulatedDomain::fits(const Context& c, double x) {
    if (c.integer) return false;
    const std::uint64_t magnitude = std::bit_cast<std::uint64_t>(x) & ~(std::uint64_t{1} << 63);
    constexpr std::uint64_t infinity = 0x7ff0'0000'0000'0000;
    if (magnitude == 0 || magnitude >= infinity) return true;  // zeros, infinities and NaNs
    if (std::fabs(x) > c.geometry.max_finite) return false;
    // |x| = significand * 2^scale, an integer significand: read off the bits, no frexp or ldexp
    // (this test runs before every operation).
    constexpr std::uint64_t hidden = std::uint64_t{1} << 52;
    const int field = static_cast<int>(magnitude >> 52);
    const std::uint64_t significand = field == 0 ? magnitude : (magnitude & (hidden - 1)) | hidden;
    const int scale = std::max(field, 1) - 1075;
    const int binade = scale + static_cast<int>(std::bit_width(significand)) - 1;
    // x is a value of the format when its lowest set bit is no finer than the format's spacing in
    // that binade (the subnormal spacing below emin).
    const int spacing = std::max(binade, c.geometry.emin) - (c.geometry.precision - 1);
    return scale + std::countr_zero(significand) >= spacing;
}

double EmulatedDomain::round_exact(int context, const core::ExactValue& x) {
    const Context& c = contexts_[static_cast<std::size_t>(context)];
    if (c.integer) {
        // Integers: round to an integral value under the context's rounding (exact below 2^64).
        mpfr_ptr r = scratch().result256.get();
        x.to_mpfr(r);
        mpfr_rint(r, r, mpfr_rounding(c.mode));
        return mpfr_get_d(r, MPFR_RNDN);
    }
    const core::Rounded rounded = c.rounder(x);
    flags |= rounded.flags;
    return rounded.value;
}

double EmulatedDomain::apply_values(const Expr& e, const double* args, int count) {
    const Context& c = contexts_[static_cast<std::size_t>(e.context)];
    if (is_basic_arithmetic(e.op)) {
        bool all_fit = true;
        for (int i = 0; i < count; ++i) all_fit = all_fit && fits(c, args[i]);
        if (all_fit) {
            const core::Rounded r = c.arithmetic.apply_values(basic_operation(e.op), args[0], count > 1 ? args[1] : 0,
                                                              count > 2 ? args[2] : 0);
            flags |= r.flags;
            return r.value;
        }
    }
    if (e.op == Op::Neg && fits(c, args[0])) return args[0] == 0 && !c.format.has_negative_zero ? 0.0 : -args[0];
    return through_mpfr(e, args, count);
}

double EmulatedDomain::through_mpfr(const Expr& e, const double* args, int count) {
    const Context& c = contexts_[static_cast<std::size_t>(e.context)];
    Scratch& s = scratch();
    for (int i = 0; i < count; ++i) mpfr_set_d(s.operands[i].get(), args[i], MPFR_RNDN);  // exact: 53 <= 64 bits
    mpfr_ptr result = c.integer ? s.result256.get() : s.result64.get();
    const int ternary = mpfr_apply(e.op, result, s.operands[0].get(), s.operands[1].get(), s.operands[2].get(),
                                   c.integer ? MPFR_RNDN : MPFR_RNDZ, mpfr_rounding(c.mode));
    if (c.integer) {
        mpfr_rint(result, result, mpfr_rounding(c.mode));
        return mpfr_get_d(result, MPFR_RNDN);
    }
    // Invalid operations (sqrt(-1), log(-1), inf - inf) give NaN in MPFR; the rounder keeps it.
    const core::ExactValue exact = exact_from_truncated(result, ternary);
    if (exact.kind == core::ExactValue::Kind::NaN) flags.raise(core::ExceptionFlags::invalid);
    return round_exact(e.context, exact);
}

bool EmulatedDomain::test(const Expr& e, Op op, double x) const {
    switch (op) {
        case Op::IsFinite: return std::isfinite(x);
        case Op::IsInf: return std::isinf(x);
        case Op::IsNan: return std::isnan(x);
        case Op::Signbit: return std::signbit(x);
        default: {
            const Context& c = contexts_[static_cast<std::size_t>(e.context)];
            return std::isfinite(x) && x != 0 && (c.integer || std::fabs(x) >= c.geometry.min_normal);
        }
    }
}

long long EmulatedDomain::to_index(double x, const Expr& e) {
    if (!(x >= 0) || x != std::floor(x) || x > 9.0e15)
        fail_at(e.location, "expected a non-negative integer size or index, got " + std::to_string(x));
    return static_cast<long long>(x);
}

}  // namespace floatscope::emu::fpcore
