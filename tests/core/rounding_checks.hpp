// What the rounding tests share: agreement with the MPFR reference counted and reported, seeds
// from names, rounding from text, and the flag and special-value constants.
#pragma once

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/exact_value.hpp"
#include "core/exception_flags.hpp"
#include "core/rounding.hpp"
#include "core/rounding_mode.hpp"
#include "mpfr_reference.hpp"

namespace floatscope::test {

using core::FormatKind;
using core::FormatSpec;
using core::NanEncoding;
using core::Rounded;
using core::RoundingMode;
using core::Tininess;

inline constexpr double inf = std::numeric_limits<double>::infinity();
inline constexpr double qnan = std::numeric_limits<double>::quiet_NaN();

inline constexpr std::uint8_t kInexact = core::ExceptionFlags::inexact;
inline constexpr std::uint8_t kUnderflow = core::ExceptionFlags::underflow;
inline constexpr std::uint8_t kOverflow = core::ExceptionFlags::overflow;
inline constexpr std::uint8_t kInvalid = core::ExceptionFlags::invalid;

inline std::uint64_t seed_of(const std::string& text) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: the same seed on every platform
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
    return h;
}

/// Quiet NaNs of IEEE-encoded formats have the top mantissa bit set.
inline bool quiet_where_ieee(const FormatSpec& spec, std::uint64_t bits) {
    if (spec.kind != FormatKind::Binary || spec.nan_encoding != NanEncoding::Ieee) return true;
    return ((bits >> (spec.mantissa_bits - 1)) & 1) != 0;
}

inline bool matches(const FormatSpec& spec, const Rounded& got, const RefResult& want) {
    if (got.flags.bits != want.flags) return false;
    if (want.nan)
        return std::isnan(got.value) && ref_is_nan_pattern(spec, got.bits) && quiet_where_ieee(spec, got.bits);
    if (std::isnan(got.value)) return false;
    return std::bit_cast<std::uint64_t>(got.value) == std::bit_cast<std::uint64_t>(want.value) &&
           got.bits == ref_encode(spec, want.value);
}

inline std::string describe(const RefResult& want) {
    return fmt::format("{} flags {:02X}", want.nan ? "nan" : hex_double(want.value), want.flags);
}

/// Counts disagreements with the reference and keeps the first few for the report.
class Agreement {
public:
    void check(const FormatSpec& spec, RoundingMode mode, Tininess tininess, const std::string& input,
               const Rounded& got, const RefResult& want) {
        ++checked_;
        if (matches(spec, got, want)) return;
        ++failed_;
        if (examples_.size() < 12)
            examples_.push_back(fmt::format("{} {} tininess-{} x={}: got {} = {} flags {}, want {}", spec.name,
                                            to_string(mode), tininess == Tininess::AfterRounding ? "after" : "before",
                                            input, fmt::format("{:X}", got.bits), hex_double(got.value),
                                            flags_hex(got.flags), describe(want)));
    }
    std::size_t checked() const { return checked_; }
    std::size_t failed() const { return failed_; }
    std::string report() const {
        std::string text = fmt::format("{} of {} roundings disagree with the reference", failed_, checked_);
        for (const std::string& e : examples_) text += "\n  " + e;
        return text;
    }

private:
    std::size_t checked_ = 0, failed_ = 0;
    std::vector<std::string> examples_;
};

#define CHECK_AGREEMENT(agreement)        \
    do {                                  \
        INFO((agreement).report());       \
        CHECK((agreement).checked() > 0); \
        CHECK((agreement).failed() == 0); \
    } while (false)

/// Where a format's test inputs lie.
struct Reach {
    int low_binade, high_binade;  ///< log2 range the random inputs cover
    int fraction_bits;  ///< significand bits that make ties and exact values
    bool mostly_positive;
};

inline Reach reach_of(const FormatSpec& spec) {
    switch (spec.kind) {
        case FormatKind::Binary:
            return {1 - spec.bias - spec.mantissa_bits - 4, std::ilogb(ref_max_finite(spec)) + 3,
                    spec.mantissa_bits + 1, false};
        case FormatKind::ExponentScale: return {-spec.bias - 4, std::ilogb(ref_max_finite(spec)) + 3, 2, true};
        case FormatKind::Integer: return {-4, spec.integer_bits + 2, 3, false};
        case FormatKind::Lookup: return {-10, 1, 3, false};
    }
    return {};
}

inline core::Rounded round_text(const std::string& format, const std::string& text,
                                RoundingMode mode = RoundingMode::NearestEven) {
    return core::round_to_format(core::parse_format(format), core::parse_exact_value(text),
                                 {mode, Tininess::AfterRounding, nullptr});
}

}  // namespace floatscope::test
