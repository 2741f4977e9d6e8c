// Fuzz target: TestFloat vector lines (emu::run_testfloat_file). Input: an operation selector, a
// rounding-mode selector, then the file's text, written to a temporary file (the runner reads
// files, plain or gzip). Malformed lines must give floatscope::Error; failures are fine.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

#include "core/error.hpp"
#include "emulation/conformance/testfloat_operations.hpp"
#include "emulation/conformance/testfloat_runner.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace floatscope;
    // One file per fuzzing process, removed when it exits.
    struct RemovedAtExit {
        std::string path;
        ~RemovedAtExit() { std::remove(path.c_str()); }
    };
    static const RemovedAtExit file{
        (std::filesystem::temp_directory_path() / ("floatscope_fuzz_" + std::to_string(::getpid()) + ".tv")).string()};
    const std::string& path = file.path;
    fuzz::FuzzInput input(data, size);
    const auto& operations = emu::testfloat_operations();
    auto op = operations.begin();
    std::advance(op, input.byte() % operations.size());
    emu::TestFloatOptions options;
    options.operation = op->first;
    // TestFloat's deterministic modes: the runner refuses the stochastic ones.
    static constexpr core::RoundingMode modes[] = {core::RoundingMode::NearestEven, core::RoundingMode::NearestAway,
                                                   core::RoundingMode::TowardZero,  core::RoundingMode::Upward,
                                                   core::RoundingMode::Downward,    core::RoundingMode::ToOdd};
    options.mode = modes[input.byte() % std::size(modes)];
    std::ofstream(path, std::ios::binary | std::ios::trunc) << input.rest();
    try {
        emu::run_testfloat_file(path, options);
    } catch (const Error&) {
    }
    return 0;
}
