// The advisor's search: sensitivity, a construction in order of cost saved per error added,
// refinement at the boundary; every configuration run against one ground truth, kept across rounds.
#include "emulation/advisor/advisor.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/output_reuse.hpp"

namespace floatscope::emu {

std::string TuneDimension::choice_label(const CandidateSpace& space, std::size_t c) const {
    switch (kind) {
        case Kind::Unit: return space.unit[c].label;
        case Kind::Matmul: return c == 0 ? "none" : space.matmul[c];
        case Kind::Weights: return c == 0 ? "none" : space.weights[c];
    }
    return {};
}

namespace {

using Clock = std::chrono::steady_clock;

/// "1,2,3,5" as "1-3,5": layer indices in increasing order, runs written as ranges.
std::string layer_list(const std::vector<std::string>& layers) {
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < layers.size();) {
        std::size_t j = i;
        while (j + 1 < layers.size() && std::stoi(layers[j + 1]) == std::stoi(layers[j]) + 1) ++j;
        parts.push_back(j == i ? layers[i] : layers[i] + "-" + layers[j]);
        i = j + 1;
    }
    return fmt::format("{}", fmt::join(parts, ","));
}

/// The tuning's parameters with the held-out ones in place of those of the same name.
Parameters held_out_parameters(const TuneRequest& request) {
    const auto name_of = [](const std::string& assignment) { return assignment.substr(0, assignment.find('=')); };
    std::vector<std::string> assignments;
    for (const std::string& a : request.assignments)
        if (std::none_of(request.validation_assignments.begin(), request.validation_assignments.end(),
                         [&](const std::string& v) { return name_of(v) == name_of(a); }))
            assignments.push_back(a);
    assignments.insert(assignments.end(), request.validation_assignments.begin(), request.validation_assignments.end());
    Parameters parameters = Parameters::parse(request.workload->parameters(), assignments);
    request.workload->check(parameters);
    return parameters;
}

class Search {
public:
    Search(const TuneRequest& request, RunControl& control)
        : request_(request),
          control_(control),
          parameters_(Parameters::parse(request.workload->parameters(), request.assignments)),
          cost_(request.cost, *request.workload, parameters_, request.hardware) {
        const Workload& workload = *request.workload;
        if (!workload.uses_policy())
            throw Error(fmt::format("tune: {} compares its own schemes and does not depend on a policy", workload.name()));
        const std::vector<std::string> kinds = workload.policy_unit_kinds();
        if (!request.unit_kind.empty() && std::find(kinds.begin(), kinds.end(), request.unit_kind) == kinds.end())
            throw Error(kinds.empty() ? fmt::format("tune: {} has no units (--unit); it is tuned as a whole", workload.name())
                                      : fmt::format("tune: {} has no unit '{}'; its units: {}", workload.name(),
                                                    request.unit_kind, fmt::join(kinds, ", ")));
        if (request.candidates.weights.size() > 1 && !workload.reads_graph_policy())
            throw Error(fmt::format("tune: weights= candidates need a graph workload (onnx); {} has no weights clause",
                                    workload.name()));
        if (request.budget_runs < 1) throw Error("tune: --budget-runs must be at least 1");
        if (!request.validation_assignments.empty()) validation_parameters_ = held_out_parameters(request);
        result_.unit_kind = request.unit_kind.empty() && !kinds.empty() ? kinds.front() : request.unit_kind;
        if (!result_.unit_kind.empty()) {
            result_.units = workload.policy_units(parameters_, result_.unit_kind);
            if (result_.units.empty())
                throw Error(fmt::format("tune: {} has no unit of kind '{}' here", workload.name(), result_.unit_kind));
        }
        const CandidateSpace& space = request.candidates;
        for (std::size_t u = 0; u < std::max<std::size_t>(result_.units.size(), 1); ++u)
            result_.dimensions.push_back({TuneDimension::Kind::Unit,
                                          result_.units.empty() ? std::string("everything") : result_.units[u].name, u,
                                          space.unit.size()});
        if (space.matmul.size() > 1)
            result_.dimensions.push_back({TuneDimension::Kind::Matmul, "matmul", 0, space.matmul.size()});
        if (space.weights.size() > 1) {
            result_.dimensions.push_back({TuneDimension::Kind::Weights, "weights", 0, space.weights.size()});
            weight_values_ = workload.quantized_weight_values(parameters_);
        }
    }

