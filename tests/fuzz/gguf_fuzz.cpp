// Fuzz target: GGUF files (emu::open_checkpoint's GGUF reader): the magic is supplied, the rest is the input.
#include <string>

#include "checkpoint_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string bytes = "GGUF";
    bytes.append(reinterpret_cast<const char*>(data), size);
    floatscope::fuzz::open_and_decode(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), ".gguf");
    return 0;
}
