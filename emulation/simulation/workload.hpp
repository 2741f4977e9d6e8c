// Workload: a named computation with a parameter schema, run under a PrecisionPolicy into a Trace,
// and once more in MPFR into a TruthTrace. The built-ins live in emulation/workloads/.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cost_model.hpp"
#include "emulation/simulation/parameters.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/run_control.hpp"
#include "emulation/simulation/trace.hpp"

namespace floatscope::emu {

/// A part of a computation that a policy can give formats of its own (the advisor's unit of
/// search): a layer, a graph node, the nodes of one op type.
struct PolicyUnit {
    std::string name;  ///< "layer 3", "MatMul", "/encoder/MatMul_1"
    /// What selects it in a policy clause: the clause ("layers", "ops", "nodes") and the unit's entry
    /// there ("3", "MatMul", "/enc/MatMul_1"); units of layers and ops share a clause as a list.
    std::string clause;
    std::string entry;
    std::string region_kind;  ///< the regions whose values the unit writes: their kind ...
    std::vector<int> region_indices;  ///< ... and indices
};

class Workload {
public:
    virtual ~Workload() = default;

    virtual std::string name() const = 0;  ///< what `run` takes: "mlp-forward"
    virtual std::string summary() const = 0;  ///< one line for `list`
    virtual std::string help() const { return summary(); }  ///< a paragraph: what it shows, where its facts come from
    virtual const std::vector<ParameterSpec>& parameters() const = 0;

    /// Checks what the schema cannot (combinations, memory needed: say how much was asked for and
    /// the limit) before anything is allocated; throws floatscope::Error.
    virtual void check(const Parameters& parameters) const { (void)parameters; }
    /// What one policy's run holds beyond what `check` states for every policy (an ONNX graph's values
    /// in flight as MPFR numbers under a policy wider than binary64, where `check` counts doubles),
    /// by core::require_memory; the engine counts the policy that needs the most.
    virtual void check_policy(const Parameters& parameters, const PrecisionPolicy& policy) const {
        (void)parameters;
        (void)policy;
    }
    /// The same for the ground truth at `precision` bits: `check`, and the memory of what only the
    /// truth holds (its MPFR copies). The engine adds up what both allow (core::MemoryTally) to
    /// decide which jobs may run at once within the process-wide limit.
    virtual void check_ground_truth(const Parameters& parameters, int precision) const {
        (void)precision;
        check(parameters);
    }

    /// What the run keeps per region until the engine measures it: the number of values all its
    /// regions record together (a policy's Trace holds them as doubles until the ground truth has
    /// measured them; the TruthTrace holds each region as MPFR numbers until it is measured). The
    /// one place a workload declares it: the engine adds it to what check and check_ground_truth
    /// state, which then cover the arrays a run works on.
    virtual double recorded_values(const Parameters& parameters) const {
        (void)parameters;
        return 0;
    }
    /// How many regions the run records under one policy: each becomes rows of the report (its
    /// measures and metrics, some sixty), which the engine keeps until the run ends.
    virtual double recorded_regions(const Parameters& parameters) const {
        (void)parameters;
        return 0;
    }

    /// Runs the computation under `policy`. The inputs depend on the parameters only (their seed),
    /// so that every policy and the ground truth see the same inputs. Calls control.checkpoint
    /// between units of work.
    virtual void run(const Parameters& parameters, const PrecisionPolicy& policy, Trace& trace,
                     RunControl& control) const = 0;

    /// What the computation asks of an accelerator under `policy` (operations per datasheet format,
    /// bytes moved and resident), for the cost model's roofline estimates (core/cost_model.hpp);
    /// nullopt where the workload does not model it.
    virtual std::optional<core::WorkloadCounts> work(const Parameters& parameters,
                                                     const PrecisionPolicy& policy) const {
        (void)parameters, (void)policy;
        return std::nullopt;
    }

    /// How many times its slowest policy's time the ground truth takes on the same parameters: the
    /// truth's share of a run's progress bar and of the time the GUI estimates (job_work.hpp). Each
    /// workload states what it measured on a 2-core Xeon (AVX-512); 10 where none was measured.
    virtual double truth_time_ratio() const { return 10; }

    /// The kinds of PolicyUnit this workload has ("layer"; "node", "op"), the first the default;
    /// none where a policy addresses the computation only as a whole.
    virtual std::vector<std::string> policy_unit_kinds() const { return {}; }
    /// The units of `kind` (one of policy_unit_kinds) for these parameters, in computation order.
    virtual std::vector<PolicyUnit> policy_units(const Parameters& parameters, std::string_view kind) const {
        (void)parameters, (void)kind;
        return {};
    }
    /// Whether each region is a result of its own (gemm: a product per k) rather than a step towards
    /// the last (a layer, an iteration, a partial sum): what the advisor's target measures.
    virtual bool regions_are_results() const { return false; }
    /// How many weight values a `weights = SCHEME` clause quantizes (0 where the workload has none).
    virtual double quantized_weight_values(const Parameters& parameters) const {
        (void)parameters;
        return 0;
    }

    /// Whether the results depend on the policy: false for workloads that compare their own schemes
    /// (weights), which the CLI then runs once, under fp32, unless policies are given.
    virtual bool uses_policy() const { return true; }
    /// Whether the workload runs a graph whose nodes the policy's ops, nodes, autocast and weights
    /// clauses select (onnx); the engine refuses those clauses elsewhere.
    virtual bool reads_graph_policy() const { return false; }
    /// Whether run_ground_truth exists (a training run has no MPFR twin; it reports its own metrics).
    virtual bool has_ground_truth() const { return true; }
    /// The same computation on the same inputs in MPFR at `precision` bits, recording the regions
    /// `run` records (same kinds, indices and value order). Dot products and GEMMs are exact sums of
    /// exact products rounded once (accumulation/exact_kernels.hpp), not chains of rounded MPFR operations.
    virtual void run_ground_truth(const Parameters& parameters, int precision, TruthTrace& truth,
                                  RunControl& control) const;
};

}  // namespace floatscope::emu
