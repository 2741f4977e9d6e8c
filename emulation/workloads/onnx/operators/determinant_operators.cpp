// ONNX's Det (opset 11): the determinant of each square matrix in the last two dimensions, by
// Gaussian elimination with partial pivoting (the largest magnitude in the column), each operation
// the node's: an emulated run's rounded to its compute format, the truth's in MPFR (at 256 bits the
// elimination's roundings are far below any format's).
#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Numerics>
typename Numerics::Number determinant(std::vector<typename Numerics::Number> a, std::size_t size, const Numerics& n) {
    using Number = typename Numerics::Number;
    Number det = n.from_double(1);
    for (std::size_t c = 0; c < size; ++c) {
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < size; ++r)
            if (n.less(n.apply(Function::Abs, a[pivot * size + c]), n.apply(Function::Abs, a[r * size + c]))) pivot = r;
        if (n.equal(a[pivot * size + c], n.from_double(0))) return n.from_double(0);
        if (pivot != c) {
            for (std::size_t k = 0; k < size; ++k) std::swap(a[pivot * size + k], a[c * size + k]);
            det = n.apply(Function::Neg, det);
        }
        det = n.mul(det, a[c * size + c]);
        for (std::size_t r = c + 1; r < size; ++r) {
            const Number factor = n.div(a[r * size + c], a[c * size + c]);
            for (std::size_t k = c + 1; k < size; ++k)
                a[r * size + k] = n.sub(a[r * size + k], n.mul(factor, a[c * size + k]));
        }
    }
    return det;
}

template <class Numerics>
Outputs<Numerics> det(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({});
    const auto& x = call.input(0);
    require_floating(x, 0, node);
    const std::size_t rank = x.shape.size();
    if (rank < 2 || x.shape[rank - 1] != x.shape[rank - 2])
        throw Error(fmt::format("{}: input has shape {}; Det takes square matrices in its last two dimensions",
                                node.describe(), describe(x.shape)));
    const auto size = static_cast<std::size_t>(x.shape[rank - 1]);
    const std::size_t matrices = element_count(Shape(x.shape.begin(), x.shape.end() - 2));
    std::vector<Number> values;
    for (std::size_t m = 0; m < matrices; ++m) {
        const auto first = x.numbers.begin() + static_cast<std::ptrdiff_t>(m * size * size);
        values.push_back(determinant(std::vector<Number>(first, first + static_cast<std::ptrdiff_t>(size * size)), size,
                                     call.numerics));
    }
    return {number_tensor<Number>(x.type, Shape(x.shape.begin(), x.shape.end() - 2), std::move(values))};
}

}  // namespace

void add_determinant_operators(OperatorTable& table) {
    table.add("Det", [](const auto& call) { return det(call); });
}

}  // namespace floatscope::emu::onnx
