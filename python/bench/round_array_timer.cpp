// The C++ side of scripts/python-bench.py: times core::round_array and the block quantizers on the
// same float32 values, best of several runs, so that the module's overhead can be read off.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <span>
#include <string>

#include "core/catalog.hpp"
#include "core/round_array.hpp"
#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/block_quantizer.hpp"

namespace {

template <typename Work>
double best_seconds(int repeats, Work work) {
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        work();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

/// n floats in memory laid out as NumPy lays out a large array (huge pages advised), so that the C++
/// and the Python timings differ by the call, not by the TLB.
std::span<float> numpy_like_buffer(std::size_t n) {
    constexpr std::size_t huge_page = std::size_t{1} << 21;
    const std::size_t bytes = (n * sizeof(float) + huge_page - 1) / huge_page * huge_page;
    void* memory = std::aligned_alloc(huge_page, bytes);
    madvise(memory, bytes, MADV_HUGEPAGE);
    return {static_cast<float*>(memory), n};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s VALUES.f32 REPEATS (raw float32, as numpy's tofile writes)\n", argv[0]);
        return 2;
    }
    std::ifstream file(argv[1], std::ios::binary | std::ios::ate);
    const std::size_t n = static_cast<std::size_t>(file.tellg()) / sizeof(float);
    const std::span<float> in = numpy_like_buffer(n), out = numpy_like_buffer(n);
    std::fill(out.begin(), out.end(), 0.0f);  // touched once, as the Python side's preallocated `out`
    file.seekg(0);
    file.read(reinterpret_cast<char*>(in.data()), static_cast<std::streamsize>(n * sizeof(float)));
    const int repeats = std::stoi(argv[2]);
    using namespace floatscope;
    for (const char* name : {"bf16", "fp16", "fp8_e4m3"}) {
        const core::FormatSpec spec = core::parse_format(name);
        const double s = best_seconds(repeats, [&] {
            core::round_array(spec, core::RoundingMode::NearestEven, std::span<const float>(in), out);
        });
        std::printf("round %s %.6f\n", name, s);
    }
    for (const char* name : {"mxfp4", "nvfp4"}) {
        const emu::BlockFormat format = emu::parse_block_format(name);
        const double s = best_seconds(repeats, [&] { emu::quantize_blocks(format, std::span<const float>(in)); });
        std::printf("quantize %s %.6f\n", name, s);
    }
    return 0;
}
