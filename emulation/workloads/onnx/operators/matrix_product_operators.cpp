// ONNX's matrix products (opsets 13-17): MatMul (numpy's matmul) and Gemm. Every 2-D product goes
// through the numerics' matmul, so that an emulated run applies the node's accumulation model
// (the fast gemm kernels) and the truth is exact.
#include <iterator>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/elementwise_arrays.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/linear_families.hpp"
#include "emulation/workloads/onnx/operators/matrix_product.hpp"
#include "emulation/workloads/onnx/operators/moved_outputs.hpp"

namespace floatscope::emu::onnx {

namespace {

/// f(values) with input `index`'s values as a span: the model's doubles where the evaluator left them
/// (reads_as_doubles), else the tensor's numbers.
template <class Numerics, class F>
auto with_values(const OperatorCall<Numerics>& call, std::size_t index, const F& f) {
    if constexpr (std::is_same_v<Numerics, TruthNumerics>)
        if (const Tensor<double>* in_doubles = call.input_as_doubles(index))
            return f(std::span<const double>(in_doubles->numbers));
    return f(std::span<const typename Numerics::Number>(call.input(index).numbers));
}

template <class Numerics>
Outputs<Numerics> matmul(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({});
    const auto& a = call.input(0);
    const auto& b = call.input(1);
    require_floating(a, 0, node);
    require_floating(b, 1, node);
    if (a.shape.empty() || b.shape.empty())
        throw Error(fmt::format("{}: inputs of shapes {} and {}: scalars have no matrix product", node.describe(),
                                describe(a.shape), describe(b.shape)));
    // numpy: a vector A is a row (1 x k) and a vector B a column (k x 1), removed from the result.
    Shape sa = a.shape, sb = b.shape;
    if (sa.size() == 1) sa.insert(sa.begin(), 1);
    if (sb.size() == 1) sb.push_back(1);
    const auto m = static_cast<std::size_t>(sa[sa.size() - 2]), k = static_cast<std::size_t>(sa.back());
    const auto n = static_cast<std::size_t>(sb.back());
    if (static_cast<std::size_t>(sb[sb.size() - 2]) != k)
        throw Error(fmt::format("{}: inputs of shapes {} and {} do not multiply ({} columns against {} rows)",
                                node.describe(), describe(a.shape), describe(b.shape), k, sb[sb.size() - 2]));
    const Shape batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
    const Shape batch = broadcast_shapes(batch_a, batch_b, node.describe());
    Shape shape = batch;
    if (a.shape.size() > 1) shape.push_back(static_cast<std::int64_t>(m));
    if (b.shape.size() > 1) shape.push_back(static_cast<std::int64_t>(n));
    require_output(node, shape, true);
    const std::vector<std::size_t> from_a = broadcast_indices(batch_a, batch);
    const std::vector<std::size_t> from_b = broadcast_indices(batch_b, batch);

    std::vector<Number> values = with_values(call, 0, [&](auto all_a) {
        return with_values(call, 1, [&](auto all_b) {
            std::vector<Number> c;
            c.reserve(from_a.size() * m * n);
            for (std::size_t i = 0; i < from_a.size(); ++i) {
                std::vector<Number> product = matrix_product(call.numerics, all_a.subspan(from_a[i] * m * k, m * k),
                                                             all_b.subspan(from_b[i] * k * n, k * n), m, k, n);
                // Moved, not copied: a copy of a truth number is an allocation (a 6625-class head's 165,000).
                c.insert(c.end(), std::make_move_iterator(product.begin()), std::make_move_iterator(product.end()));
            }
            return c;
        });
    });
    return moved_outputs(number_tensor<Number>(a.type, std::move(shape), std::move(values)));
}

template <class Numerics>
Outputs<Numerics> gemm(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const Numerics& numerics = call.numerics;
    node.check_attributes({"alpha", "beta", "transA", "transB"});
    const auto& a = call.input(0);
    const auto& b = call.input(1);
    require_floating(a, 0, node);
    require_floating(b, 1, node);
    if (a.shape.size() != 2 || b.shape.size() != 2)
        throw Error(fmt::format("{}: A {} and B {} must be matrices (rank 2)", node.describe(), describe(a.shape),
                                describe(b.shape)));
    const bool trans_a = node.int_attribute("transA", 0) != 0, trans_b = node.int_attribute("transB", 0) != 0;
    const auto m = static_cast<std::size_t>(a.shape[trans_a ? 1 : 0]),
               k = static_cast<std::size_t>(a.shape[trans_a ? 0 : 1]);
    const auto kb = static_cast<std::size_t>(b.shape[trans_b ? 1 : 0]),
               n = static_cast<std::size_t>(b.shape[trans_b ? 0 : 1]);
    if (k != kb)
        throw Error(fmt::format("{}: A' ({} x {}) and B' ({} x {}) do not multiply (transA {}, transB {})",
                                node.describe(), m, k, kb, n, trans_a, trans_b));
    require_output(node, {static_cast<std::int64_t>(m), static_cast<std::int64_t>(n)}, true);
    // A and B as they are, or their transposes: never a copy (a truth number's copy is an allocation).
    const auto as_given = [](const auto& values, bool transpose, std::size_t rows, std::size_t columns,
                             auto& transposed_values) {
        using Value = typename std::decay_t<decltype(values)>::element_type;
        if (transpose) transposed_values = transposed(values, rows, columns);
        return transpose ? std::span<Value>(transposed_values) : values;
    };
    std::vector<Number> y = with_values(call, 0, [&](auto a_values) {
        std::vector<std::remove_const_t<typename decltype(a_values)::element_type>> transposed_a;
        const auto at = as_given(a_values, trans_a, k, m, transposed_a);
        return with_values(call, 1, [&](auto b_values) {
            std::vector<std::remove_const_t<typename decltype(b_values)::element_type>> transposed_b;
            return matrix_product(numerics, at, as_given(b_values, trans_b, n, k, transposed_b), m, k, n);
        });
    });

    // A GPU epilogue does not round a product by exactly 1, nor add a bias it does not have
    // (PyTorch's Linear exports as Gemm with alpha = beta = 1).
    const double alpha = node.float_attribute("alpha", 1), beta = node.float_attribute("beta", 1);
    // Each step written into the entry's own number (assign_operation): the truth makes none per entry.
    if (alpha != 1) {
        const Number scale = numerics.from_double(alpha);
        for (Number& v : y) assign_operation(numerics, Operation::Mul, scale, v, v);
    }
    const auto* c = call.optional_input(2);
    if (c && beta != 0) {
        require_floating(*c, 2, node);
        const Shape result{static_cast<std::int64_t>(m), static_cast<std::int64_t>(n)};
        if (broadcast_shapes(c->shape, result, node.describe()) != result)
            throw Error(fmt::format("{}: C of shape {} does not broadcast to the result's {}", node.describe(),
                                    describe(c->shape), describe(result)));
        const std::vector<std::size_t> from_c = broadcast_indices(c->shape, result);
        const Number scale = numerics.from_double(beta);
        for (std::size_t i = 0; i < y.size(); ++i) {
            const Number& ci = c->numbers[from_c[i]];
            if (beta == 1)
                assign_operation(numerics, Operation::Add, y[i], ci, y[i]);
            else
                assign_operation(numerics, Operation::Add, y[i], numerics.mul(scale, ci), y[i]);
        }
    }
    return moved_outputs(
        number_tensor<Number>(a.type, {static_cast<std::int64_t>(m), static_cast<std::int64_t>(n)}, std::move(y)));
}

}  // namespace

bool reads_as_doubles(const Node& node, std::size_t input, int opset) {
    return input <= 1 && node.domain.empty() && (node.op_type == "MatMul" || node.op_type == "Gemm") &&
           definition_in(node.op_type, opset).changes.empty();
}

void add_matrix_product_operators(OperatorTable& table) {
    table.add("MatMul", [](const auto& call) { return matmul(call); });
    table.add("Gemm", [](const auto& call) { return gemm(call); });
}

}  // namespace floatscope::emu::onnx
