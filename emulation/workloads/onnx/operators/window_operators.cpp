// ONNX's window functions (opset 17): HannWindow, HammingWindow, BlackmanWindow, the generalized
// cosine windows a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N) of ONNX's Operators.md, N the size
// (periodic, the default) or the size - 1 (symmetric). Each operation is the node's: the truth's pi
// and cosines in MPFR, an emulated run's rounded to its compute format; the coefficients are the
// doubles nearest them (0.42 and 0.08 have no binary form), in both.
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// A window's cosine coefficients a0, a1, a2.
struct CosineWindow {
    double a0, a1, a2;
};

template <class Numerics>
Outputs<Numerics> window(const OperatorCall<Numerics>& call, CosineWindow coefficients) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const Numerics& m = call.numerics;
    node.check_attributes({"output_datatype", "periodic"});
    const std::vector<std::int64_t> size_values = integer_list(call.input(0), 0, node);
    if (size_values.size() != 1 || size_values[0] < 0)
        throw Error(fmt::format("{}: size must be one value >= 0", node.describe()));
    const std::int64_t size = size_values[0];
    const ElementType type = element_type_from_onnx(static_cast<int>(node.int_attribute("output_datatype", 1)),
                                                    node.describe() + ": output_datatype");
    if (!is_floating(type))
        throw Unsupported(fmt::format("{}: output_datatype {} is not supported (FloatScope makes floating windows)",
                                      node.describe(), to_string(type)));
    const std::int64_t period = node.int_attribute("periodic", 1) != 0 ? size : size - 1;
    const Number two_pi = m.mul(m.from_double(8), m.apply(Function::Atan, m.from_double(1)));
    std::vector<Number> values;
    values.reserve(static_cast<std::size_t>(size));
    for (std::int64_t n = 0; n < size; ++n) {
        // 2 pi n / N; a window of size 1 (N = 0 when symmetric) is a0 - a1 + a2, its cosines' angle 0.
        const Number angle = period == 0 ? m.from_double(0)
                                         : m.div(m.mul(two_pi, m.from_double(static_cast<double>(n))),
                                                 m.from_double(static_cast<double>(period)));
        Number w =
            m.sub(m.from_double(coefficients.a0), m.mul(m.from_double(coefficients.a1), m.apply(Function::Cos, angle)));
        if (coefficients.a2 != 0)
            w = m.add(w, m.mul(m.from_double(coefficients.a2), m.apply(Function::Cos, m.mul(m.from_double(2), angle))));
        values.push_back(w);
    }
    return {number_tensor<Number>(type, {size}, std::move(values))};
}

}  // namespace

void add_window_operators(OperatorTable& table) {
    table.add("HannWindow", [](const auto& call) { return window(call, {0.5, 0.5, 0}); });
    // Hamming's a0 = 25/46 (ONNX's, not the rounded 0.54).
    table.add("HammingWindow", [](const auto& call) { return window(call, {25.0 / 46.0, 21.0 / 46.0, 0}); });
    table.add("BlackmanWindow", [](const auto& call) { return window(call, {0.42, 0.5, 0.08}); });
}

}  // namespace floatscope::emu::onnx
