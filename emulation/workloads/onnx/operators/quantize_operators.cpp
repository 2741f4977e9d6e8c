// ONNX's quantized operators as the specification writes them (onnx/docs/Operators.md):
// QuantizeLinear and DequantizeLinear (10; 13 per axis; 19 float8 with saturate; 21's blocked form,
// int4, uint4, int16, uint16; 23 float4e2m1), DynamicQuantizeLinear,
// MatMulInteger, ConvInteger, QLinearMatMul and QLinearConv. Integer products and their sums are
// exact (int64, as the specification's int32 accumulation is when it does not overflow). What is
// real is float arithmetic, as the specification's reference and onnxruntime compute it: x / y_scale
// and the rescaling of an accumulation are operations of the scales' type (float, or x's float16 or
// bfloat16), each result rounded to that type in both evaluations (the truth too: these operators
// are conversions defined on that type's values, like Cast; a quotient within float's rounding of
// a tie rounds as every implementation does), after an emulated run's compute format has rounded
// it; then rounded half to even and saturated to the output type. DequantizeLinear's
// (x - x_zero_point) * x_scale is the node's multiplication (exact in the truth).
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/quantization_parameters.hpp"
#include "emulation/workloads/onnx/operators/sliding_windows.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The types of MatMulInteger's, ConvInteger's and the QLinear operators' quantized tensors.
bool is_quantized_type(ElementType type) { return type == ElementType::Int8 || type == ElementType::UInt8; }
/// The integer types QuantizeLinear writes and DequantizeLinear reads (int16, uint16, int4, uint4: 21's).
bool is_linear_quantized_type(ElementType type) {
    return is_quantized_type(type) || type == ElementType::Int16 || type == ElementType::UInt16 ||
           type == ElementType::Int4 || type == ElementType::UInt4;
}

template <class Number>
void require_quantized(const Tensor<Number>& t, std::size_t index, const Node& node) {
    if (!is_quantized_type(t.type))
        throw Error(
            fmt::format("{}: input {} is {}; int8 or uint8 is required", node.describe(), index, to_string(t.type)));
}

/// A zero point fits its scale: one shape, or one value each (a scalar beside a [1], as ONNX's own
/// float8 DequantizeLinear cases and onnxruntime take it).
bool same_parameter_shape(const Shape& zero_point, const Shape& scale) {
    if (zero_point == scale) return true;
    return element_count(zero_point) == 1 && element_count(scale) == 1 && zero_point.size() <= 1 && scale.size() <= 1;
}

/// x rounded to the nearest integer, ties to even (ONNX's rounding of quantization), then shifted by
/// `zero_point` and saturated to `type`. NaN gives the zero point.
template <class Numerics>
std::int64_t quantize_value(const Numerics& n, const typename Numerics::Number& x, std::int64_t zero_point,
                            ElementType type) {
    const IntegerRange range = integer_range(type);
    // Int32 bounds the rounded value well past every quantized type's range before the shift.
    const std::int64_t q = truncate_to_integer(n, n.apply(Function::Round, x), ElementType::Int32);
    return std::clamp(q + zero_point, range.low, range.high);
}

/// v rounded to the floating `type` the quantized operators compute in (float for integers).
template <class Numerics>
typename Numerics::Number in_type(const Numerics& n, const typename Numerics::Number& v, ElementType type) {
    return n.cast(v, is_floating(type) ? type : ElementType::Float);
}

/// The floating types QuantizeLinear writes and DequantizeLinear reads: 19's float8 types and 23's
/// float4e2m1 (float8e8m0 is a scale's type, not a quantized one).
bool is_quantized_floating(ElementType type) {
    return type == ElementType::Float8E4M3FN || type == ElementType::Float8E4M3FNUZ ||
           type == ElementType::Float8E5M2 || type == ElementType::Float8E5M2FNUZ || type == ElementType::Float4E2M1;
}

