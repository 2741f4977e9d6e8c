// Integers wrapped as fixed-width types wrap.
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"

#include "emulation/workloads/onnx/element_decoding.hpp"

namespace floatscope::emu::onnx {

std::int64_t wrap_integer(std::uint64_t bits, ElementType type) {
    // Unsigned to signed conversion is modular (C++20): the two's-complement value of the low bits.
    switch (type) {
        case ElementType::Int8: return static_cast<std::int8_t>(static_cast<std::uint8_t>(bits));
        case ElementType::UInt8: return static_cast<std::uint8_t>(bits);
        case ElementType::Int16: return static_cast<std::int16_t>(static_cast<std::uint16_t>(bits));
        case ElementType::UInt16: return static_cast<std::uint16_t>(bits);
        case ElementType::Int4: return static_cast<std::int64_t>(bits & 0xF) - ((bits & 0x8) != 0 ? 16 : 0);
        case ElementType::UInt4: return static_cast<std::int64_t>(bits & 0xF);
        case ElementType::Int32: return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
        case ElementType::UInt32: return static_cast<std::uint32_t>(bits);
        case ElementType::UInt64: return uint64_value(bits);
        case ElementType::Bool: return bits != 0 ? 1 : 0;
        default: return static_cast<std::int64_t>(bits);
    }
}

}  // namespace floatscope::emu::onnx
