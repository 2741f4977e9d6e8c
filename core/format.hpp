// FormatSpec: the single runtime description of a number format, validated in one place.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace floatscope::core {

enum class FormatKind {
    Binary,  ///< sign / exponent / mantissa floating point (fp64 ... fp4, eXmY)
    Integer,  ///< two's complement or unsigned integers of 2..32 bits
    Lookup,  ///< a table of code values (NF4)
    ExponentScale,  ///< exponent-only scale with no zero and no sign (OCP E8M0)
    Posit,  ///< posit<n, es> (Posit Standard 2022): one zero, NaR, two's complement (core/tapered_format.hpp)
    Takum,  ///< linear takum of n bits (Hunhold 2024): one zero, NaR, two's complement
    HiFloat8,  ///< Huawei HiF8 (Luo et al. 2024): sign-magnitude, prefix-coded exponent width, +-inf, NaN
};

/// Where a binary format keeps its NaN. Infinities: with Ieee, exponent all ones and mantissa 0;
/// with AllOnes or NegativeZero and has_infinity (the IEEE P3109 extended formats), the largest
/// magnitude pattern that is not NaN (per sign), so that max finite is the pattern below it.
enum class NanEncoding {
    Ieee,  ///< exponent all ones: mantissa 0 = infinity, else NaN
    AllOnes,  ///< "fn": only the all-ones pattern (per sign) is NaN (OCP E4M3, P3109 unsigned)
    NegativeZero,  ///< "fnuz": the pattern of -0 is the one NaN, no -0 (P3109 signed)
    None,  ///< every pattern is a finite number (FP6, FP4)
};

/// What a result beyond the finite range becomes; the P3109 names are its saturation modes
/// (Interim Report v4.0, 4.7.5).
enum class OverflowPolicy {
    Ieee,  ///< the generalised IEEE rule: inf, else NaN, else +-max (see DESIGN.md); P3109 SatNone
    Saturate,  ///< every finite overflow delivers +-max, infinities stay infinite; P3109 SatPropagate
    SaturateFinite,  ///< overflows and infinities alike deliver +-max; P3109 SatFinite
};

enum class SubnormalPolicy {
    Gradual,  ///< IEEE gradual underflow
    Flush,  ///< results below the smallest normal become zero; such inputs decode as zero
};

/// The four parameters of an IEEE P3109 format (Interim Report v4.0, 3.1); bits == 0 marks a
/// format that is not one. The binary fields of its FormatSpec follow from them (core/p3109.hpp).
struct P3109Parameters {
    int bits = 0;  ///< K, 3..16 here
    int precision = 0;  ///< P, hidden bit included: 1..K-1 signed, 1..K unsigned
    bool is_signed = true;
    bool extended = true;  ///< with infinities (Extended domain) or without (Finite)
    friend bool operator==(const P3109Parameters&, const P3109Parameters&) = default;
};

struct FormatSpec {
    std::string name;
    FormatKind kind = FormatKind::Binary;

    bool has_sign = true;  ///< Integer: signed (two's complement) or unsigned
    int exponent_bits = 0;
    int mantissa_bits = 0;
    int bias = 0;
    bool has_infinity = true;
    NanEncoding nan_encoding = NanEncoding::Ieee;
    bool has_negative_zero = true;
    SubnormalPolicy subnormals = SubnormalPolicy::Gradual;
    OverflowPolicy overflow = OverflowPolicy::Ieee;

    P3109Parameters p3109;  ///< Binary kind: set for the P3109 formats, whose rules differ in places

    int storage_bits = 0;  ///< bits a value occupies in memory when more than its width (tf32: 32)

    int integer_bits = 0;  ///< Integer kind: width
    int tapered_bits = 0;  ///< Posit, Takum, HiFloat8 kinds: width n (a posit's es is exponent_bits)
    std::vector<double> code_values;  ///< Lookup kind: value of code i, ascending
    std::string description;

    int total_bits() const;
    bool has_nan() const;
    bool is_p3109() const { return p3109.bits != 0; }
    /// Posit, Takum or HiFloat8: variable-width fields, values ordered by code (core/tapered_format.hpp).
    bool is_tapered() const {
        return kind == FormatKind::Posit || kind == FormatKind::Takum || kind == FormatKind::HiFloat8;
    }
    friend bool operator==(const FormatSpec&, const FormatSpec&) = default;
};

/// Throws floatscope::Error naming the offending field when the spec is not a format
/// FloatScope can emulate exactly. Binary formats within binary64 (E 1..11, M 0..52, values inside
/// double's range) take every encoding; wider ones (up to E 30, M 1024: core/wide_format.hpp) the
/// IEEE encoding only, and only the MPFR path handles them (see require_within_binary64).
void validate(const FormatSpec& spec);

/// Exponents and limits of a binary or exponent-scale format, derived once from the spec.
/// Values are x = m * 2^(e - M) with m < 2^(M+1); `emin` is the exponent of the smallest normal.
struct BinaryGeometry {
    int precision = 0;  ///< M + 1
    int emin = 0;  ///< exponent of the smallest normal number (1 - bias)
    int emax = 0;  ///< exponent of the largest finite number
    std::uint64_t max_significand = 0;  ///< integer significand (with hidden bit) of max finite
    int max_exponent_field = 0;  ///< biased exponent field of max finite
    std::uint64_t infinity_magnitude = 0;  ///< pattern of +inf without the sign (has_infinity only)
    double max_finite = 0;
    double min_normal = 0;
    double min_subnormal = 0;  ///< smallest positive value (min_normal when flushed)
};

BinaryGeometry binary_geometry(const FormatSpec& spec);

/// The pattern of +inf of a binary format without its sign bit (0 when it has no infinity): cheap,
/// for decoding.
std::uint64_t infinity_magnitude(const FormatSpec& spec);

/// Smallest and largest value of an integer format.
struct IntegerRange {
    std::int64_t min = 0;
    std::int64_t max = 0;
};
IntegerRange integer_range(const FormatSpec& spec);

const char* to_string(FormatKind kind);
const char* to_string(NanEncoding encoding);

}  // namespace floatscope::core
