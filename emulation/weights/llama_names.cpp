// The names as llama.cpp's gguf-py/gguf/tensor_mapping.py (TensorNameMap: MODEL_TENSOR.TOKEN_EMBD
// "model.embed_tokens", ATTN_Q "model.layers.{bid}.self_attn.q_proj", FFN_GATE
// "model.layers.{bid}.mlp.gate_proj", ...) and gguf-py/gguf/constants.py (TENSOR_NAMES: "token_embd",
// "blk.{bid}.attn_q", ...) map them for LLM_ARCH_LLAMA; the permutation as convert_hf_to_gguf.py's
// LlamaModel.permute applies it in modify_tensors (q_proj with num_attention_heads, k_proj with
// num_key_value_heads):
//     weights.reshape(n_head, 2, rows // n_head // 2, *rest).swapaxes(1, 2).reshape(weights.shape)
#include "emulation/weights/llama_names.hpp"

#include <array>
#include <utility>

namespace floatscope::emu {

namespace {

struct NamePair {
    std::string_view hf;
    std::string_view gguf;
    LlamaRowOrder rows;
};

/// Outside the layers.
constexpr std::array<NamePair, 3> global_names = {{
    {"model.embed_tokens.weight", "token_embd.weight", LlamaRowOrder::Same},
    {"model.norm.weight", "output_norm.weight", LlamaRowOrder::Same},
    {"lm_head.weight", "output.weight", LlamaRowOrder::Same},
}};

/// Inside layer N: after "model.layers.N." and "blk.N.".
constexpr std::array<NamePair, 9> layer_names = {{
    {"self_attn.q_proj.weight", "attn_q.weight", LlamaRowOrder::Query},
    {"self_attn.k_proj.weight", "attn_k.weight", LlamaRowOrder::Key},
    {"self_attn.v_proj.weight", "attn_v.weight", LlamaRowOrder::Same},
    {"self_attn.o_proj.weight", "attn_output.weight", LlamaRowOrder::Same},
    {"mlp.gate_proj.weight", "ffn_gate.weight", LlamaRowOrder::Same},
    {"mlp.up_proj.weight", "ffn_up.weight", LlamaRowOrder::Same},
    {"mlp.down_proj.weight", "ffn_down.weight", LlamaRowOrder::Same},
    {"input_layernorm.weight", "attn_norm.weight", LlamaRowOrder::Same},
    {"post_attention_layernorm.weight", "ffn_norm.weight", LlamaRowOrder::Same},
}};

/// "N." at the start of `rest` (decimal digits, no sign or leading zero but "0"): N's text and the
/// rest after the dot.
std::optional<std::pair<std::string_view, std::string_view>> layer_index(std::string_view rest) {
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits == 0 || digits >= rest.size() || rest[digits] != '.' || (digits > 1 && rest[0] == '0'))
        return std::nullopt;
    return std::pair{rest.substr(0, digits), rest.substr(digits + 1)};
}

}  // namespace

std::optional<LlamaCounterpart> llama_counterpart(std::string_view name) {
    for (const NamePair& p : global_names) {
        if (name == p.hf) return LlamaCounterpart{std::string(p.gguf), p.rows};
        if (name == p.gguf) return LlamaCounterpart{std::string(p.hf), p.rows};
    }
    constexpr std::string_view hf_layer = "model.layers.";
    constexpr std::string_view gguf_layer = "blk.";
    const bool hf = name.starts_with(hf_layer);
    if (!hf && !name.starts_with(gguf_layer)) return std::nullopt;
    const auto index = layer_index(name.substr(hf ? hf_layer.size() : gguf_layer.size()));
    if (!index) return std::nullopt;
    for (const NamePair& p : layer_names) {
        if (index->second != (hf ? p.hf : p.gguf)) continue;
        const std::string_view prefix = hf ? gguf_layer : hf_layer;
        return LlamaCounterpart{std::string(prefix) + std::string(index->first) + "." + std::string(hf ? p.gguf : p.hf),
                                p.rows};
    }
    return std::nullopt;
}

std::uint64_t gguf_row_of_hf_row(std::uint64_t hf_row, std::uint64_t rows, std::uint64_t heads) {
    // HF row h*D + j*(D/2) + i (j in {0, 1}, i < D/2) is GGUF row h*D + 2i + j.
    const std::uint64_t head_dim = rows / heads;
    const std::uint64_t half = head_dim / 2;
    const std::uint64_t head = hf_row / head_dim;
    const std::uint64_t within = hf_row % head_dim;
    return head * head_dim + 2 * (within % half) + within / half;
}

std::uint64_t hf_row_of_gguf_row(std::uint64_t gguf_row, std::uint64_t rows, std::uint64_t heads) {
    const std::uint64_t head_dim = rows / heads;
    const std::uint64_t half = head_dim / 2;
    const std::uint64_t head = gguf_row / head_dim;
    const std::uint64_t within = gguf_row % head_dim;
    return head * head_dim + (within % 2) * half + within / 2;
}

}  // namespace floatscope::emu