    TuneResult run() {
        const auto start = Clock::now();
        // Configurations differ in a few units: a graph's nodes that a configuration shares with one
        // run before (same formats and inputs) are taken from it rather than computed again.
        const OutputReuseScope reuse(core::memory_limit() / 8);
        const Configuration reference(result_.dimensions.size(), 0);
        sensitivity(reference);
        const TriedConfiguration& base = result_.tried[result_.reference];
        if (base.measure.meets) {
            construction(reference);
            refinement();
        }
        finish();
        result_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return std::move(result_);
    }

private:
    const TuneRequest& request_;
    RunControl& control_;
    Parameters parameters_;
    TuningCost cost_;
    TuneResult result_;
    std::map<Configuration, std::size_t> known_;
    std::vector<double> unit_values_;  ///< values each unit writes (from the reference's run)
    double weight_values_ = 0;
    std::optional<Parameters> validation_parameters_;
    std::vector<std::string> errors_;  ///< run_round's, per configuration of the round
    /// The tuning inputs' ground truth, run in the first round and measured against in every other.
    std::shared_ptr<KeptTruth> truth_ = std::make_shared<KeptTruth>();

    /// The reference's clauses, then each cheaper setting for the units that have it (layers and
    /// op types as one list), then the run's matmul and weights choices.
    std::string policy_text(const Configuration& c) const {
        const CandidateSpace& space = request_.candidates;
        std::string text;
        std::string global;
        std::map<std::pair<std::size_t, std::string>, std::vector<std::string>> selections;  // (setting, clause) -> entries
        for (std::size_t d = 0; d < result_.dimensions.size(); ++d) {
            const TuneDimension& dim = result_.dimensions[d];
            const auto choice = static_cast<std::size_t>(c[d]);
            if (dim.kind == TuneDimension::Kind::Matmul && choice != 0) global += "; matmul = " + space.matmul[choice];
            if (dim.kind == TuneDimension::Kind::Weights && choice != 0) global += "; weights = " + space.weights[choice];
            if (dim.kind != TuneDimension::Kind::Unit) continue;
            if (result_.units.empty()) {
                text = candidate_clauses(space, space.unit[choice], "");
                continue;
            }
            if (choice == 0) continue;
            const PolicyUnit& unit = result_.units[dim.unit];
            if (unit.clause == "nodes")
                selections[{choice, "nodes " + unit.entry}].push_back("");
            else
                selections[{choice, unit.clause}].push_back(unit.entry);
        }
        if (!result_.units.empty()) {
            text = candidate_clauses(space, space.unit[0], "");
            for (const auto& [key, entries] : selections) {
                const auto& [choice, clause] = key;
                std::string selector = clause;
                if (clause == "layers") selector += " " + layer_list(entries);
                if (clause == "ops") selector += " " + fmt::format("{}", fmt::join(entries, ","));
                text += "; " + candidate_clauses(space, space.unit[choice], selector);
            }
        }
        return text + global;
    }

    double cost_of(const Configuration& c, const PrecisionPolicy& policy) const {
        const CandidateSpace& space = request_.candidates;
        std::vector<double> bits;
        double weight_bits = space.unit[0].output_bits;
        for (std::size_t d = 0; d < result_.dimensions.size(); ++d) {
            const auto choice = static_cast<std::size_t>(c[d]);
            if (result_.dimensions[d].kind == TuneDimension::Kind::Unit) bits.push_back(space.unit[choice].output_bits);
            if (result_.dimensions[d].kind == TuneDimension::Kind::Weights && choice != 0)
                weight_bits = space.weight_bits[choice];
        }
        return cost_.cost(policy, unit_values_, bits, weight_values_, weight_bits);
    }

    /// The values each unit writes, from the reference's value_count rows; where the run counts no
    /// values (fpcore's points), each unit counts one.
    void count_unit_values(const Report& report, const std::string& policy) {
        const bool counted = std::any_of(report.rows.begin(), report.rows.end(),
                                         [](const ReportRow& row) { return row.metric == metric::value_count; });
        unit_values_.assign(std::max<std::size_t>(result_.units.size(), 1), counted ? 0 : 1);
        for (const ReportRow& row : report.rows) {
            if (row.policy != policy || row.metric != metric::value_count) continue;
            if (result_.units.empty()) {
                unit_values_[0] += row.value;
                continue;
            }
            for (std::size_t u = 0; u < result_.units.size(); ++u) {
                const PolicyUnit& unit = result_.units[u];
                if (row.region_kind == unit.region_kind &&
                    std::find(unit.region_indices.begin(), unit.region_indices.end(), row.region_index) !=
                        unit.region_indices.end())
                    unit_values_[u] += row.value;
            }
        }
    }

