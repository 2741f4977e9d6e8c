// The 16-point randomized Walsh-Hadamard transform, in double per block of 16.
#include "emulation/quantize/hadamard.hpp"

#include <bit>

namespace floatscope::emu {

const std::array<float, 16>& hadamard_signs() {
    // A fixed vector of 16 signs, eight of each: any fixed draw serves, and a fixed one makes runs repeatable.
    static const std::array<float, 16> signs = {1, -1, -1, 1, 1, 1, -1, 1, -1, 1, 1, -1, -1, -1, 1, -1};
    return signs;
}

void random_hadamard_transform(std::span<float> x, bool inverse) {
    const std::array<float, 16>& d = hadamard_signs();
    // Sylvester's H_16: entry (i, j) is (-1)^popcount(i & j).
    const auto h = [](unsigned i, unsigned j) { return (std::popcount(i & j) & 1) != 0 ? -0.25 : 0.25; };
    for (std::size_t b0 = 0; b0 + 16 <= x.size(); b0 += 16) {
        double in[16];
        for (unsigned j = 0; j < 16; ++j) in[j] = inverse ? x[b0 + j] : d[j] * static_cast<double>(x[b0 + j]);
        for (unsigned i = 0; i < 16; ++i) {
            double sum = 0;
            for (unsigned j = 0; j < 16; ++j) sum += h(i, j) * in[j];
            x[b0 + i] = static_cast<float>(inverse ? d[i] * sum : sum);
        }
    }
}

}  // namespace floatscope::emu
