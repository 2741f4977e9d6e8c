// Fuzz target: IDX files (emu::read_idx, the MNIST-style datasets). Input: a byte choosing
// max_items (0: all), then the file, written to a temporary file (the reader reads files, plain
// or gzip). Property: what is read has as many values as its dimensions say.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <unistd.h>

#include "core/error.hpp"
#include "emulation/workloads/data/idx_file.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace floatscope;
    // One file per fuzzing process, removed when it exits.
    struct RemovedAtExit {
        std::string path;
        ~RemovedAtExit() { std::remove(path.c_str()); }
    };
    static const RemovedAtExit file{
        (std::filesystem::temp_directory_path() / ("floatscope_fuzz_" + std::to_string(::getpid()) + ".idx")).string()};
    fuzz::FuzzInput input(data, size);
    const std::size_t max_items = input.byte() % 4;
    std::ofstream(file.path, std::ios::binary | std::ios::trunc) << input.rest();
    emu::IdxArray array;
    try {
        array = emu::read_idx(file.path, max_items);
    } catch (const Error&) {
        return 0;
    }
    std::size_t count = 1;
    for (std::uint32_t d : array.dimensions) count *= d;
    if (array.dimensions.empty() || count != array.values.size())
        fuzz::property_failed("values match the dimensions", fmt::format("{} values", array.values.size()));
    return 0;
}
