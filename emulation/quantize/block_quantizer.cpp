// Dispatch of block quantization by family, and the one dequantization all families share.
#include "emulation/quantize/block_quantizer.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/kernel_clones.hpp"
#include "emulation/quantize/element_codec.hpp"
#include "emulation/quantize/fp8_blockwise.hpp"
#include "emulation/quantize/mx.hpp"
#include "emulation/quantize/nf4.hpp"
#include "emulation/quantize/nvfp4.hpp"

namespace floatscope::emu {

BlockQuantized quantize_blocks(const BlockFormat& format, std::span<const float> x, core::StochasticSource* random) {
    switch (format.family) {
        case BlockFamily::Mx: return quantize_mx(format, x, random);
        case BlockFamily::Nvfp4: return quantize_nvfp4(format, x, random);
        case BlockFamily::Absmax: return quantize_absmax(format, x);
        case BlockFamily::Fp8Blockwise: return quantize_fp8_blockwise(format, x);
    }
    throw Error("quantize_blocks: unknown block family");
}

FLOATSCOPE_KERNEL_CLONES void dequantize_blocks(const BlockQuantized& q, std::span<float> out) {
    if (out.size() != q.size())
        throw Error("dequantize_blocks: output holds " + std::to_string(out.size()) + " values, the tensor " +
                    std::to_string(q.size()));
    const ElementCodec codec(q.format);
    const std::array<float, 256>& table = codec.table();
    const std::size_t block = static_cast<std::size_t>(q.format.block_size);
    const std::uint8_t* codes = q.codes.data();
    for (std::size_t b = 0; b < q.block_count(); ++b) {
        const std::size_t b0 = b * block;
        const std::size_t b1 = std::min(out.size(), b0 + block);
        const float scale = q.block_scales[b];
        for (std::size_t i = b0; i < b1; ++i) out[i] = table[codes[i]] * scale;
    }
}

}  // namespace floatscope::emu
