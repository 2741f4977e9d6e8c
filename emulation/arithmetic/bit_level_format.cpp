// The narrow and the wide way through a format's bit-level operations, chosen once per format.
#include "emulation/arithmetic/bit_level_format.hpp"

#include <algorithm>
#include <cmath>

#include "core/codec.hpp"
#include "core/decimal.hpp"
#include "core/format_width.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::emu {

namespace {

/// The wide path's working precision for text: two bits beyond the format make round-to-odd exact.
int text_precision(const core::FormatSpec& spec) { return spec.mantissa_bits + 1 + 65; }

}  // namespace

BitLevelFormat::BitLevelFormat(const core::FormatSpec& spec, const core::RoundingOptions& options) : spec_(spec) {
    if (core::is_wider_than_binary64(spec)) {
        wide_rounder_.emplace(spec, options);
        wide_arithmetic_.emplace(spec, options);
    } else {
        rounder_.emplace(spec, options);
        arithmetic_.emplace(spec, options);
    }
}

std::string BitLevelFormat::canonical_hex(const std::string& text) const {
    if (is_wide()) return core::format_wide_bits_hex(spec_, core::parse_wide_bits(spec_, text));
    return core::format_bits_hex(spec_, core::parse_bits(spec_, text));
}

core::WideValue BitLevelFormat::value_of(const std::string& hex) const {
    if (is_wide()) return core::decode_wide_bits(spec_, core::parse_wide_bits(spec_, hex)).value;
    // Decoded::exact keeps a signaling NaN signaling, so that rounding raises invalid.
    return core::WideValue::from_exact(core::decode_bits(spec_, core::parse_bits(spec_, hex)).exact());
}

Produced BitLevelFormat::round(const core::WideValue& x) const {
    if (is_wide()) {
        const core::WideRounded r = (*wide_rounder_)(x);
        return {core::format_wide_bits_hex(spec_, r.bits), r.flags};
    }
    // 64 bits and a sticky bit round correctly to every narrow format.
    const core::Rounded r = (*rounder_)(x.to_exact());
    return {core::format_bits_hex(spec_, r.bits), r.flags};
}

Produced BitLevelFormat::round_text(const std::string& text) const {
    if (is_wide()) return round(core::parse_wide_value(text, text_precision(spec_)));
    const core::Rounded r = (*rounder_)(core::parse_exact_value(text));
    return {core::format_bits_hex(spec_, r.bits), r.flags};
}

Produced BitLevelFormat::evaluate(Operation op, const std::vector<std::string>& operands) const {
    if (is_wide()) {
        std::vector<core::WideBits> bits(3);
        for (std::size_t i = 0; i < operands.size(); ++i) bits[i] = core::parse_wide_bits(spec_, operands[i]);
        const core::WideRounded r = wide_arithmetic_->apply(op, bits[0], bits[1], bits[2]);
        return {core::format_wide_bits_hex(spec_, r.bits), r.flags};
    }
    std::uint64_t bits[3] = {0, 0, 0};
    for (std::size_t i = 0; i < operands.size(); ++i) bits[i] = core::parse_bits(spec_, operands[i]);
    const core::Rounded r = arithmetic_->apply(op, bits[0], bits[1], bits[2]);
    return {core::format_bits_hex(spec_, r.bits), r.flags};
}

std::string BitLevelFormat::value_class(const std::string& hex) const {
    if (is_wide()) return core::to_string(core::decode_wide_bits(spec_, core::parse_wide_bits(spec_, hex)).value_class);
    return core::to_string(core::decode_bits(spec_, core::parse_bits(spec_, hex)).value_class);
}

std::string BitLevelFormat::fields(const std::string& hex) const {
    if (is_wide()) return core::format_wide_bits_fields(spec_, core::parse_wide_bits(spec_, hex));
    return core::format_bits_fields(spec_, core::parse_bits(spec_, hex));
}

std::string BitLevelFormat::exact_decimal(const std::string& hex) const {
    if (!is_wide()) return core::exact_decimal(core::decode_bits(spec_, core::parse_bits(spec_, hex)).value);
    core::MpfrNumber value(spec_.mantissa_bits + 1);
    value_of(hex).to_mpfr(value.get());
    return core::exact_decimal(value.get());
}

std::string BitLevelFormat::shortest_decimal(const std::string& hex) const {
    if (!is_wide()) return core::shortest_decimal(spec_, core::decode_bits(spec_, core::parse_bits(spec_, hex)).value);
    core::MpfrNumber value(spec_.mantissa_bits + 1);
    value_of(hex).to_mpfr(value.get());
    const core::WideRounder nearest(spec_, {});
    const core::WideBits bits = core::parse_wide_bits(spec_, hex);
    // p log10(2) + 2 digits always read back (17 for binary64, 36 for binary128).
    const auto max_digits = static_cast<std::size_t>(std::ceil((spec_.mantissa_bits + 1) * std::log10(2.0))) + 2;
    return core::shortest_decimal(value.get(), max_digits, [&](const std::string& candidate) {
        // A decimal beyond max that saturates back to it is not a spelling of max.
        const core::WideRounded read_back = nearest(core::parse_wide_value(candidate, text_precision(spec_)));
        return read_back.bits == bits && !read_back.flags.has(core::ExceptionFlags::overflow);
    });
}

std::string BitLevelFormat::next_up(const std::string& hex) const {
    if (is_wide())
        return core::format_wide_bits_hex(spec_, core::wide_next_up(spec_, core::parse_wide_bits(spec_, hex)));
    return core::format_bits_hex(spec_, core::next_up(spec_, core::parse_bits(spec_, hex)));
}

std::string BitLevelFormat::next_down(const std::string& hex) const {
    if (is_wide())
        return core::format_wide_bits_hex(spec_, core::wide_next_down(spec_, core::parse_wide_bits(spec_, hex)));
    return core::format_bits_hex(spec_, core::next_down(spec_, core::parse_bits(spec_, hex)));
}

std::int64_t BitLevelFormat::quantum_exponent_at(std::int64_t exponent) const {
    if (!is_wide()) return -1074;
    const core::WideGeometry& g = wide_rounder_->geometry();
    return std::max(exponent, g.emin) - spec_.mantissa_bits;
}

}  // namespace floatscope::emu
