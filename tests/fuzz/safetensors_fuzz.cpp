// Fuzz target: safetensors files (emu::open_checkpoint's safetensors reader), every tensor decoded.
#include "checkpoint_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    floatscope::fuzz::open_and_decode(data, size, ".safetensors");
    return 0;
}
