// RunSetup: what the runner is set to (workload, parameters, policies) and the engine requests it becomes.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulation/simulation/engine.hpp"

namespace floatscope::gui {

/// One policy of a comparison: the text form of parse_policy, and parameters that differ from the
/// form's for this policy alone (train-mlp's loss-scaling=false beside loss-scaling=true).
struct PolicyEntry {
    std::string text;
    std::vector<std::pair<std::string, std::string>> parameters;
    friend bool operator==(const PolicyEntry&, const PolicyEntry&) = default;
};

struct RunSetup {
    std::string workload;
    std::map<std::string, std::string> parameters;  ///< name -> value as typed; missing ones take defaults
    std::vector<PolicyEntry> policies;
    friend bool operator==(const RunSetup&, const RunSetup&) = default;
};

/// "loss-scaling=false, epochs=2" -> pairs; throws floatscope::Error naming an item without '='.
std::vector<std::pair<std::string, std::string>> parse_assignments(const std::string& text);
/// The inverse of parse_assignments.
std::string describe_assignments(const std::vector<std::pair<std::string, std::string>>& assignments);

/// Why the workload cannot run a policy that parses (a policy carried over from another workload:
/// an onnx policy's ops clauses for gemm), known before it runs; nullopt when it can, or when the
/// policy does not parse (which the editor says as typed). Throws floatscope::Error for an unknown workload.
std::optional<std::string> policy_refusal(const std::string& workload, const PolicyEntry& entry);

/// The engine requests of a setup: policies with the same parameter overrides share one request
/// (one ground truth), in order of first appearance; run ids "1", "2", .... Everything is checked
/// here, before a run starts: throws floatscope::Error for an unknown workload, a bad parameter
/// (also one a policy overrides) or a bad policy (naming the policy), and when there is no policy
/// to run. A policy the workload refuses (policy_refusal) is left out, not the run: `left_out`
/// gets "policy: why" for each.
std::vector<emu::RunRequest> build_requests(const RunSetup& setup, int threads,
                                            std::vector<std::string>* left_out = nullptr);

/// Runs the requests as the CLI does: one request through emu::run (what `floatscope-cli run`
/// writes), several through emu::run_all as one report. Throws what the engine throws.
emu::Report execute(const std::vector<emu::RunRequest>& requests, int threads, emu::RunControl& control);

}  // namespace floatscope::gui
