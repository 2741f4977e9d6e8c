// Sums and GEMMs accumulated in __float128: exact products of doubles, one binary128 rounding per step.
#include "emulation/accumulation/binary128_accumulation.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/rounding.hpp"
#include "emulation/accumulation/kernels/native_formats.hpp"

namespace floatscope::emu {

namespace {

using Quad = __float128;

/// The exact value of a binary128 number as core's Rounder reads it: its 113-bit significand's
/// leading 64 bits and a sticky bit for the rest.
core::ExactValue exact_value(Quad q) {
    unsigned __int128 bits;
    std::memcpy(&bits, &q, sizeof bits);
    const bool negative = (bits >> 127) != 0;
    const auto field = static_cast<std::int64_t>((bits >> 112) & 0x7FFF);
    const unsigned __int128 fraction = bits & ((static_cast<unsigned __int128>(1) << 112) - 1);
    if (field == 0x7FFF)
        return fraction == 0 ? core::ExactValue::infinity(negative) : core::ExactValue::quiet_nan(negative);
    if (field == 0 && fraction == 0) return core::ExactValue::zero(negative);
    // |q| = significand * 2^(scale), significand below 2^113.
    const unsigned __int128 significand = field == 0 ? fraction : fraction | (static_cast<unsigned __int128>(1) << 112);
    const std::int64_t scale = (field == 0 ? 1 : field) - 16383 - 112;
    const auto high = static_cast<std::uint64_t>(significand >> 64), low = static_cast<std::uint64_t>(significand);
    const int width = high != 0 ? 128 - std::countl_zero(high) : 64 - std::countl_zero(low);
    core::ExactValue v;
    v.kind = core::ExactValue::Kind::Finite;
    v.negative = negative;
    v.exponent = scale + width - 1;
    // The leading 64 bits, left-aligned; the bits below them make the sticky bit.
    if (width >= 64) {
        v.significand = static_cast<std::uint64_t>(significand >> (width - 64));
        v.sticky = (significand & ((static_cast<unsigned __int128>(1) << (width - 64)) - 1)) != 0;
    } else {
        v.significand = static_cast<std::uint64_t>(significand) << (64 - width);
    }
    return v;
}

Quad product(double x, double y) { return static_cast<Quad>(x) * static_cast<Quad>(y); }  // exact

struct Entry {
    const AccumulationModel& m;
    const double* x;
    const double* y;  ///< nullptr: a sum of x alone, no products (a software multiply each saved)
    std::ptrdiff_t y_stride;

    Quad term(std::size_t i) const {
        return y == nullptr ? static_cast<Quad>(x[i]) : product(x[i], y[static_cast<std::ptrdiff_t>(i) * y_stride]);
    }

    Quad sequential(std::size_t begin, std::size_t end, Quad s) const {
        if (!m.compensated) {
            for (std::size_t i = begin; i < end; ++i) s = s + term(i);  // the exact product, rounded once
            return s;
        }
        Quad c = 0;  // Kahan (1965)
        for (std::size_t i = begin; i < end; ++i) {
            const Quad corrected = term(i) - c;
            const Quad next = s + corrected;
            c = (next - s) - corrected;
            s = next;
        }
        return s;
    }

    Quad pairwise(std::size_t begin, std::size_t end) const {
        const std::size_t n = end - begin;
        if (n == 1) return term(begin);  // a leaf is exact; a pair of them is rounded once
        const std::size_t left = std::bit_floor(n - 1);
        return pairwise(begin, begin + left) + pairwise(begin + left, end);
    }

    Quad accumulate(std::size_t k, Quad initial) const {
        switch (m.order) {
            case AccumulationOrder::Pairwise: return k == 0 ? Quad(0) : pairwise(0, k);
            case AccumulationOrder::Blocked: {
                Quad total = initial;
                const auto block = static_cast<std::size_t>(m.block_size);
                for (std::size_t begin = 0; begin < k; begin += block)
                    total = total + (m.block_order == AccumulationOrder::Pairwise
                                         ? pairwise(begin, std::min(k, begin + block))
                                         : sequential(begin, std::min(k, begin + block), 0));
                return total;
            }
            default: return sequential(0, k, initial);
        }
    }
};

}  // namespace

bool is_binary128_rne(const core::FormatRounding& rounding) {
    return detail::is_ieee_binary(rounding.format, 15, 112) && rounding.mode == core::RoundingMode::NearestEven;
}

namespace {

core::Rounder output_rounder(const AccumulationModel& model) {
    return core::Rounder(model.output.format, {model.output.mode, core::Tininess::AfterRounding, nullptr});
}

}  // namespace

double binary128_sum(const AccumulationModel& model, std::span<const double> x) {
    const Entry entry{model, x.data(), nullptr, 0};
    return output_rounder(model)(exact_value(entry.accumulate(x.size(), 0))).value;
}

void binary128_gemm(const AccumulationModel& model, const double* a, const double* b, double* c, std::size_t m,
                    std::size_t k, std::size_t n, std::span<const double> addend) {
    const core::Rounder output = output_rounder(model);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const Entry entry{model, a + i * k, b + j, static_cast<std::ptrdiff_t>(n)};
            const Quad initial = addend.empty() ? Quad(0) : static_cast<Quad>(addend[i * n + j]);
            c[i * n + j] = output(exact_value(entry.accumulate(k, initial))).value;
        }
}

void binary128_gemm_exact(const AccumulationModel& model, const double* a, const double* b, __float128* c,
                          std::size_t m, std::size_t k, std::size_t n) {
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j)
            c[i * n + j] = Entry{model, a + i * k, b + j, static_cast<std::ptrdiff_t>(n)}.accumulate(k, 0);
}

// From the bits, not MPFR's mpfr_set_float128: mpfr.h declares that one with _Float128, a type
// clang's C++ does not have (CI's sanitizer build is clang's).
void binary128_to_mpfr(__float128 x, mpfr_ptr out) {
    static_assert(sizeof(unsigned long) == 8, "a significand's low 64 bits are added as one unsigned long");
    unsigned __int128 bits;
    std::memcpy(&bits, &x, sizeof bits);
    const bool negative = (bits >> 127) != 0;
    const auto field = static_cast<long>((bits >> 112) & 0x7FFF);
    const unsigned __int128 fraction = bits & ((static_cast<unsigned __int128>(1) << 112) - 1);
    if (field == 0x7FFF) {
        if (fraction != 0) return mpfr_set_nan(out);
        return mpfr_set_inf(out, negative ? -1 : 1);
    }
    if (field == 0 && fraction == 0) return mpfr_set_zero(out, negative ? -1 : 1);
    // |x| = significand 2^(e - 112): a normal number's significand has its leading 1 at bit 112.
    const unsigned __int128 significand = field == 0 ? fraction : fraction | (static_cast<unsigned __int128>(1) << 112);
    const long exponent = (field == 0 ? 1 : field) - 16383 - 112;
    // Each step is exact in the 113 bits or more `out` holds.
    mpfr_set_ui(out, static_cast<unsigned long>(significand >> 64), MPFR_RNDN);
    mpfr_mul_2ui(out, out, 64, MPFR_RNDN);
    mpfr_add_ui(out, out, static_cast<unsigned long>(significand), MPFR_RNDN);
    mpfr_mul_2si(out, out, exponent, MPFR_RNDN);
    if (negative) mpfr_neg(out, out, MPFR_RNDN);
}

}  // namespace floatscope::emu
