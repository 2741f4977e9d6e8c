// Planning the double path's rounding of normal results for one format.
#include "emulation/arithmetic/double_path.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace floatscope::emu {

NormalRounding::NormalRounding(const core::FormatSpec& spec, core::Tininess tininess) {
    const core::BinaryGeometry g = core::binary_geometry(spec);
    shift = 52 - spec.mantissa_bits + 1;
    min_normal_bits = std::bit_cast<std::uint64_t>(g.min_normal);
    max_bits = std::bit_cast<std::uint64_t>(g.max_finite);
    min_normal = g.min_normal;
    max_finite = g.max_finite;
    tininess_before = tininess == core::Tininess::BeforeRounding;
    split_factor = std::ldexp(1.0, 52 - spec.mantissa_bits) + 1;
    below_last_bit = (std::uint64_t{1} << (52 - spec.mantissa_bits)) - 1;
    // A double holds every multiple of 2^low below 2^(low + 53). Values of the format are multiples
    // of 2^(emin - M) below 2^(emax + 1); products of two are multiples of 2^(2 (emin - M)).
    const int low = g.emin - spec.mantissa_bits;
    exact_sums = (g.emax + 2) - low <= 53;
    exact_fmas = (std::max(2 * g.emax + 2, g.emax + 1) + 1) - std::min(2 * low, low) <= 53;
}

}  // namespace floatscope::emu