    /// Runs the configurations not tried yet, as many as the budget allows, as one engine run (one
    /// ground truth); returns the index of each configuration in tried (nullopt: over budget).
    std::vector<std::optional<std::size_t>> measure(const std::vector<Configuration>& configurations,
                                                    const std::string& phase) {
        RunRequest run;
        run.workload = request_.workload;
        run.parameters = parameters_;
        run.mpfr_precision = request_.mpfr_precision;
        run.threads = request_.threads;
        run.run_id = std::to_string(result_.rounds + 1);
        run.kept_truth = truth_;
        run.results_only = true;
        std::vector<std::size_t> fresh;
        for (const Configuration& c : configurations) {
            if (known_.contains(c)) continue;
            if (static_cast<int>(result_.tried.size()) >= request_.budget_runs) {
                result_.budget_exhausted = true;
                break;
            }
            TriedConfiguration tried;
            tried.name = fmt::format("c{}", result_.tried.size());
            tried.configuration = c;
            tried.policy = policy_text(c);
            tried.phase = phase;
            tried.round = result_.rounds + 1;
            PrecisionPolicy policy = parse_policy(tried.policy);
            policy.name = tried.name;
            run.policies.push_back(std::move(policy));
            known_[c] = result_.tried.size();
            fresh.push_back(result_.tried.size());
            result_.tried.push_back(std::move(tried));
        }
        if (!fresh.empty()) {
            ++result_.rounds;
            RunControl round(control_, 0, 1, fmt::format("round {} ({}, {} configurations)", result_.rounds, phase, fresh.size()));
            const std::vector<std::optional<Report>> reports = run_round(run, round);
            const auto report_of = [&](std::size_t i) -> const std::optional<Report>& {
                return reports.size() == 1 ? reports.front() : reports[i];
            };
            for (std::size_t i = 0; i < fresh.size() && unit_values_.empty(); ++i)
                if (report_of(i)) count_unit_values(*report_of(i), result_.tried[fresh[i]].name);
            for (std::size_t i = 0; i < fresh.size(); ++i) {
                TriedConfiguration& tried = result_.tried[fresh[i]];
                if (report_of(i)) {
                    tried.measure = measure_target(request_.target, *report_of(i), run.run_id, tried.name,
                                                   request_.workload->regions_are_results());
                } else {
                    tried.error = errors_[i];
                    tried.measure = {request_.target.at_most ? INFINITY : -INFINITY, NAN, request_.target.at_most, false, false};
                }
                tried.cost = cost_of(tried.configuration, run.policies[i]);
            }
        }
        std::vector<std::optional<std::size_t>> indices;
        for (const Configuration& c : configurations) {
            const auto found = known_.find(c);
            indices.push_back(found == known_.end() ? std::nullopt : std::optional(found->second));
        }
        return indices;
    }

    /// The round's report; where the run of one configuration fails (an FPCore loop past its budget
    /// in a narrow format), each configuration's own report, nullopt for those that failed (their
    /// messages in errors_), so that one configuration that cannot run misses the target alone.
    std::vector<std::optional<Report>> run_round(const RunRequest& run, RunControl& round) {
        try {
            return {emu::run(run, round)};
        } catch (const Cancelled&) {
            throw;
        } catch (const Error&) {
        }
        std::vector<std::optional<Report>> reports;
        errors_.assign(run.policies.size(), {});
        for (std::size_t i = 0; i < run.policies.size(); ++i) {
            RunRequest alone = run;
            alone.policies = {run.policies[i]};
            try {
                reports.push_back(emu::run(alone, round));
            } catch (const Cancelled&) {
                throw;
            } catch (const Error& e) {
                reports.push_back(std::nullopt);
                errors_[i] = e.what();
            }
        }
        return reports;
    }