/// A float8 or float4 y_zero_point must be zero: the specification's formula adds it to x / y_scale, while ONNX's
/// reference (QuantizeLinear_19) and onnxruntime leave it out; where it is zero they agree (but for
/// the sign of a zero, which the reference's keeps, as FloatScope does).
template <class Numerics>
void require_zero_floating_zero_point(const Numerics& n, const Tensor<typename Numerics::Number>& zero_point,
                                      const Node& node) {
    for (const auto& v : zero_point.numbers)
        if (!n.equal(v, n.from_double(0)))
            throw Unsupported(
                fmt::format("{}: y_zero_point of {} is {}, not 0: ONNX's formula adds it to x / y_scale, its reference "
                            "and onnxruntime leave a float8 or float4 zero point out; FloatScope takes 0 only",
                            node.describe(), to_string(zero_point.type), n.to_double(v)));
}

template <class Call>
TensorsOf<Call> quantize_linear(const Call& call) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    const auto& n = call.numerics;
    node.check_attributes({"axis", "block_size", "output_dtype", "saturate"});
    const auto& x = call.input(0);
    const auto& scale = call.input(1);
    if (!x.floating() && x.type != ElementType::Int32)
        throw Error(fmt::format("{}: input 0 is {}; float, float16, bfloat16 or int32 is required", node.describe(),
                                to_string(x.type)));
    require_floating(scale, 1, node);
    const auto* zero_point = call.optional_input(2);
    ElementType type = ElementType::UInt8;
    if (node.has("output_dtype"))
        type = element_type_from_onnx(static_cast<int>(node.int_attribute("output_dtype", 2)), node.describe());
    if (zero_point) {
        if (node.has("output_dtype") && zero_point->type != type)
            throw Error(fmt::format("{}: output_dtype is {} and y_zero_point {}", node.describe(), to_string(type),
                                    to_string(zero_point->type)));
        type = zero_point->type;
        if (!same_parameter_shape(zero_point->shape, scale.shape))
            throw Error(fmt::format("{}: y_scale {} and y_zero_point {} must have one shape", node.describe(),
                                    describe(scale.shape), describe(zero_point->shape)));
    }
    if (!is_linear_quantized_type(type) && !is_quantized_floating(type))
        throw Unsupported(
            fmt::format("{}: quantizing to {} (FloatScope quantizes to int8, uint8, int16, uint16, "
                        "int4, uint4, the float8 types and float4e2m1)",
                        node.describe(), to_string(type)));
    if (zero_point && is_quantized_floating(type)) require_zero_floating_zero_point(n, *zero_point, node);
    const std::vector<std::size_t> at = parameter_indices(x.shape, scale.shape, node.int_attribute("axis", 1),
                                                          node.int_attribute("block_size", 0), "y_scale", node);
    // x / y_scale in x's floating type (float for int32 x), as the specification's reference divides.
    const ElementType real = x.floating() ? x.type : ElementType::Float;
    const auto quotient = [&](std::size_t i) {
        const Number v = x.floating() ? x.numbers[i] : n.from_double(static_cast<double>(x.integers[i]));
        return in_type(n, n.div(in_type(n, v, real), in_type(n, scale.numbers[at[i]], real)), real);
    };
    // QuantizeLinear-19 and 23: the quotient cast to the float8 or float4 type, as Cast with saturate (which
    // float4e2m1 ignores: always saturated).
    if (is_quantized_floating(type)) {
        const bool saturate = node.int_attribute("saturate", 1) != 0;
        std::vector<Number> values;
        values.reserve(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) values.push_back(n.cast(quotient(i), type, saturate));
        return {number_tensor<Number>(type, x.shape, std::move(values))};
    }
    Tensor<Number> y = integer_tensor<Number>(type, x.shape, {});
    y.integers.reserve(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        y.integers.push_back(quantize_value(n, quotient(i), zero_point ? zero_point->integers[at[i]] : 0, type));
    return {std::move(y)};
}

