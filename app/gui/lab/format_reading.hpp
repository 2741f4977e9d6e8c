// FormatReading: what one format makes of the entered value - pattern, exact value, errors, formula.
#pragma once

#include <cstdint>
#include <string>

#include "app/gui/lab/entered_value.hpp"
#include "core/codec.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"

namespace floatscope::gui {

/// Everything a Bits-view row shows, as text, computed apart from the widgets that show it.
struct FormatReading {
    core::FormatSpec spec;
    /// Formats wider than binary64 (binary128, e15m112, ...) are read through MPFR: their rows show
    /// the pattern as text (hex, fields) and leave `rounded` and `decoded` empty.
    bool wide = false;
    std::string hex;  ///< the pattern, padded to the format's width
    std::string value_class;  ///< core::to_string(ValueClass): "normal", "subnormal", "nan", ...
    core::ExceptionFlags flags;  ///< what producing the pattern raised
    core::Rounded rounded;  ///< narrow formats: the pattern shown and the flags its conversion raised
    core::Decoded decoded;
    std::string exact;  ///< every digit of the stored value
    std::string shortest;  ///< shortest decimal that rounds back to it
    std::string absolute_error;  ///< |stored - x|, 6 significant digits; "n/a" where undefined
    std::string relative_error;  ///< |stored - x| / |x|
    std::string ulp_error;  ///< (stored - x) / ulp(stored), signed
    std::string exponent_field = "-";  ///< binary formats: field, bias and unbiased exponent
    std::string formula;  ///< the value spelled from its fields, e.g. (-1)^0 x 2^(13-15) x 1.1001010011b
    /// Wide formats: the next larger and smaller values, exactly ("" where there is none).
    std::string next_up, next_down;
};

/// Rounds `x` into `spec` under `options`; where `x` is a bit pattern of `spec` itself the pattern
/// is shown unchanged (no flags). Formats wider than binary64 round x's text once, exactly.
FormatReading read_in_format(const core::FormatSpec& spec, const EnteredValue& x, const core::RoundingOptions& options);

/// A pattern of `spec` as a row shows it, its errors measured against `reference` (the value the
/// other rows round): a bit edit's difference from the value it started from.
FormatReading read_edited(const core::FormatSpec& spec, std::uint64_t bits, const EnteredValue& reference,
                          const core::RoundingOptions& options);

/// The role of bit `index` (0 = least significant) of `spec`'s pattern `bits`, and its weight, for
/// the tooltip: "mantissa bit 1 (top): weight 2^-1 of the significand, 2^-3 here".
std::string describe_bit(const core::FormatSpec& spec, std::uint64_t bits, int index);

/// The field a bit belongs to, for colouring. Tapered formats' fields move with the code: a posit's
/// regime and a takum's direction and regime are Regime, a takum's characteristic is Exponent,
/// HiF8's prefix is Dot.
enum class BitField { Sign, Exponent, Mantissa, Integer, Code, Regime, Dot };
BitField bit_field(const core::FormatSpec& spec, std::uint64_t bits, int index);

}  // namespace floatscope::gui
