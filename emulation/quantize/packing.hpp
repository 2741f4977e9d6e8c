// Packed storage: n-bit codes in a bit stream, and the exact storage of block-scaled formats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "emulation/quantize/block_format.hpp"

namespace floatscope::emu {

/// Packs codes of `bits` bits (1..16) into a little-endian bit stream: code i occupies stream
/// bits [i*bits, (i+1)*bits), stream bit k being bit k%8 of byte k/8. So two 4-bit codes share a
/// byte (code 2j in the low nibble, as PyTorch's float4_e2m1fn_x2; bitsandbytes puts it in the
/// high nibble), and four 6-bit codes fill three bytes. Throws floatscope::Error for a bad width
/// or a code that does not fit in it.
std::vector<std::uint8_t> pack_codes(std::span<const std::uint16_t> codes, int bits);
std::vector<std::uint8_t> pack_codes(std::span<const std::uint8_t> codes, int bits);

/// The inverse of pack_codes: `count` codes of `bits` bits. Throws when the stream is too short.
std::vector<std::uint16_t> unpack_codes(std::span<const std::uint8_t> stream, int bits, std::size_t count);

/// Bytes of `count` packed codes of `bits` bits: ceil(count * bits / 8).
std::size_t packed_bytes(std::size_t count, int bits);

/// Exact storage of `count` values in a block format, in bits: element codes, one scale per
/// (possibly partial) block, and the per-tensor parts (NVFP4's FP32 tensor scale; with double
/// quantization the FP32 mean and one FP32 scale per 256 blocks). A tiled format's values are
/// one row here.
std::uint64_t storage_bits(const BlockFormat& format, std::size_t count);
/// The same for a rows x cols matrix, one scale per (possibly partial) tile of tile_rows x
/// block_size where the format has tiles: nvfp4:2d one E4M3 per 16x16 tile, fp8_blockwise one
/// FP32 (or E8M0) per 1x128 tile or 128x128 block. (Transformer Engine hands the GEMM a 2-D tile's
/// scale once per 1x16 row of it; what the tile holds is one scale, counted once.)
std::uint64_t tiled_storage_bits(const BlockFormat& format, std::size_t rows, std::size_t cols);

/// Bits per value for large tensors (per-tensor constants amortized away): element bits + scale
/// bits / block size (+ 32 / (block * 256) with double quantization). MXFP4 4.25, MXFP8 8.25,
/// NVFP4 4.5, NF4 (block 64) 4.5, NF4 with double quantization 4.127; tiles amortize their scale
/// over tile_rows x block_size values (nvfp4:2d 4.03125, fp8_blockwise 8.25, :ue8m0 8.0625,
/// :128x128 8 + 32/16384).
double bits_per_value(const BlockFormat& format);

}  // namespace floatscope::emu