template <class Call>
TensorsOf<Call> dequantize_linear(const Call& call) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    const auto& n = call.numerics;
    node.check_attributes({"axis", "block_size"});
    const auto& x = call.input(0);
    const auto& scale = call.input(1);
    if (!is_linear_quantized_type(x.type) && x.type != ElementType::Int32 && !is_quantized_floating(x.type))
        throw Unsupported(
            fmt::format("{}: input 0 is {} (FloatScope dequantizes int4, uint4, int8, uint8, int16, "
                        "uint16, int32, the float8 types and float4e2m1)",
                        node.describe(), to_string(x.type)));
    require_floating(scale, 1, node);
    const auto* zero_point = call.optional_input(2);
    if (zero_point) {
        require_type(*zero_point, x.type, 2, node);
        if (!same_parameter_shape(zero_point->shape, scale.shape))
            throw Error(fmt::format("{}: x_scale {} and x_zero_point {} must have one shape", node.describe(),
                                    describe(scale.shape), describe(zero_point->shape)));
    }
    const std::vector<std::size_t> at = parameter_indices(x.shape, scale.shape, node.int_attribute("axis", 1),
                                                          node.int_attribute("block_size", 0), "x_scale", node);
    // y = (x - x_zero_point) * x_scale: the difference exact, its product rounded.
    std::vector<Number> values;
    values.reserve(x.size());
    if (x.floating()) {  // a float8 or float4 x (DequantizeLinear-19, 23): its value, less its zero point
        for (std::size_t i = 0; i < x.size(); ++i) {
            const Number shifted = zero_point ? n.sub(x.numbers[i], zero_point->numbers[at[i]]) : x.numbers[i];
            values.push_back(n.mul(shifted, scale.numbers[at[i]]));
        }
        return {number_tensor<Number>(scale.type, x.shape, std::move(values))};
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::int64_t shifted = x.integers[i] - (zero_point ? zero_point->integers[at[i]] : 0);
        values.push_back(n.mul(n.from_double(static_cast<double>(shifted)), scale.numbers[at[i]]));
    }
    return {number_tensor<Number>(scale.type, x.shape, std::move(values))};
}

/// DynamicQuantizeLinear: uint8 with y_scale = (max(0, max x) - min(0, min x)) / 255, zero point
/// saturate(round(0 - min / y_scale)), y = saturate(round(x / y_scale) + zero point), each operation
/// in float (the type of x and of the y_scale output).
template <class Call>
TensorsOf<Call> dynamic_quantize_linear(const Call& call) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    const auto& n = call.numerics;
    node.check_attributes({});
    const auto& x = call.input(0);
    require_floating(x, 0, node);
    Number low = n.from_double(0), high = n.from_double(0);
    for (const Number& v : x.numbers) {
        low = n.min(low, v);
        high = n.max(high, v);
    }
    const auto in_float = [&](const Number& v) { return in_type(n, v, ElementType::Float); };
    const Number scale = in_float(n.div(in_float(n.sub(high, low)), n.from_double(255)));
    const std::int64_t zero_point =
        quantize_value(n, in_float(n.sub(n.from_double(0), in_float(n.div(low, scale)))), 0, ElementType::UInt8);
    Tensor<Number> y = integer_tensor<Number>(ElementType::UInt8, x.shape, {});
    y.integers.reserve(x.size());
    for (const Number& v : x.numbers)
        y.integers.push_back(quantize_value(n, in_float(n.div(in_float(v), scale)), zero_point, ElementType::UInt8));
    return {std::move(y), number_tensor<Number>(ElementType::Float, {}, {scale}),
            integer_tensor<Number>(ElementType::UInt8, {}, {zero_point})};
}

