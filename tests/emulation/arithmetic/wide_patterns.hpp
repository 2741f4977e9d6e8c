// Random bit patterns of binary formats of any width, for the tests of the wide paths.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include <gmpxx.h>

#include "core/format.hpp"

namespace floatscope::test {

/// Random patterns of a binary format, weighted toward the corners: zeros, subnormals, the
/// smallest and largest binades, infinities, NaNs (quiet and signaling), short significands
/// (which make exact results and ties common), and exponents close together (cancellation).
class PatternSource {
public:
    PatternSource(const core::FormatSpec& spec, std::uint64_t seed) : spec_(spec), random_(seed) {}

    mpz_class next() {
        const int E = spec_.exponent_bits, M = spec_.mantissa_bits;
        const std::int64_t top = (std::int64_t{1} << E) - 1;
        std::int64_t field = 0;
        switch (pick(8)) {
            case 0: field = pick(3); break;  // zero, subnormal, smallest normals
            case 1: field = top - 1 - pick(3); break;  // largest binades
            case 2: field = pick(40) == 0 ? top : top / 2 + pick(5) - 2; break;  // inf/NaN now and then, else near 1
            case 3: field = top / 2 + pick(2 * M + 8) - M - 4; break;  // within a few significands of 1
            default: field = 1 + static_cast<std::int64_t>(pick(static_cast<std::uint64_t>(top - 1))); break;
        }
        field = std::clamp<std::int64_t>(field, 0, top);
        mpz_class mantissa = random_bits(M);
        if (pick(3) == 0) {
            // Short significand: only the leading few bits set.
            const int kept = static_cast<int>(pick(static_cast<std::uint64_t>(std::min(M, 8)) + 1));
            mantissa >>= M - kept;
            mantissa <<= M - kept;
        }
        mpz_class bits = (mpz_class(field) << M) + mantissa;
        if (spec_.has_sign && pick(2) == 0) bits += mpz_class(1) << (E + M);
        return bits;
    }

    /// Uniform in 0 .. n - 1.
    std::uint64_t pick(std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random_); }
    /// n uniform random bits.
    mpz_class random_bits(int n) {
        mpz_class x = 0;
        for (int done = 0; done < n; done += 32) x = (x << 32) + static_cast<unsigned long>(random_() & 0xFFFFFFFFu);
        return x >> (((n + 31) / 32) * 32 - n);
    }

private:
    core::FormatSpec spec_;
    std::mt19937_64 random_;
};

}  // namespace floatscope::test
