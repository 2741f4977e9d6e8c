// Test-only reference: decoding, encoding and rounding written from the format definitions with MPFR.
#pragma once

// It reads FormatSpec and the mode enums as plain data and shares no code with core/'s codec or
// rounding, so that the tests compare two independent implementations of the same definitions.

#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions
#include <string>
#include <vector>

#include <mpfr.h>

#include "core/format.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::test {

/// An owning mpfr_t, kept apart from core's MpfrNumber on purpose.
class RefNumber {
public:
    explicit RefNumber(mpfr_prec_t precision) { mpfr_init2(value_, precision); }
    RefNumber(const RefNumber&) = delete;
    RefNumber& operator=(const RefNumber&) = delete;
    ~RefNumber() { mpfr_clear(value_); }

    mpfr_ptr get() { return value_; }
    mpfr_srcptr get() const { return value_; }

private:
    mpfr_t value_;
};

/// TestFloat's flag bits, written out again so that the reference does not lean on core.
namespace ref_flags {
inline constexpr std::uint8_t inexact = 0x01;
inline constexpr std::uint8_t underflow = 0x02;
inline constexpr std::uint8_t overflow = 0x04;
inline constexpr std::uint8_t invalid = 0x10;
}  // namespace ref_flags

/// What the reference says a rounding delivers.
struct RefResult {
    bool nan = false;  ///< the result is a NaN (any NaN pattern of the format)
    double value = 0;  ///< signed value (signed zero included); NaN when `nan`
    std::uint8_t flags = 0;
};

/// Whether a pattern is a NaN of the format, from the definition of its NaN encoding.
bool ref_is_nan_pattern(const core::FormatSpec& spec, std::uint64_t bits);
/// Value of a pattern from its fields (binary: (-1)^s 2^(e-bias) 1.m, subnormals 2^(1-bias) 0.m,
/// computed with MPFR); NaN for NaN patterns; flushed subnormal patterns are zero (+0 in formats
/// without negative zero).
double ref_decode(const core::FormatSpec& spec, std::uint64_t bits);
/// Pattern of a non-NaN value of the format (from the value's binade and significand).
std::uint64_t ref_encode(const core::FormatSpec& spec, double value);
/// Largest finite value, found by walking the magnitude patterns down from the top.
double ref_max_finite(const core::FormatSpec& spec);
/// Every distinct non-NaN value of a format of at most 20 bits, ascending (+0 and -0 once, as +0).
std::vector<double> ref_sorted_values(const core::FormatSpec& spec);

/// The rounding of x to the format in the given (non-stochastic) mode, with IEEE flags and
/// FloatScope's documented conventions for formats without infinities, NaN or negative zero.
RefResult ref_round(const core::FormatSpec& spec, mpfr_srcptr x, core::RoundingMode mode,
                    core::Tininess tininess = core::Tininess::AfterRounding);
/// The same from a double; a signaling NaN raises invalid.
RefResult ref_round(const core::FormatSpec& spec, double x, core::RoundingMode mode,
                    core::Tininess tininess = core::Tininess::AfterRounding);

/// The reference modes: rne rna rtz rup rdn rto.
inline constexpr core::RoundingMode ref_modes[] = {core::RoundingMode::NearestEven, core::RoundingMode::NearestAway,
                                                   core::RoundingMode::TowardZero,  core::RoundingMode::Upward,
                                                   core::RoundingMode::Downward,    core::RoundingMode::ToOdd};

/// Formats the tests add to the catalog's: grammar names, modifiers, odd corners (M = 0, bias).
inline const std::vector<std::string> custom_format_names = {
    "e6m9", "e7m4",   "e3m2fn",       "e5m2fnuz:ftz", "e4m3:sat", "e5m10:bias=10", "fp16:ftz",
    "e2m1", "e5m2fn", "e4m3fnuz:ftz", "e4m0fn",       "e3m0fnuz", "e3m4:bias=1",   "fp6_e2m3:ieee",
    "int3", "uint4",  "int8",         "int16",        "uint2",    "e8m0:sat"};

/// "-0x1.8p-3": a double in hex, with its sign, for failure messages.
std::string hex_double(double x);

}  // namespace floatscope::test