/// A zero point of a matrix product's operand: a scalar (per tensor) or 1-D of `count` values (A's
/// per row, B's per column); none is 0.
template <class Number>
std::vector<std::int64_t> zero_points(const Tensor<Number>* t, ElementType type, std::size_t count, std::size_t index,
                                      const Node& node) {
    if (!t) return std::vector<std::int64_t>(count, 0);
    require_type(*t, type, index, node);
    if (t->size() == 1 && t->shape.size() <= 1) return std::vector<std::int64_t>(count, t->integers[0]);
    if (t->shape != Shape{static_cast<std::int64_t>(count)})
        throw Error(fmt::format("{}: input {} has shape {}; a scalar or [{}] is required", node.describe(), index,
                                describe(t->shape), count));
    return t->integers;
}

/// A scale of QLinearMatMul's: a scalar or 1-D of `count` values.
template <class Number>
std::vector<Number> scales(const Tensor<Number>& t, std::size_t count, std::size_t index, const Node& node) {
    require_floating(t, index, node);
    if (t.size() == 1 && t.shape.size() <= 1) return std::vector<Number>(count, t.numbers[0]);
    if (t.shape != Shape{static_cast<std::int64_t>(count)})
        throw Error(fmt::format("{}: input {} has shape {}; a scalar or [{}] is required", node.describe(), index,
                                describe(t.shape), count));
    return t.numbers;
}

/// The exact integer matrix product sum_k (a - a_zp[row]) (b - b_zp[column]) of numpy's matmul
/// shapes (batch axes broadcast); its shape, and m, k, n.
struct IntegerProduct {
    Shape shape;
    std::size_t m = 0, k = 0, n = 0;
    std::vector<std::int64_t> values;
};

template <class Number>
IntegerProduct integer_matmul(const Tensor<Number>& a, const Tensor<Number>& b, const std::vector<std::int64_t>* a_zp,
                              const std::vector<std::int64_t>* b_zp, const Node& node) {
    if (a.shape.empty() || b.shape.empty())
        throw Error(fmt::format("{}: inputs of shapes {} and {}: scalars have no matrix product", node.describe(),
                                describe(a.shape), describe(b.shape)));
    Shape sa = a.shape, sb = b.shape;
    if (sa.size() == 1) sa.insert(sa.begin(), 1);
    if (sb.size() == 1) sb.push_back(1);
    IntegerProduct p;
    p.m = static_cast<std::size_t>(sa[sa.size() - 2]);
    p.k = static_cast<std::size_t>(sa.back());
    p.n = static_cast<std::size_t>(sb.back());
    if (static_cast<std::size_t>(sb[sb.size() - 2]) != p.k)
        throw Error(fmt::format("{}: inputs of shapes {} and {} do not multiply", node.describe(), describe(a.shape),
                                describe(b.shape)));
    const Shape batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
    const Shape batch = broadcast_shapes(batch_a, batch_b, node.describe());
    const std::vector<std::size_t> from_a = broadcast_indices(batch_a, batch);
    const std::vector<std::size_t> from_b = broadcast_indices(batch_b, batch);
    p.shape = batch;
    if (a.shape.size() > 1) p.shape.push_back(static_cast<std::int64_t>(p.m));
    if (b.shape.size() > 1) p.shape.push_back(static_cast<std::int64_t>(p.n));
    p.values.reserve(from_a.size() * p.m * p.n);
    for (std::size_t g = 0; g < from_a.size(); ++g) {
        const std::int64_t* ag = a.integers.data() + from_a[g] * p.m * p.k;
        const std::int64_t* bg = b.integers.data() + from_b[g] * p.k * p.n;
        for (std::size_t i = 0; i < p.m; ++i)
            for (std::size_t j = 0; j < p.n; ++j) {
                std::int64_t sum = 0;
                for (std::size_t l = 0; l < p.k; ++l)
                    sum += (ag[i * p.k + l] - (a_zp ? (*a_zp)[i] : 0)) * (bg[l * p.n + j] - (b_zp ? (*b_zp)[j] : 0));
                p.values.push_back(sum);
            }
    }
    return p;
}

