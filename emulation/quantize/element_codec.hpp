// ElementCodec: the codes of a block format's elements, decoded by table and encoded from values.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "emulation/quantize/block_format.hpp"

namespace floatscope::emu {

/// Code <-> value of a BlockFormat's element format (at most 8 bits): FP8/FP6/FP4 patterns, the
/// MXINT8 1.6 fixed point (code = two's complement of value * 64), and the absmax code tables.
class ElementCodec {
public:
    explicit ElementCodec(const BlockFormat& format);
    /// A binary format of at most 8 bits (an element or a scale format such as E4M3).
    explicit ElementCodec(const core::FormatSpec& binary_format);

    int bits() const { return bits_; }
    /// Value of code c (c below 2^bits); NaN for a NaN pattern.
    float value(std::uint8_t c) const { return table_[c]; }
    const std::array<float, 256>& table() const { return table_; }

    /// The code of a value of the element format. Precondition: `v` is one of its values (what
    /// rounding to the element format delivers), or NaN where the format has NaN. Binary
    /// formats and MXINT8 only; the absmax tables choose codes while rounding.
    std::uint8_t encode(double v) const;

    /// encode() of each value, for finite values of a binary element format or MXINT8 (no NaN,
    /// no infinity): branch-free on the float's bits, so that the loop vectorizes.
    void encode_finite(std::span<const float> values, std::uint8_t* codes) const;

private:
    void init_binary(const core::FormatSpec& spec);

    int bits_ = 0;
    bool mxint_ = false;
    std::array<float, 256> table_{};
    // Binary element formats: the geometry encode() needs.
    int mantissa_bits_ = 0;
    int bias_ = 0;
    double min_normal_ = 0;
    double inverse_min_subnormal_ = 0;
    std::uint8_t sign_bit_ = 0;
    std::uint8_t nan_code_ = 0;
    std::uint8_t infinity_code_ = 0;
    bool keep_negative_zero_ = true;
};

}  // namespace floatscope::emu
