// The scope stack behind Emulated.
#include "emulation/arithmetic/scalar.hpp"

#include "core/error.hpp"

namespace floatscope::emu {

PrecisionScope::PrecisionScope(const core::FormatSpec& format, core::RoundingMode mode, core::StochasticSource* random)
    : arithmetic_(format, core::RoundingOptions{mode, core::Tininess::AfterRounding, random}),
      previous_(detail::current_precision_scope) {
    detail::current_precision_scope = this;
}

PrecisionScope::~PrecisionScope() { detail::current_precision_scope = previous_; }

const PrecisionScope& PrecisionScope::current() {
    if (detail::current_precision_scope == nullptr)
        throw Error("an emulated operation ran outside any PrecisionScope; open one to choose the format");
    return *detail::current_precision_scope;
}

double Emulated::convert(double x) {
    const core::Rounded r = PrecisionScope::current().arithmetic().round(x);
    count_operation(r);
    return r.value;
}

Emulated Emulated::negate(double x) {
    const bool drop_negative_zero = x == 0 && !PrecisionScope::current().arithmetic().spec().has_negative_zero;
    return from_value(drop_negative_zero ? 0.0 : -x);
}

}  // namespace floatscope::emu