template <class Call>
TensorsOf<Call> matmul_integer(const Call& call) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    node.check_attributes({});
    const auto& a = call.input(0);
    const auto& b = call.input(1);
    require_quantized(a, 0, node);
    require_quantized(b, 1, node);
    const std::size_t m = a.shape.size() > 1 ? static_cast<std::size_t>(a.shape[a.shape.size() - 2]) : 1;
    const std::size_t n = b.shape.size() > 1 ? static_cast<std::size_t>(b.shape.back()) : 1;
    const std::vector<std::int64_t> a_zp = zero_points(call.optional_input(2), a.type, m, 2, node);
    const std::vector<std::int64_t> b_zp = zero_points(call.optional_input(3), b.type, n, 3, node);
    IntegerProduct p = integer_matmul(a, b, &a_zp, &b_zp, node);
    return {integer_tensor<Number>(ElementType::Int32, std::move(p.shape), std::move(p.values))};
}

/// The accumulations rescaled and requantized: y = saturate(round(acc * (s_a * s_b / s_y)) + y_zp),
/// the multiplier per row (A's and Y's scales) and column (B's), each operation in float (onnxruntime's
/// float multiplier; the accumulation converted to float).
template <class Numerics>
std::vector<std::int64_t> requantize(const Numerics& n, const std::vector<std::int64_t>& accumulations,
                                     std::size_t rows, std::size_t columns,
                                     const std::vector<typename Numerics::Number>& row_scale,
                                     const std::vector<typename Numerics::Number>& column_scale,
                                     const std::vector<typename Numerics::Number>& y_scale,
                                     const std::vector<std::int64_t>& y_zero_point, ElementType type) {
    std::vector<std::int64_t> y(accumulations.size());
    for (std::size_t i = 0; i < y.size(); ++i) {
        // Row r, column c of each rows x columns block (Conv: rows are output channels, columns positions).
        const std::size_t r = (i / columns) % rows, c = i % columns;
        const auto in_float = [&](const auto& v) { return in_type(n, v, ElementType::Float); };
        const auto multiplier = in_float(n.div(in_float(n.mul(row_scale[r], column_scale[c])), y_scale[r]));
        const auto accumulation = in_float(n.from_double(static_cast<double>(accumulations[i])));
        y[i] = quantize_value(n, in_float(n.mul(accumulation, multiplier)), y_zero_point[r], type);
    }
    return y;
}

template <class Call>
TensorsOf<Call> qlinear_matmul(const Call& call) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    node.check_attributes({});
    const auto& a = call.input(0);
    const auto& b = call.input(3);
    require_quantized(a, 0, node);
    require_quantized(b, 3, node);
    const auto* y_zp_tensor = call.optional_input(7);
    const ElementType type = y_zp_tensor ? y_zp_tensor->type : ElementType::UInt8;
    if (!is_quantized_type(type)) require_quantized(*y_zp_tensor, 7, node);
    const std::size_t m = a.shape.size() > 1 ? static_cast<std::size_t>(a.shape[a.shape.size() - 2]) : 1;
    const std::size_t n = b.shape.size() > 1 ? static_cast<std::size_t>(b.shape.back()) : 1;
    const std::vector<std::int64_t> a_zp = zero_points(call.optional_input(2), a.type, m, 2, node);
    const std::vector<std::int64_t> b_zp = zero_points(call.optional_input(5), b.type, n, 5, node);
    const std::vector<std::int64_t> y_zp = zero_points(y_zp_tensor, type, m, 7, node);
    const std::vector<Number> a_scale = scales(call.input(1), m, 1, node);
    const std::vector<Number> b_scale = scales(call.input(4), n, 4, node);
    const std::vector<Number> y_scale = scales(call.input(6), m, 6, node);
    IntegerProduct p = integer_matmul(a, b, &a_zp, &b_zp, node);
    std::vector<std::int64_t> y = requantize(call.numerics, p.values, m, n, a_scale, b_scale, y_scale, y_zp, type);
    return {integer_tensor<Number>(type, std::move(p.shape), std::move(y))};
}

