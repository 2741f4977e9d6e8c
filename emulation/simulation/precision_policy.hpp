// PrecisionPolicy: which format (and rounding) each role of a computation uses, layer by layer.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulation/accumulation/accumulation_model.hpp"

namespace floatscope::emu {

/// The roles a workload gives its numbers.
enum class Role {
    Storage,  ///< values kept in memory: parameters (master weights when training), inputs, data
    Compute,  ///< operands of matrix products and of elementwise arithmetic (activations, norms)
    Accumulate,  ///< accumulators of dot products, GEMMs and sums
    Output,  ///< results as written out of an operation or layer (what the next layer reads)
};
inline constexpr std::array<Role, 4> all_roles = {Role::Storage, Role::Compute, Role::Accumulate, Role::Output};

/// "storage" "compute" "accumulate" "output"; parse throws floatscope::Error listing them.
const char* to_string(Role role);
Role parse_role(std::string_view name);

/// Layers selected by a list of indices and ranges; negative indices count from the end (-1 = last).
struct LayerSelection {
    struct Range {
        int first = 0;
        int last = 0;  ///< inclusive
    };
    std::vector<Range> ranges;
    bool contains(int layer, int layer_count) const;
};

/// A node of a graph workload (onnx), as overrides select it.
struct GraphNode {
    std::string_view op_type;  ///< "MatMul"
    std::string_view name;  ///< "/encoder/layer.0/self_attn/MatMul"
};

/// A format per role, with per-layer overrides (or, in graph workloads, per op type and node
/// name); the last matching override wins.
///
/// Text form (parse_policy), clauses separated by ';':
///     bf16                                   every role in bf16, round to nearest even
///     fp16; accumulate=fp32                  a bare format sets every role, then roles change
///     name=amp; compute=bf16@sr; accumulate=fp32; output=bf16
///     fp8_e4m3; layers 0-1,-1 = bf16         layers 0, 1 and the last in bf16 (every role)
///     fp8_e4m3; layers 3 compute = fp16@rtz  one role of one layer
///     bf16; matmul = nvidia_a100_bf16        matrix products follow an accumulation preset
/// Graph workloads (onnx) also read:
///     fp32; ops MatMul,Gemm,Conv = fp8_e4m3  nodes of these op types (every role; a role may follow)
///     bf16; nodes /encoder/layer.0/* = fp32  nodes whose name matches the pattern ('*' any text, '?' one character)
///     autocast = fp16                        PyTorch autocast's op lists (onnx/autocast.hpp); roles default to fp32
///     fp32; weights = nf4                    MatMul/Gemm/Conv weight initializers fake-quantized with a quantize
///     scheme
/// Format names are anything parse_format accepts (modifiers such as e4m3:sat included); `@R`
/// picks the rounding mode (rne by default).
struct PrecisionPolicy {
    std::string name;  ///< defaults to the text it was parsed from
    std::array<core::FormatRounding, 4> roles;
    struct Override {
        /// What the override selects: layers (layer workloads), or op types or a node-name pattern
        /// (graph workloads); exactly one of them is set.
        LayerSelection layers;
        std::vector<std::string> op_types;
        std::string node_pattern;
        std::optional<Role> role;  ///< nullopt: every role
        core::FormatRounding rounding;
        bool selects_nodes() const { return !op_types.empty() || !node_pattern.empty(); }
        bool selects(const GraphNode& node) const;
    };
    std::vector<Override> overrides;
    std::string matmul_preset;  ///< name of an accumulation preset, or empty
    /// autocast = FORMAT: the graph's matrix products and convolutions in FORMAT, the ops PyTorch's
    /// autocast runs in fp32 in the roles' formats, the rest in their widest input's format.
    std::optional<core::FormatRounding> autocast;
    std::string weight_quantization;  ///< weights = SCHEME (a quantize scheme name), or empty

    /// Whether the policy has clauses only graph workloads read (ops, nodes, autocast, weights).
    bool has_graph_clauses() const;

    /// The format and rounding of `role` in `layer` (of `layer_count`; workloads without layers use 0 of 1).
    const core::FormatRounding& at(Role role, int layer = 0, int layer_count = 1) const;
    /// The model of a matrix product in `layer`: operands rounded to the compute format, exact products
    /// (fused), sequential accumulation in the accumulate format, results rounded to the output format;
    /// or, with `matmul_preset`, that preset's instructions chained as the hardware chains them, the
    /// result rounded once to the output format (chained_gemm_model).
    AccumulationModel matmul_model(int layer = 0, int layer_count = 1) const;
    /// The same for a node of a graph: `base` (the roles the node starts from: the policy's, or
    /// what autocast chose) with the op-type and node-name overrides applied.
    core::FormatRounding at(Role role, const GraphNode& node, const core::FormatRounding& base) const;
    /// The model of a matrix product whose roles have these formats (the preset's, when there is one,
    /// chained as chained_gemm_model says).
    AccumulationModel matmul_model(const core::FormatRounding& compute, const core::FormatRounding& accumulate,
                                   const core::FormatRounding& output) const;
    /// The text form, normalised (parse_policy(describe(p)) == p apart from the name).
    std::string describe() const;
};

/// A policy with every role in `format` under `mode`; named after the format.
PrecisionPolicy uniform_policy(const core::FormatSpec& format,
                               core::RoundingMode mode = core::RoundingMode::NearestEven);

/// Parses the text form above; throws floatscope::Error naming the clause and what would be valid.
PrecisionPolicy parse_policy(std::string_view text);

/// FORMAT[@ROUND] as a clause takes it; the core's errors (closest format names, valid modes) pass through.
core::FormatRounding parse_format_rounding(std::string_view text);

}  // namespace floatscope::emu
