// Hugging Face Llama tensor names and llama.cpp's GGUF names of the same tensors, and the row order
// llama.cpp's converter gives the Q and K projections.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace floatscope::emu {

/// Which rows of a tensor llama.cpp's converter permutes.
enum class LlamaRowOrder {
    Same,  ///< stored as Hugging Face stores it
    Query,  ///< q_proj / attn_q: permuted with attention.head_count heads
    Key,  ///< k_proj / attn_k: permuted with attention.head_count_kv heads
};

struct LlamaCounterpart {
    std::string name;  ///< the tensor's name in the other naming
    LlamaRowOrder rows = LlamaRowOrder::Same;
};

/// The GGUF name of a Hugging Face Llama tensor name, or the Hugging Face name of a GGUF one
/// (model.layers.3.self_attn.q_proj.weight <-> blk.3.attn_q.weight); nullopt for any other name.
std::optional<LlamaCounterpart> llama_counterpart(std::string_view name);

/// The row of the GGUF tensor that holds Hugging Face row `hf_row` of a Q or K projection of
/// `rows` rows in `heads` heads (llama.cpp's permute: rows as (heads, 2, head_dim/2), the last two
/// axes swapped). `rows` must be a multiple of 2 * heads.
std::uint64_t gguf_row_of_hf_row(std::uint64_t hf_row, std::uint64_t rows, std::uint64_t heads);
/// The inverse: the Hugging Face row that GGUF row `gguf_row` holds.
std::uint64_t hf_row_of_gguf_row(std::uint64_t gguf_row, std::uint64_t rows, std::uint64_t heads);

}  // namespace floatscope::emu
