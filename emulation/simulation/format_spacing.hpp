// FormatSpacing: the spacing of a format's values at a real number, for the measures' ULP errors.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>  // before mpfr.h: its intmax_t functions (MPFR_USE_INTMAX_T)
#include <vector>

#include <mpfr.h>

#include "core/codec.hpp"
#include "core/format.hpp"
#include "core/format_properties.hpp"
#include "core/format_width.hpp"
#include "core/rounding.hpp"
#include "core/wide_format.hpp"

namespace floatscope::emu {

/// The spacing of `format`'s values at a real number `t` (a finite MPFR value): 2^(max(e, emin) - M)
/// for binary and scale formats with e = floor(log2 |t|) (unbounded above, so that a value beyond
/// max still has a spacing); below the normal range of a format that flushes, the gap from 0 to
/// its smallest normal. 1 for integers, the gap between the table codes around t for tables; for
/// tapered formats the gap away from zero at the value t truncates to. The format's geometry is
/// worked out once: a region asks for the spacing at each of its values.
class FormatSpacing {
public:
    explicit FormatSpacing(const core::FormatSpec& format) : format_(format) {
        // A format wider than binary64 has no double geometry; its spacing is WideLimits'.
        if ((format.kind == core::FormatKind::Binary || format.kind == core::FormatKind::ExponentScale) &&
            !core::is_wider_than_binary64(format))
            geometry_ = core::binary_geometry(format);
    }

    double at(mpfr_srcptr t) const {
        switch (format_.kind) {
            case core::FormatKind::Binary:
            case core::FormatKind::ExponentScale: {
                const core::BinaryGeometry& g = geometry_;
                // MPFR's exponent: |t| = m 2^exp with 1/2 <= m < 1, so floor(log2 |t|) = exp - 1.
                const long e = mpfr_zero_p(t) ? g.emin - 1 : mpfr_get_exp(t) - 1;
                const bool flushes =
                    format_.kind == core::FormatKind::Binary && format_.subnormals == core::SubnormalPolicy::Flush;
                if (e < g.emin && flushes) return g.min_normal;
                return std::ldexp(1.0, static_cast<int>(std::max<long>(e, g.emin) - (g.precision - 1)));
            }
            case core::FormatKind::Integer: return 1;
            case core::FormatKind::Posit:
            case core::FormatKind::Takum:
            case core::FormatKind::HiFloat8: {
                // The gap at the code t truncates to (the largest finite one beyond the range).
                const core::Rounded below =
                    core::round_to_format(format_, core::ExactValue::from_mpfr(t), {core::RoundingMode::TowardZero});
                return core::ulp(format_, below.bits);
            }
            case core::FormatKind::Lookup: {
                const std::vector<double>& codes = format_.code_values;
                if (codes.size() < 2) return NAN;
                const double x = mpfr_get_d(t, MPFR_RNDN);
                const std::size_t above =
                    static_cast<std::size_t>(std::upper_bound(codes.begin(), codes.end(), x) - codes.begin());
                const std::size_t i = std::clamp<std::size_t>(above, 1, codes.size() - 1);
                return codes[i] - codes[i - 1];
            }
        }
        return NAN;
    }

private:
    const core::FormatSpec& format_;
    core::BinaryGeometry geometry_{};
};

}  // namespace floatscope::emu
