// Element codes: a decoding table per format, and encoding by the fields of the value's double.
#include "emulation/quantize/element_codec.hpp"

#include <bit>
#include <cmath>
#include <limits>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "emulation/quantize/nf4.hpp"

namespace floatscope::emu {

ElementCodec::ElementCodec(const BlockFormat& format) {
    const core::FormatSpec& spec = format.element;
    if (format.family == BlockFamily::Absmax) {
        bits_ = 4;
        table_.fill(std::numeric_limits<float>::quiet_NaN());
        const auto& values = spec.name == "nf4" ? nf4_code_values() : bnb_fp4_code_values();
        for (std::size_t c = 0; c < values.size(); ++c) table_[c] = values[c];
    } else if (spec.kind == core::FormatKind::Integer) {
        bits_ = 8;
        mxint_ = true;
        for (int c = 0; c < 256; ++c) table_[c] = static_cast<float>(static_cast<std::int8_t>(c)) / 64;
    } else {
        init_binary(spec);
    }
}

ElementCodec::ElementCodec(const core::FormatSpec& binary_format) { init_binary(binary_format); }

void ElementCodec::init_binary(const core::FormatSpec& spec) {
    bits_ = spec.total_bits();
    if (spec.kind != core::FormatKind::Binary || bits_ > 8)
        throw Error("element codec: '" + spec.name + "' is not a binary format of at most 8 bits");
    table_.fill(std::numeric_limits<float>::quiet_NaN());
    for (std::uint64_t c = 0; c < (std::uint64_t{1} << bits_); ++c)
        table_[c] = static_cast<float>(core::decode_bits(spec, c).value);
    const core::BinaryGeometry g = core::binary_geometry(spec);
    mantissa_bits_ = spec.mantissa_bits;
    bias_ = spec.bias;
    min_normal_ = g.min_normal;
    inverse_min_subnormal_ = 1 / g.min_subnormal;
    sign_bit_ = static_cast<std::uint8_t>(1u << (bits_ - 1));
    // +inf and the NaN from the table, whatever the encoding: the NaN is the largest NaN pattern
    // below the sign bit (the quiet one, all ones, in IEEE and OCP "fn" formats), else the only
    // one ("fnuz": the pattern of -0).
    for (unsigned c = 0; c < (1u << bits_); ++c) {
        if (std::isinf(table_[c]) && table_[c] > 0) infinity_code_ = static_cast<std::uint8_t>(c);
        if (std::isnan(table_[c]) && (c < sign_bit_ || !std::isnan(table_[nan_code_])))
            nan_code_ = static_cast<std::uint8_t>(c);
    }
    keep_negative_zero_ = spec.has_negative_zero;
}

std::uint8_t ElementCodec::encode(double v) const {
    if (mxint_) return static_cast<std::uint8_t>(static_cast<std::int8_t>(v * 64));
    const double a = std::fabs(v);
    if (std::isnan(a)) return nan_code_;
    unsigned code = 0;
    if (a >= min_normal_) {
        const std::uint64_t b = std::bit_cast<std::uint64_t>(a);
        const int exponent = static_cast<int>(b >> 52) - 1023;
        code = (static_cast<unsigned>(exponent + bias_) << mantissa_bits_) |
               static_cast<unsigned>((b >> (52 - mantissa_bits_)) & ((1u << mantissa_bits_) - 1));
    } else {
        code = static_cast<unsigned>(a * inverse_min_subnormal_);  // exact: a is a subnormal of the format
    }
    if (std::isinf(a)) code = infinity_code_;
    if (std::signbit(v) && (code != 0 || keep_negative_zero_)) code |= sign_bit_;
    return static_cast<std::uint8_t>(code);
}

FLOATSCOPE_KERNEL_CLONES void ElementCodec::encode_finite(std::span<const float> values, std::uint8_t* codes) const {
    if (mxint_) {
        for (std::size_t i = 0; i < values.size(); ++i)
            codes[i] = static_cast<std::uint8_t>(static_cast<std::int32_t>(values[i] * 64));
        return;
    }
    // A normal value's float bits, shifted right by 23 - M, hold the float's exponent field and
    // the top M fraction bits: subtracting (127 - bias) << M re-biases the exponent. Subnormals
    // are whole multiples of the smallest subnormal.
    const int shift = 23 - mantissa_bits_;
    const std::uint32_t rebias = static_cast<std::uint32_t>(127 - bias_) << mantissa_bits_;
    const float min_normal = static_cast<float>(min_normal_);
    const std::uint32_t min_normal_bits = std::bit_cast<std::uint32_t>(min_normal);
    const auto inverse_min_subnormal = static_cast<float>(inverse_min_subnormal_);
    const std::uint32_t sign_bit = sign_bit_;
    const std::uint32_t keep_negative_zero = keep_negative_zero_ ? 1 : 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(values[i]);
        const std::uint32_t magnitude = bits & 0x7FFF'FFFFu;
        const std::uint32_t normal = (magnitude >> shift) - rebias;
        const float a = std::bit_cast<float>(magnitude);
        const auto subnormal = static_cast<std::uint32_t>(
            static_cast<std::int32_t>((a < min_normal ? a : min_normal) * inverse_min_subnormal));
        std::uint32_t code = magnitude >= min_normal_bits ? normal : subnormal;
        const std::uint32_t negative = (bits >> 31) & ((code != 0 ? 1u : 0u) | keep_negative_zero);
        code |= negative != 0 ? sign_bit : 0u;
        codes[i] = static_cast<std::uint8_t>(code);
    }
}

}  // namespace floatscope::emu