    /// (1) The reference, and each dimension alone at each cheaper choice.
    void sensitivity(const Configuration& reference) {
        std::vector<Configuration> configurations = {reference};
        std::vector<std::pair<std::size_t, int>> singles;
        for (std::size_t d = 0; d < result_.dimensions.size(); ++d)
            for (int c = 1; c < static_cast<int>(result_.dimensions[d].choices); ++c) {
                Configuration single = reference;
                single[d] = c;
                configurations.push_back(single);
                singles.push_back({d, c});
            }
        const auto indices = measure(configurations, "sensitivity");
        result_.reference = *indices[0];
        result_.tried[result_.reference].phase = "reference";
        for (std::size_t i = 0; i < singles.size(); ++i)
            if (indices[i + 1]) result_.sensitivity.push_back({singles[i].first, singles[i].second, *indices[i + 1]});
    }

    /// (2) Every single lowering that met the target, in order of cost saved per error added, applied
    /// one after another; each prefix of the sequence runs in one round, the longest that meets the
    /// target is kept, the step that broke it is dropped, and the rest continues from there.
    void construction(Configuration current) {
        const TriedConfiguration& base = result_.tried[result_.reference];
        struct Step {
            std::size_t dimension;
            int choice;
            double saved, added;
        };
        std::vector<Step> steps;
        for (const Sensitivity& s : result_.sensitivity) {
            const TriedConfiguration& single = result_.tried[s.tried];
            if (!single.measure.meets || single.cost >= base.cost) continue;
            steps.push_back({s.dimension, s.choice, base.cost - single.cost,
                             std::max(0.0, single.measure.badness() - base.measure.badness())});
        }
        // Free steps (no error added) first, by cost saved; then by cost saved per error added.
        std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
            if ((a.added == 0) != (b.added == 0)) return a.added == 0;
            if (a.added == 0) return a.saved > b.saved;
            return a.saved / a.added > b.saved / b.added;
        });
        while (!steps.empty() && !result_.budget_exhausted) {
            std::vector<Configuration> prefixes;
            std::vector<std::size_t> taken;
            Configuration next = current;
            for (std::size_t s = 0; s < steps.size(); ++s) {
                if (steps[s].choice <= next[steps[s].dimension]) continue;
                next[steps[s].dimension] = steps[s].choice;
                prefixes.push_back(next);
                taken.push_back(s);
            }
            if (prefixes.empty()) break;
            const auto indices = measure(prefixes, "construction");
            std::size_t kept = 0;
            while (kept < prefixes.size() && indices[kept] && result_.tried[*indices[kept]].measure.meets) ++kept;
            if (kept > 0) current = prefixes[kept - 1];
            // Steps kept, the one that broke the sequence, and those no longer cheaper are done.
            std::vector<Step> rest;
            for (std::size_t s = 0; s < steps.size(); ++s) {
                const auto position = std::find(taken.begin(), taken.end(), s) - taken.begin();
                const bool done = position < static_cast<std::ptrdiff_t>(kept + 1) && position < static_cast<std::ptrdiff_t>(taken.size());
                if (!done && steps[s].choice > current[steps[s].dimension]) rest.push_back(steps[s]);
            }
            steps = std::move(rest);
        }
    }

    /// The error a configuration is expected to add, for ordering what to run next (never to decide):
    /// the sum of what each of its choices added alone.
    double expected_badness(const Configuration& c) const {
        const double base = result_.tried[result_.reference].measure.badness();
        double added = 0;
        for (const Sensitivity& s : result_.sensitivity)
            if (c[s.dimension] == s.choice) added += result_.tried[s.tried].measure.badness() - base;
        return added;
    }

    /// The cheapest configurations tried so far that met the target, at most `count`.
    std::vector<Configuration> cheapest_passing(std::size_t count) const {
        std::vector<const TriedConfiguration*> passing;
        for (const TriedConfiguration& t : result_.tried)
            if (t.measure.meets) passing.push_back(&t);
        std::stable_sort(passing.begin(), passing.end(),
                         [](const auto* a, const auto* b) { return a->cost < b->cost; });
        std::vector<Configuration> out;
        for (std::size_t i = 0; i < std::min(count, passing.size()); ++i) out.push_back(passing[i]->configuration);
        return out;
    }

    /// (4) Around the boundary: the neighbours of the three cheapest configurations that met the
    /// target (one dimension one choice cheaper; two of them; one cheaper and another dearer) that
    /// would be cheaper than the best so far, the most promising first (by expected_badness), a
    /// round at a time, until a round finds nothing cheaper that meets the target.
    void refinement() {
        constexpr std::size_t seeds = 3;
        const std::size_t per_round = std::max<std::size_t>(8, result_.dimensions.size());
        for (int pass = 0; pass < 8 && !result_.budget_exhausted; ++pass) {
            const std::vector<Configuration> best = cheapest_passing(seeds);
            const double best_cost = result_.tried[known_.at(best.front())].cost;
            std::map<Configuration, double> neighbours;  // -> expected badness
            const auto consider = [&](const Configuration& c) {
                if (known_.contains(c) || neighbours.contains(c)) return;
                if (cost_of(c, parse_policy(policy_text(c))) >= best_cost) return;
                neighbours[c] = expected_badness(c);
            };
            const auto cheaper = [&](const Configuration& c, std::size_t d) {
                return c[d] + 1 < static_cast<int>(result_.dimensions[d].choices);
            };
            for (const Configuration& seed : best)
                for (std::size_t d = 0; d < seed.size(); ++d) {
                    if (!cheaper(seed, d)) continue;
                    Configuration lower = seed;
                    ++lower[d];
                    consider(lower);
                    for (std::size_t e = 0; e < seed.size(); ++e) {
                        if (e == d) continue;
                        Configuration other = lower;
                        if (other[e] > 0) --other[e], consider(other), ++other[e];
                        if (e > d && cheaper(other, e)) ++other[e], consider(other);
                    }
                }
            if (neighbours.empty()) return;
            std::vector<std::pair<double, Configuration>> ordered;
            for (auto& [c, expected] : neighbours) ordered.push_back({expected, c});
            std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            std::vector<Configuration> configurations;
            for (std::size_t i = 0; i < std::min(per_round, ordered.size()); ++i) configurations.push_back(ordered[i].second);
            const auto indices = measure(configurations, "refinement");
            const bool improved = std::any_of(indices.begin(), indices.end(), [&](const auto& index) {
                return index && result_.tried[*index].measure.meets && result_.tried[*index].cost < best_cost;
            });
            if (!improved) return;
        }
    }

    /// (5) The front, the recommendation, and the held-out check.
    void finish() {
        std::vector<TriedConfiguration>& tried = result_.tried;
        for (TriedConfiguration& a : tried) {
            a.on_front = std::none_of(tried.begin(), tried.end(), [&](const TriedConfiguration& b) {
                const double ea = a.measure.badness(), eb = b.measure.badness();
                return b.cost <= a.cost && eb <= ea && (b.cost < a.cost || eb < ea);
            });
        }
        for (std::size_t i = 0; i < tried.size(); ++i) {
            if (!tried[i].measure.meets) continue;
            const auto& best = result_.recommended;
            if (!best || tried[i].cost < tried[*best].cost ||
                (tried[i].cost == tried[*best].cost && tried[i].measure.badness() < tried[*best].measure.badness()))
                result_.recommended = i;
        }
        if (!result_.recommended || !validation_parameters_) return;
        RunRequest run;
        run.workload = request_.workload;
        run.parameters = *validation_parameters_;
        run.mpfr_precision = request_.mpfr_precision;
        run.threads = request_.threads;
        run.run_id = "validation";
        run.results_only = true;
        for (std::size_t index : {result_.reference, *result_.recommended}) {
            PrecisionPolicy policy = parse_policy(tried[index].policy);
            policy.name = tried[index].name;
            run.policies.push_back(std::move(policy));
        }
        if (result_.reference == *result_.recommended) run.policies.pop_back();
        RunControl round(control_, 0, 1, "validation");
        const Report report = emu::run(run, round);
        const bool results = request_.workload->regions_are_results();
        result_.validation_reference = measure_target(request_.target, report, run.run_id, tried[result_.reference].name, results);
        result_.validation = measure_target(request_.target, report, run.run_id, tried[*result_.recommended].name, results);
    }
};

}  // namespace

TuneResult tune(const TuneRequest& request, RunControl& control) {
    if (request.workload == nullptr) throw Error("tune: no workload");
    return Search(request, control).run();
}

}  // namespace floatscope::emu
