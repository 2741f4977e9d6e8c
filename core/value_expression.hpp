// Value expressions: "1/3", "2^-24", "(1 + 2^-10) * 3" read as exact rational numbers (GMP mpq).
#pragma once

#include <string_view>

#include <gmp.h>

namespace floatscope::core {

/// Whether `text` is an expression rather than a single number: it holds '/', '*', '^' or '(', or a
/// binary '+' or '-' (after an operand, not an exponent's sign: "1e-3" is a number, "1-3" is not,
/// "--1" a malformed number).
bool is_value_expression(std::string_view text);

/// Evaluates `text` exactly into `out` (initialized by the caller): numbers as decimals (0.1 is
/// 1/10, not a double), hex floats (0x1.8p-3) or integers; + - * / with the usual precedence;
/// x^n for an integer n (|n| <= 100000) binding tighter than the unary minus, as -2^2 = -4;
/// parentheses. Throws floatscope::Error naming the text and what is wrong: a malformed part,
/// division by zero, a fractional power, decimal exponents beyond +-100000.
void evaluate_value_expression(std::string_view text, mpq_t out);

}  // namespace floatscope::core
