// exact_gemm_by_doubles: exact_gemm by a matrix of doubles (a network's weights): the same numbers as exact_gemm by the
// doubles held as 53-bit MPFR numbers, with no MPFR number made per weight.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "emulation/arithmetic/truth_number.hpp"

namespace floatscope::emu {

/// C (m x n) = A (m x k) B (k x n), row-major, as exact_gemm (exact_kernels.hpp) gives it with B's
/// doubles held as 53-bit numbers: each weight read from the double into the factor tables, where
/// converting a layer's weights into MPFR numbers first cost an allocation each (a million for
/// mlp-forward's defaults: 7% of a layer's CPU in the truth). Threads as exact_gemm's.
std::vector<TruthNumber> exact_gemm_by_doubles(std::span<const TruthNumber> a, std::span<const double> b, std::size_t m,
                                               std::size_t k, std::size_t n, int precision);

/// The same with A's doubles too (a graph's input by its weights), each read as the 53-bit number that
/// holds it: no MPFR number made for either factor.
std::vector<TruthNumber> exact_gemm_by_doubles(std::span<const double> a, std::span<const double> b, std::size_t m,
                                               std::size_t k, std::size_t n, int precision);

}  // namespace floatscope::emu