/// The exact integer convolution sum (x - x_zp) (w - w_zp[m]) of Conv's geometry (groups, strides,
/// dilations, pads, auto_pad): N x M x output positions; the padding reads x_zp (a real 0).
struct IntegerConvolution {
    Shape shape;
    std::size_t channels = 0, positions = 0;
    std::vector<std::int64_t> values;
};

template <class Number>
IntegerConvolution integer_convolution(const Tensor<Number>& x, const Tensor<Number>& w, std::int64_t x_zp,
                                       const std::vector<std::int64_t>& w_zp, const Node& node) {
    if (x.shape.size() < 3 || w.shape.size() != x.shape.size())
        throw Error(fmt::format("{}: X {} must be N x C x spatial axes and W {} of the same rank", node.describe(),
                                describe(x.shape), describe(w.shape)));
    const auto batch = static_cast<std::size_t>(x.shape[0]), channels = static_cast<std::size_t>(x.shape[1]);
    const Shape spatial(x.shape.begin() + 2, x.shape.end()), kernel_shape(w.shape.begin() + 2, w.shape.end());
    const std::int64_t group = node.int_attribute("group", 1);
    const auto out_channels = static_cast<std::size_t>(w.shape[0]);
    if (group < 1 || static_cast<std::size_t>(w.shape[1] * group) != channels ||
        out_channels % static_cast<std::size_t>(group) != 0)
        throw Error(fmt::format("{}: X {}, W {} and group {} do not fit together", node.describe(), describe(x.shape),
                                describe(w.shape), group));
    if (node.has("kernel_shape") && node.ints_attribute("kernel_shape") != kernel_shape)
        throw Error(fmt::format("{}: kernel_shape {} differs from W's spatial shape {}", node.describe(),
                                describe(node.ints_attribute("kernel_shape")), describe(kernel_shape)));
    const SlidingWindows windows = convolution_windows(node, spatial, kernel_shape, false);
    const std::vector<std::int64_t> taps = window_taps(windows);
    const std::size_t kernel = element_count(kernel_shape), positions = element_count(windows.windows);
    const std::size_t image = element_count(spatial), groups = static_cast<std::size_t>(group);
    const std::size_t group_channels = channels / groups, group_out = out_channels / groups;
    IntegerConvolution r;
    r.channels = out_channels;
    r.positions = positions;
    r.shape = {static_cast<std::int64_t>(batch), static_cast<std::int64_t>(out_channels)};
    r.shape.insert(r.shape.end(), windows.windows.begin(), windows.windows.end());
    r.values.assign(batch * out_channels * positions, 0);
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t m = 0; m < out_channels; ++m) {
            const std::size_t g = m / group_out;
            for (std::size_t p = 0; p < positions; ++p) {
                std::int64_t sum = 0;
                for (std::size_t c = 0; c < group_channels; ++c)
                    for (std::size_t t = 0; t < kernel; ++t) {
                        const std::int64_t tap = taps[t * positions + p];
                        const std::int64_t xv = tap >= 0 ? x.integers[(b * channels + g * group_channels + c) * image +
                                                                      static_cast<std::size_t>(tap)]
                                                         : x_zp;
                        sum += (xv - x_zp) * (w.integers[(m * group_channels + c) * kernel + t] - w_zp[m]);
                    }
                r.values[(b * out_channels + m) * positions + p] = sum;
            }
        }
    return r;
}

/// ConvInteger's and QLinearConv's x zero point: a scalar.
template <class Number>
std::int64_t scalar_zero_point(const Tensor<Number>* t, ElementType type, std::size_t index, const Node& node) {
    if (!t) return 0;
    require_type(*t, type, index, node);
    if (t->size() != 1)
        throw Error(
            fmt::format("{}: input {} has shape {}; a scalar is required", node.describe(), index, describe(t->shape)));
    return t->integers[0];
}

