// Tapered formats - posits, linear takums, HiFloat8: their FormatSpecs, names and the fields of a code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/format.hpp"

namespace floatscope::core {

/// posit<n, es> as the Posit Standard (2022) defines it for es = 2 and the earlier drafts for other
/// es: n bits, two's complement, 0 = zero, 1 followed by zeros = NaR; a positive code reads as a
/// regime run (k + 1 ones or -k zeros and its terminating bit), es exponent bits (cut off at the end
/// read as zeros) and the fraction: (1 + f) 2^(k 2^es + e). Names: positN (es = 2), positN_esK.
/// Throws floatscope::Error outside 8 <= n <= 32, 0 <= es <= 4.
FormatSpec posit_format(int bits, int exponent_size);

/// The linear takum of n bits (L. Hunhold, "Beating Posits at Their Own Game: Takum Arithmetic",
/// arXiv:2404.18603, 2024, section 3; the linear variant as in his "Integer Representations in IEEE
/// 754, Posit, and Takum Arithmetics", arXiv:2412.20273): sign S, direction D, 3 regime bits R,
/// r = D ? R : 7 - R characteristic bits C, the rest mantissa M; characteristic c = 2^r - 1 + C when
/// D = 1 and -2^(r+1) + 1 + C when D = 0; value (1 + M) 2^c for S = 0, two's complement for S = 1;
/// 0 = zero, 1 followed by zeros = NaR; codes of fewer than 12 bits read as if padded with zeros.
/// Throws floatscope::Error outside 8 <= n <= 32.
FormatSpec takum_format(int bits);

/// HiFloat8 (Y. Luo et al., "Ascend HiFloat8 Format for Deep Learning", arXiv:2409.16626, 2024,
/// section 2): sign, then a prefix-coded dot field (11, 10, 01, 001, 0001: exponent widths 4, 3, 2,
/// 1, 0; 0000: denormal), the exponent in sign-magnitude with an implicit leading magnitude bit
/// (|E| in [2^(D-1), 2^D - 1]), and 1 to 3 mantissa bits: (-1)^S 2^E (1 + m). Denormals 0000 M:
/// 2^(M - 23) for M = 1..7 (2^-22 .. 2^-16). 0x00 = zero, 0x80 = NaN, 0x6F / 0xEF = +-inf, so
/// +-32768 is the largest finite value.
FormatSpec hifloat8_format();

/// positN, positN_esK, takumN, hifloat8 (lower case); nullopt when the name has none of these
/// shapes; throws floatscope::Error naming the valid range when N or K is outside it.
std::optional<FormatSpec> parse_tapered_name(std::string_view name);

/// Part of core::validate: throws floatscope::Error when the spec's fields are not those its kind
/// and width define.
void validate_tapered(const FormatSpec& spec);

/// One field of a code, most significant first: "sign", "regime", "exponent", "fraction" (posits),
/// "sign", "direction", "regime", "characteristic", "mantissa" (takums), "sign", "dot", "exponent",
/// "mantissa" (HiF8). Widths sum to the format's width; a field cut to nothing is left out. Negative
/// posits and takums are read from their stored bits, as the standard's formula reads them.
struct TaperedField {
    std::string name;
    int width = 0;
};
std::vector<TaperedField> tapered_fields(const FormatSpec& spec, std::uint64_t bits);

/// The value of a code from its stored fields (posits and takums by the standard's formula
/// ((1 - 3S) + f) 2^((1 - 2S)(exponent + S)), which needs no negation); NaN for NaR, +-inf for HiF8's
/// infinities. Exact: every value of these formats is a double.
double tapered_value(const FormatSpec& spec, std::uint64_t bits);

/// The pattern of the next larger (upward) or smaller value: posits and takums step as two's
/// complement integers, HiF8 through its values in order; NaR/NaN and the ends stay put (HiF8's
/// +-32768 step on to +-inf).
std::uint64_t tapered_next(const FormatSpec& spec, std::uint64_t bits, bool upward);

/// The NaR (posit, takum) or NaN (HiF8) code: 1 followed by zeros.
std::uint64_t tapered_nan_code(const FormatSpec& spec);
/// The largest finite positive code (0111...1; HiF8: 0x6E).
std::uint64_t tapered_max_code(const FormatSpec& spec);

}  // namespace floatscope::core
