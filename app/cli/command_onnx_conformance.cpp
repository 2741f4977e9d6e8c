// `onnx-conformance DIR`: ONNX's backend node tests through FloatScope, a table per op.
#include <map>
#include <memory>

#include <fmt/format.h>

#include "app/cli/commands.hpp"
#include "app/cli/table.hpp"
#include "core/error.hpp"
#include "emulation/workloads/onnx/node_test_conformance.hpp"

namespace floatscope::cli {

namespace {

struct Options {
    std::string folder;
    bool failures = false;
    int precision = 256;
};

struct OpCounts {
    int cases = 0, passed = 0, failed = 0, unsupported = 0;
};

int onnx_conformance(std::ostream& out, const Options& options) {
    using emu::onnx::NodeTestResult;
    const auto cases = emu::onnx::node_test_cases(options.folder);
    if (cases.empty())
        throw Error(
            fmt::format("'{}' holds no node test case (folders with model.onnx); write them with "
                        "onnx-node-tests DIR (python3-onnx) and give DIR/node",
                        options.folder));
    std::map<std::string, OpCounts> per_op;
    OpCounts total;
    std::vector<NodeTestResult> failed;
    for (const auto& folder : cases) {
        NodeTestResult r = emu::onnx::run_node_test(folder, options.precision);
        OpCounts& c = per_op[r.op_type];
        for (OpCounts* counts : {&c, &total}) {
            ++counts->cases;
            counts->passed += r.status == NodeTestResult::Status::Passed;
            counts->failed += r.status == NodeTestResult::Status::Failed;
            counts->unsupported += r.status == NodeTestResult::Status::Unsupported;
        }
        if (r.status == NodeTestResult::Status::Failed ||
            (options.failures && r.status != NodeTestResult::Status::Passed))
            failed.push_back(std::move(r));
    }
    TextTable table({"op", "cases", "passed", "failed", "unsupported"});
    for (const auto& [op, c] : per_op)
        table.add_row({op, std::to_string(c.cases), std::to_string(c.passed), std::to_string(c.failed),
                       std::to_string(c.unsupported)});
    table.add_row({"all", std::to_string(total.cases), std::to_string(total.passed), std::to_string(total.failed),
                   std::to_string(total.unsupported)});
    table.print(out);
    const int supported = total.cases - total.unsupported;
    out << fmt::format(
        "\n{} of {} supported cases pass ({} unsupported); fp32 and the MPFR truth at {} bits, each "
        "within rtol {}, atol {} of NumPy's outputs\n",
        total.passed, supported, total.unsupported, options.precision, emu::onnx::node_test_rtol,
        emu::onnx::node_test_atol);
    for (const NodeTestResult& r : failed)
        out << fmt::format("{} {} ({}): {}\n", to_string(r.status), r.name, r.op_type, r.detail);
    return total.failed == 0 ? 0 : 1;
}

}  // namespace

Command add_onnx_conformance_command(CLI::App& parent) {
    auto options = std::make_shared<Options>();
    CLI::App* command = parent.add_subcommand(
        "onnx-conformance",
        "ONNX's backend node tests (as onnx-node-tests or python3 -m onnx.backend.test.cmd_tools generate-data "
        "writes them): each supported case under the fp32 policy and the MPFR truth against NumPy's outputs; "
        "cases, passed, failed and unsupported per op; exit 1 when a supported case fails");
    command->add_option("DIR", options->folder, "a folder of cases (DIR/node) or one case")->required();
    command->add_flag("--unsupported", options->failures, "also list the unsupported cases with the reason");
    command->add_option("--precision", options->precision, "bits of the MPFR truth")->check(CLI::Range(64, 4096));
    return {command, [options](std::ostream& out) { return onnx_conformance(out, *options); }};
}

}  // namespace floatscope::cli
