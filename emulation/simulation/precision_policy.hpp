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

/// A format per role, with per-layer overrides; the last matching override wins.
///
/// Text form (parse_policy), clauses separated by ';':
///     bf16                                   every role in bf16, round to nearest even
///     fp16; accumulate=fp32                  a bare format sets every role, then roles change
///     name=amp; compute=bf16@sr; accumulate=fp32; output=bf16
///     fp8_e4m3; layers 0-1,-1 = bf16         layers 0, 1 and the last in bf16 (every role)
///     fp8_e4m3; layers 3 compute = fp16@rtz  one role of one layer
///     bf16; matmul = nvidia_a100_bf16        matrix products follow an accumulation preset
/// Format names are anything parse_format accepts (modifiers such as e4m3:sat included); `@R`
/// picks the rounding mode (rne by default).
struct PrecisionPolicy {
    std::string name;  ///< defaults to the text it was parsed from
    std::array<core::FormatRounding, 4> roles;
    struct Override {
        LayerSelection layers;
        std::optional<Role> role;  ///< nullopt: every role
        core::FormatRounding rounding;
    };
    std::vector<Override> overrides;
    std::string matmul_preset;  ///< name of an accumulation preset, or empty

    /// The format and rounding of `role` in `layer` (of `layer_count`; workloads without layers use 0 of 1).
    const core::FormatRounding& at(Role role, int layer = 0, int layer_count = 1) const;
    /// The model of a matrix product in `layer`: operands rounded to the compute format, exact products
    /// (fused), sequential accumulation in the accumulate format, results rounded to the output format;
    /// or, with `matmul_preset`, that preset's model with its output rounded to the output format.
    AccumulationModel matmul_model(int layer = 0, int layer_count = 1) const;
    /// The text form, normalised (parse_policy(describe(p)) == p apart from the name).
    std::string describe() const;
};

/// A policy with every role in `format` under `mode`; named after the format.
PrecisionPolicy uniform_policy(const core::FormatSpec& format,
                               core::RoundingMode mode = core::RoundingMode::NearestEven);

/// Parses the text form above; throws floatscope::Error naming the clause and what would be valid.
PrecisionPolicy parse_policy(std::string_view text);

}  // namespace floatscope::emu
