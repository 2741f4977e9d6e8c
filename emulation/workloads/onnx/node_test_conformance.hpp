// ONNX's backend node tests (model.onnx, test_data_set_*/input_*.pb and NumPy's output_*.pb, as
// onnx.backend.test writes them) run through FloatScope: the fp32 policy and the MPFR truth, each
// against NumPy's outputs within ONNX's test tolerance.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// ONNX's backend test tolerance (onnx/backend/test/runner: np.testing.assert_allclose with
/// rtol 1e-3, atol 1e-7; NaNs compare equal).
inline constexpr double node_test_rtol = 1e-3;
inline constexpr double node_test_atol = 1e-7;

struct NodeTestResult {
    enum class Status { Passed, Failed, Unsupported };
    std::string name;  ///< the case folder's name: "test_softmax_axis_0"
    /// The op under test: the case's single node's; for an expanded case, the op its name starts with
    /// ("(several ops)" when none does); "?" when the model does not read.
    std::string op_type;
    Status status = Status::Unsupported;
    std::string detail;  ///< why it failed or is unsupported
};

const char* to_string(NodeTestResult::Status status);

/// Whether `actual` matches `expected` as assert_allclose(rtol, atol) does (integers and bools
/// exactly; shapes exactly), a sequence's and an optional's tensors each (as many, in order); `why`
/// says the first mismatch.
bool all_close(const Tensor<double>& actual, const Tensor<double>& expected, std::string& why);

/// Runs one case folder: every test_data_set_N of it, the fp32 policy and the truth at
/// `precision` bits; Unsupported when the model's reader or an operator refuses it (with the
/// reason), Failed naming the data set, the evaluation (fp32 or truth), the output and the mismatch.
NodeTestResult run_node_test(const std::filesystem::path& case_folder, int precision = 256);

/// The case folders under `folder` (itself a case, or a folder of cases such as DIR/node), sorted.
std::vector<std::filesystem::path> node_test_cases(const std::filesystem::path& folder);

}  // namespace floatscope::emu::onnx
