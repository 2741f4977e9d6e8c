// The safetensors reader: an 8-byte header length, a JSON header, the tensors' raw little-endian bytes.
#pragma once

#include <memory>

#include "emulation/weights/checkpoint.hpp"

namespace floatscope::emu {

/// Appends the tensors of one safetensors file (format: github.com/huggingface/safetensors,
/// README "Format") to `into`, and its __metadata__ to into.metadata. Dtypes F64 F32 F16 BF16 I8
/// U8 F8_E4M3 F8_E5M2 F8_E8M0 F4 (as fp64 fp32 fp16 bf16 int8 uint8 fp8_e4m3 fp8_e5m2 e8m0
/// fp4_e2m1); any other is an error naming the tensor and the dtype.
void read_safetensors(const std::shared_ptr<const MappedFile>& file, Checkpoint& into);

}  // namespace floatscope::emu
