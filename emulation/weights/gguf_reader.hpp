// The GGUF reader (llama.cpp's files, versions 2 and 3): metadata, tensor infos, aligned tensor data.
#pragma once

#include <memory>

#include "emulation/weights/checkpoint.hpp"

namespace floatscope::emu {

/// Appends the tensors of a GGUF file (format: ggml/docs/gguf.md) to `into` and its key-value
/// pairs, as text, to into.metadata. Tensor types F32 F16 BF16 F64 I8 and the blocks Q8_0 Q4_0
/// Q4_1 Q5_0 Q5_1 MXFP4; any other is an error naming the tensor and the type.
void read_gguf(const std::shared_ptr<const MappedFile>& file, Checkpoint& into);

/// Whether the bytes start with GGUF's magic.
bool is_gguf(const MappedFile& file);

}  // namespace floatscope::emu
