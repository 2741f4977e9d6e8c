// CandidateSpace: what the advisor may give each unit (formats, per role), and the choices a policy
// makes for the whole run (the matrix-product preset, the weights' quantization scheme), parsed from
// `--candidates 'fp32,bf16,fp16; accumulate=fp32; matmul=nvidia_h100_fp8_e4m3; weights=int8,nvfp4'`.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/format_rounding.hpp"
#include "emulation/simulation/precision_policy.hpp"

namespace floatscope::emu {

/// One setting of a unit: a format for every role, then roles of their own.
struct UnitCandidate {
    core::FormatRounding format;
    std::vector<std::pair<Role, core::FormatRounding>> roles;
    std::string label;  ///< "bf16", "bf16, accumulate=fp16"
    double output_bits = 0;  ///< bits of a value the unit writes (its output role's storage)
};

struct CandidateSpace {
    /// The settings of every unit, the most expensive first (widest output, then widest roles):
    /// the first is the reference every unit starts from.
    std::vector<UnitCandidate> unit;
    /// Roles given a single format (`accumulate=fp32`): every setting keeps them.
    std::vector<std::pair<Role, core::FormatRounding>> fixed_roles;
    /// matmul = PRESET choices for the whole run; "" (the policy's own formats) first.
    std::vector<std::string> matmul;
    /// weights = SCHEME choices for the whole run; "" (unquantized) first, then by bits per value.
    std::vector<std::string> weights;
    std::vector<double> weight_bits;  ///< bits per value of each weights choice (0 for "")
};

/// Parses the candidates text: clauses separated by ';', a clause without '=' the formats list,
/// ROLE=F1,F2 a role's list (one format: fixed for every setting), matmul=P1,P2 and weights=S1,S2.
/// Throws floatscope::Error naming the clause and what would be valid.
CandidateSpace parse_candidate_space(std::string_view text);

/// The policy clause that gives `candidate` (with the fixed roles) to what `selector` selects
/// ("layers 3", "ops MatMul"), or to the whole run when `selector` is empty.
std::string candidate_clauses(const CandidateSpace& space, const UnitCandidate& candidate, const std::string& selector);

}  // namespace floatscope::emu
