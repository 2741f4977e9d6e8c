// Eigen support for Emulated: NumTraits, so that Eigen matrices of emulated numbers work.
#pragma once

#include <Eigen/Core>
#include <limits>

#include "core/format_properties.hpp"
#include "emulation/arithmetic/scalar.hpp"

namespace Eigen {

template <>
struct NumTraits<floatscope::emu::Emulated> : GenericNumTraits<floatscope::emu::Emulated> {
    using Real = floatscope::emu::Emulated;
    using NonInteger = floatscope::emu::Emulated;
    using Nested = floatscope::emu::Emulated;
    using Literal = floatscope::emu::Emulated;
    enum {
        IsComplex = 0,
        IsInteger = 0,
        IsSigned = 1,
        RequireInitialization = 0,
        ReadCost = 1,
        AddCost = 3,
        MulCost = 3,
    };
    // Limits of the format of the current PrecisionScope.
    static Real epsilon() { return Real::from_value(properties().epsilon); }
    static Real dummy_precision() { return Real::from_value(properties().epsilon * 16); }
    static Real highest() { return Real::from_value(properties().max_finite); }
    static Real lowest() { return Real::from_value(-properties().max_finite); }
    static int digits10() { return static_cast<int>(properties().decimal_digits); }

private:
    static floatscope::core::FormatProperties properties() {
        return floatscope::core::format_properties(floatscope::emu::PrecisionScope::current().arithmetic().spec());
    }
};

}  // namespace Eigen
