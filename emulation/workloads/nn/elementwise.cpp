// Elementwise arithmetic in one format: Arithmetic per value, core's array rounding for conversions.
#include "emulation/workloads/nn/elementwise.hpp"

#include "core/round_array.hpp"

namespace floatscope::emu {

namespace {

/// IEEE binary64 or binary32 (by its exponent and mantissa widths) with round to nearest even.
bool is_ieee_rne(const core::FormatRounding& r, int exponent_bits, int mantissa_bits) {
    const core::FormatSpec& f = r.format;
    return r.mode == core::RoundingMode::NearestEven && f.kind == core::FormatKind::Binary && f.has_sign &&
           f.exponent_bits == exponent_bits && f.mantissa_bits == mantissa_bits &&
           f.bias == (1 << (exponent_bits - 1)) - 1 && f.has_infinity && f.nan_encoding == core::NanEncoding::Ieee &&
           f.has_negative_zero && f.subnormals == core::SubnormalPolicy::Gradual &&
           f.overflow == core::OverflowPolicy::Ieee;
}

core::RoundingOptions options_for(const core::FormatRounding& rounding, core::StochasticSource* random) {
    core::RoundingOptions options;
    options.mode = rounding.mode;
    options.random = random;
    return options;
}

}  // namespace

ElementwiseArithmetic::ElementwiseArithmetic(const core::FormatRounding& rounding, std::uint64_t seed)
    : rounding_(rounding),
      random_(std::make_unique<core::StochasticSource>(seed)),
      arithmetic_(rounding.format, options_for(rounding, random_.get())),
      native_(is_ieee_rne(rounding, 11, 52)  ? Native::Double
              : is_ieee_rne(rounding, 8, 23) ? Native::Float
                                             : Native::None) {}

void ElementwiseArithmetic::round(std::span<const double> in, std::span<double> out) const {
    if (native_ == Native::Double) {
        if (in.data() != out.data()) std::copy(in.begin(), in.end(), out.begin());
        return;
    }
    core::round_array(rounding_.format, rounding_.mode, in, out, random_.get());
}

}  // namespace floatscope::emu
