// Arithmetic::round (a double converted into the format, which every operand of an emulated
// elementwise operation goes through) against core::Rounder, the general rounding it shortcuts:
// the same value, bit pattern and flags for random doubles across and beyond each format's range,
// ties, the neighbours of min normal and max, and special values, in every deterministic mode.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "core/format_properties.hpp"
#include "core/rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"

namespace {

using namespace floatscope;

/// Doubles that probe a format: its largest and smallest normal values and their neighbours, a
/// half-ulp tie above each format value drawn, and random bit patterns over its exponent range
/// and a little beyond.
std::vector<double> probes(const core::FormatSpec& spec, std::mt19937_64& random) {
    const core::FormatProperties p = core::format_properties(spec);
    std::vector<double> xs = {0.0,
                              -0.0,
                              std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::max()};
    for (double edge : {p.max_finite, p.min_normal, p.min_subnormal})
        for (double x = edge, i = 0; i < 3; ++i, x = std::nextafter(x, 0.0))
            for (double y : {x, std::nextafter(edge, INFINITY), -x}) xs.push_back(y);
    const int low = static_cast<int>(std::ilogb(p.min_subnormal)) - 4,
              high = static_cast<int>(std::ilogb(p.max_finite)) + 3;
    std::uniform_int_distribution<int> exponent(low, high);
    std::uniform_int_distribution<std::uint64_t> fraction(0, (std::uint64_t{1} << 52) - 1);
    for (int i = 0; i < 20000; ++i) {
        const int e = exponent(random);
        const double x = std::ldexp(1.0 + std::ldexp(static_cast<double>(fraction(random)), -52), e);
        const double sign = (random() & 1) ? -1.0 : 1.0;
        // And a tie: x's nearest value on the grid of its binade's normal values, plus half an ulp.
        const double ulp = std::ldexp(1.0, e - spec.mantissa_bits);
        xs.push_back(sign * x);
        xs.push_back(sign * (std::round(x / ulp) * ulp + ulp / 2));
    }
    return xs;
}

}  // namespace

TEST_CASE("Arithmetic::round gives the Rounder's value, bits and flags on the fast path's formats") {
    std::mt19937_64 random(37);
    const std::vector<core::RoundingMode> modes = {core::RoundingMode::NearestEven, core::RoundingMode::NearestAway,
                                                   core::RoundingMode::TowardZero,  core::RoundingMode::Upward,
                                                   core::RoundingMode::Downward,    core::RoundingMode::ToOdd};
    for (const std::string name : {"bf16", "fp16", "tf32", "fp32", "fp8_e4m3", "fp8_e5m2", "e8m1"}) {
        const core::FormatSpec spec = core::parse_format(name);
        const std::vector<double> xs = probes(spec, random);
        for (const core::RoundingMode mode : modes)
            for (const core::Tininess tininess : {core::Tininess::AfterRounding, core::Tininess::BeforeRounding}) {
                core::RoundingOptions options;
                options.mode = mode;
                options.tininess = tininess;
                const emu::Arithmetic arithmetic(spec, options);
                const core::Rounder rounder(spec, options);
                std::size_t mismatches = 0;
                for (const double x : xs) {
                    const core::Rounded fast = arithmetic.round(x), general = rounder(x);
                    const bool same =
                        fast.bits == general.bits &&
                        std::bit_cast<std::uint64_t>(fast.value) == std::bit_cast<std::uint64_t>(general.value) &&
                        fast.flags.bits == general.flags.bits;
                    if (!same && ++mismatches <= 3)
                        UNSCOPED_INFO(name << " " << core::to_string(mode) << ": " << x << " -> " << fast.value
                                           << " (flags " << int(fast.flags.bits) << "), Rounder " << general.value
                                           << " (flags " << int(general.flags.bits) << ")");
                }
                CHECK(mismatches == 0);
            }
    }
}
