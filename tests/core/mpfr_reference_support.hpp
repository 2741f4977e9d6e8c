// Test-only: what the MPFR reference's format families share (mpfr_reference.cpp dispatches to them).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "mpfr_reference.hpp"

namespace floatscope::test::ref_detail {

inline constexpr double quiet_nan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double infinity = std::numeric_limits<double>::infinity();

inline std::uint64_t mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

[[noreturn]] inline void broken(const std::string& why) { throw std::logic_error("mpfr_reference: " + why); }

/// Whether an overflow in this mode and direction goes to infinity (rtz and rto stop at the largest
/// finite value).
inline bool heads_to_infinity(core::RoundingMode mode, bool negative) {
    switch (mode) {
        case core::RoundingMode::NearestEven:
        case core::RoundingMode::NearestAway: return true;
        case core::RoundingMode::Upward: return !negative;
        case core::RoundingMode::Downward: return negative;
        default: return false;
    }
}

// Binary formats (IEEE-like, P3109, OCP FP8/FP6/FP4): binary_reference_codec.cpp and
// binary_reference_rounding.cpp.
bool binary_is_nan(const core::FormatSpec& spec, std::uint64_t bits);
double binary_decode(const core::FormatSpec& spec, std::uint64_t bits);
std::uint64_t binary_encode(const core::FormatSpec& spec, double value);
double binary_max_finite(const core::FormatSpec& spec);
RefResult binary_round(const core::FormatSpec& spec, mpfr_srcptr x, core::RoundingMode mode, core::Tininess tininess);

// Exponent scales (E8M0), integers and lookup tables (NF4): a file each.
double exponent_scale_max(const core::FormatSpec& spec);
RefResult exponent_scale_round(const core::FormatSpec& spec, mpfr_srcptr x, core::RoundingMode mode,
                               core::Tininess tininess);
RefResult integer_round(const core::FormatSpec& spec, mpfr_srcptr x, core::RoundingMode mode);
RefResult lookup_round(const core::FormatSpec& spec, mpfr_srcptr x, core::RoundingMode mode);

}  // namespace floatscope::test::ref_detail