template <class Call>
TensorsOf<Call> conv_integer(const Call& call) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    node.check_attributes({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
    const auto& x = call.input(0);
    const auto& w = call.input(1);
    require_quantized(x, 0, node);
    require_quantized(w, 1, node);
    const auto out_channels = static_cast<std::size_t>(w.shape.empty() ? 0 : w.shape[0]);
    const std::int64_t x_zp = scalar_zero_point(call.optional_input(2), x.type, 2, node);
    const std::vector<std::int64_t> w_zp = zero_points(call.optional_input(3), w.type, out_channels, 3, node);
    IntegerConvolution r = integer_convolution(x, w, x_zp, w_zp, node);
    return {integer_tensor<Number>(ElementType::Int32, std::move(r.shape), std::move(r.values))};
}

template <class Call>
TensorsOf<Call> qlinear_conv(const Call& call) {
    using Number = NumberOf<Call>;
    const Node& node = call.node;
    node.check_attributes({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
    const auto& x = call.input(0);
    const auto& w = call.input(3);
    require_quantized(x, 0, node);
    require_quantized(w, 3, node);
    const auto out_channels = static_cast<std::size_t>(w.shape.empty() ? 0 : w.shape[0]);
    const std::int64_t x_zp = scalar_zero_point(call.optional_input(2), x.type, 2, node);
    const std::vector<std::int64_t> w_zp = zero_points(call.optional_input(5), w.type, out_channels, 5, node);
    const auto* y_zp_tensor = call.optional_input(7);
    const ElementType type = y_zp_tensor ? y_zp_tensor->type : ElementType::UInt8;
    if (!is_quantized_type(type)) require_quantized(*y_zp_tensor, 7, node);
    const std::vector<std::int64_t> y_zp(out_channels, scalar_zero_point(y_zp_tensor, type, 7, node));
    const std::vector<Number> x_scale = scales(call.input(1), 1, 1, node);
    const std::vector<Number> w_scale = scales(call.input(4), out_channels, 4, node);
    const std::vector<Number> y_scale(out_channels, scales(call.input(6), 1, 6, node)[0]);
    IntegerConvolution r = integer_convolution(x, w, x_zp, w_zp, node);
    // B: int32 per output channel, of scale x_scale * w_scale and zero point 0: added exactly.
    if (const auto* bias = call.optional_input(8)) {
        require_type(*bias, ElementType::Int32, 8, node);
        if (bias->shape != Shape{static_cast<std::int64_t>(out_channels)})
            throw Error(fmt::format("{}: B has shape {}; [{}] is required", node.describe(), describe(bias->shape),
                                    out_channels));
        for (std::size_t i = 0; i < r.values.size(); ++i)
            r.values[i] += bias->integers[(i / r.positions) % out_channels];
    }
    // Rows are output channels (w_scale per channel), columns positions; x_scale is one.
    const std::vector<Number> x_scales(r.positions, x_scale[0]);
    std::vector<std::int64_t> y =
        requantize(call.numerics, r.values, out_channels, r.positions, w_scale, x_scales, y_scale, y_zp, type);
    return {integer_tensor<Number>(type, std::move(r.shape), std::move(y))};
}

}  // namespace

void add_quantize_operators(OperatorTable& table) {
    table.add("QuantizeLinear", [](const auto& call) { return quantize_linear(call); });
    table.add("DequantizeLinear", [](const auto& call) { return dequantize_linear(call); });
    table.add("DynamicQuantizeLinear", [](const auto& call) { return dynamic_quantize_linear(call); });
    table.add("MatMulInteger", [](const auto& call) { return matmul_integer(call); });
    table.add("QLinearMatMul", [](const auto& call) { return qlinear_matmul(call); });
    table.add("ConvInteger", [](const auto& call) { return conv_integer(call); });
    table.add("QLinearConv", [](const auto& call) { return qlinear_conv(call); });
}

}  // namespace floatscope::emu::onnx
