// The advisor's result for people.
#include "app/cli/tune_summary.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/cli/table.hpp"

namespace floatscope::cli {

namespace {

std::string number(double value) { return fmt::format("{:.4g}", value); }

std::string verdict(const emu::TargetMeasure& m) {
    if (!m.finite_where_truth_is) return "FAILS (NaN or infinity where the truth is finite)";
    return m.meets ? "meets" : "FAILS";
}

}  // namespace

void print_tune_summary(const emu::TuneRequest& request, const emu::TuneResult& result, std::ostream& out) {
    const emu::TriedConfiguration& reference = result.tried[result.reference];
    const std::string units = result.units.empty()
                                  ? std::string("the run as a whole")
                                  : fmt::format("{} units ({})", result.units.size(), result.unit_kind);
    out << fmt::format("tune {}: target {}, cost in {}, {}, {} settings each\n", request.workload->name(),
                       request.target.text, emu::cost_unit(request.cost), units, request.candidates.unit.size());
    out << fmt::format("{} configurations run in {} rounds against one ground truth, {:.1f} s, {:.3f} s per configuration{}\n\n",
                       result.tried.size(), result.rounds, result.seconds,
                       result.seconds / static_cast<double>(std::max<std::size_t>(result.tried.size(), 1)),
                       result.budget_exhausted ? "; the budget (--budget-runs) ended the search" : "");
    out << fmt::format("reference: {}\n  {} {} (threshold {}), cost {}\n", reference.policy, request.target.metric,
                       number(reference.measure.value), number(reference.measure.threshold), number(reference.cost));
    if (!reference.error.empty()) out << "  it could not run: " << reference.error << "\n";
    if (!result.recommended) {
        out << fmt::format("\nno configuration meets the target: the reference itself {} it.\n",
                           reference.measure.meets ? "meets" : "misses");
        return;
    }
    const emu::TriedConfiguration& best = result.tried[*result.recommended];
    out << fmt::format("\nrecommended ({}): {}\n  {} {} ({} the target), cost {} = {:.1f}% of the reference's\n", best.name,
                       best.policy, request.target.metric, number(best.measure.value), verdict(best.measure),
                       number(best.cost), 100 * best.cost / reference.cost);
    if (result.validation) {
        out << fmt::format("  held out ({}): {} {} ({} the target{}); the reference there: {}\n",
                           fmt::join(request.validation_assignments, ", "), request.target.metric,
                           number(result.validation->value), verdict(*result.validation),
                           result.validation->meets ? "" : ": FLAGGED, do not rely on it",
                           result.validation_reference ? number(result.validation_reference->value) : "-");
    }

    // The assignment per unit, then each dimension alone at each cheaper choice.
    out << "\nrecommended assignment:\n";
    TextTable assignment({"unit", "setting"});
    for (std::size_t d = 0; d < result.dimensions.size(); ++d)
        assignment.add_row({result.dimensions[d].name,
                            result.dimensions[d].choice_label(request.candidates, static_cast<std::size_t>(best.configuration[d]))});
    assignment.print(out);

    out << fmt::format("\nsensitivity: each alone at a cheaper setting, {} (x: misses the target)\n", request.target.metric);
    TextTable sensitivity({"unit", "setting", request.target.metric, "cost saved"});
    for (const emu::Sensitivity& s : result.sensitivity) {
        const emu::TriedConfiguration& t = result.tried[s.tried];
        sensitivity.add_row({result.dimensions[s.dimension].name,
                             result.dimensions[s.dimension].choice_label(request.candidates, static_cast<std::size_t>(s.choice)),
                             number(t.measure.value) + (t.measure.meets ? "" : " x"), number(reference.cost - t.cost)});
    }
    sensitivity.print(out);

    for (const emu::TriedConfiguration& t : result.tried)
        if (!t.error.empty()) out << fmt::format("\n{} could not run (it misses the target): {}", t.name, t.error);
    out << "\nfront (no configuration run is cheaper and more accurate):\n";
    TextTable front({"name", "cost", request.target.metric, "target", "policy"});
    for (const emu::TriedConfiguration& t : result.tried)
        if (t.on_front)
            front.add_row({t.name, number(t.cost), number(t.measure.value), t.measure.meets ? "meets" : "misses", t.policy});
    front.print(out);
}

}  // namespace floatscope::cli
