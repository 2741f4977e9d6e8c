// One format at the bit level, as the CLI's show, encode, decode, convert and eval see it: hex
// patterns, exact values, roundings and operations, through the narrow machinery or, beyond
// binary64, through MPFR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exception_flags.hpp"
#include "core/format.hpp"
#include "core/rounding.hpp"
#include "core/wide_format.hpp"
#include "core/wide_rounding.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"

namespace floatscope::emu {

/// A pattern of the format (hex, padded to its width) and the flags that producing it raised.
struct Produced {
    std::string hex;
    core::ExceptionFlags flags;
};

/// Formats within binary64 take core::Rounder, the codec and emu::Arithmetic; wider ones take
/// core::WideRounder, core/wide_format and emu::WideArithmetic. Exact values cross between formats
/// as core::WideValue. Patterns are hex text in and out; each call checks its input.
class BitLevelFormat {
public:
    /// `options` are those of the roundings to this format (round, evaluate).
    BitLevelFormat(const core::FormatSpec& spec, const core::RoundingOptions& options);

    const core::FormatSpec& spec() const { return spec_; }
    bool is_wide() const { return wide_rounder_.has_value(); }

    /// The hex text read as a pattern and written padded; throws floatscope::Error when it is not
    /// hex or wider than the format.
    std::string canonical_hex(const std::string& text) const;
    /// A pattern's exact value.
    core::WideValue value_of(const std::string& hex) const;

    Produced round(const core::WideValue& x) const;
    /// A number's text (decimal, hex float, inf, nan) rounded once.
    Produced round_text(const std::string& text) const;
    /// One operation on hex operands (as many as operand_count(op)).
    Produced evaluate(Operation op, const std::vector<std::string>& operands) const;

    std::string value_class(const std::string& hex) const;
    std::string fields(const std::string& hex) const;
    /// Every digit of the value (core::exact_decimal).
    std::string exact_decimal(const std::string& hex) const;
    /// The shortest decimal that reads back (nearest-even) to the same value.
    std::string shortest_decimal(const std::string& hex) const;
    /// The neighbours' patterns (the pattern itself where there is none, as core::next_up).
    std::string next_up(const std::string& hex) const;
    std::string next_down(const std::string& hex) const;
    /// The exponent of the quantum of the format's values around 2^exponent (narrow formats:
    /// binary64's smallest, -1074, which no narrow quantum is below).
    std::int64_t quantum_exponent_at(std::int64_t exponent) const;

private:
    core::FormatSpec spec_;
    std::optional<core::Rounder> rounder_;
    std::optional<Arithmetic> arithmetic_;
    std::optional<core::WideRounder> wide_rounder_;
    std::optional<WideArithmetic> wide_arithmetic_;
};

}  // namespace floatscope::emu
