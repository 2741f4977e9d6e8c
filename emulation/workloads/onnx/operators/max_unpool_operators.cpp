// ONNX's MaxUnpool (9, 11: the same definition): each element of X written where its index in I
// points in a tensor of zeros, MaxPool's partial inverse. It moves values and computes nothing
// (exact in both evaluations). The unpooled shape is MaxPool's reversed, (in - 1) * stride -
// pad_begin - pad_end + kernel per spatial axis, and I indexes it flat. Where output_shape asks for
// more, the specification leaves open where: as onnxruntime (and ONNX's node test), each spatial
// axis grows by at most its kernel size, at its end, or by one element at its beginning and the
// rest at its end where it grows by exactly the kernel size.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The attribute's ints, `fallback` of them where the node leaves it out; throws unless there are `count`.
std::vector<std::int64_t> spatial_ints(const Node& node, std::string_view attribute, std::size_t count,
                                       std::int64_t fallback) {
    const std::vector<std::int64_t> values = node.ints_attribute(attribute, std::vector<std::int64_t>(count, fallback));
    if (values.size() != count)
        throw Error(
            fmt::format("{}: {} holds {} values; {} are required", node.describe(), attribute, values.size(), count));
    return values;
}

template <class Numerics>
Outputs<Numerics> max_unpool(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"kernel_shape", "pads", "strides"});
    const auto &x = call.input(0), &indices = call.input(1);
    require_floating(x, 0, node);
    require_type(indices, ElementType::Int64, 1, node);
    if (x.shape.size() < 3 || indices.shape != x.shape)
        throw Error(fmt::format("{}: X has shape {} and I {}; one shape (N, C, D1, ...) is required", node.describe(),
                                describe(x.shape), describe(indices.shape)));
    const std::size_t spatial = x.shape.size() - 2;
    if (!node.has("kernel_shape")) throw Error(fmt::format("{}: attribute kernel_shape is required", node.describe()));
    const std::vector<std::int64_t> kernel = spatial_ints(node, "kernel_shape", spatial, 1);
    const std::vector<std::int64_t> stride = spatial_ints(node, "strides", spatial, 1);
    const std::vector<std::int64_t> pads = spatial_ints(node, "pads", 2 * spatial, 0);

    Shape unpooled = x.shape;
    for (std::size_t d = 0; d < spatial; ++d) {
        unpooled[d + 2] = (x.shape[d + 2] - 1) * stride[d] - pads[d] - pads[d + spatial] + kernel[d];
        if (kernel[d] < 1 || stride[d] < 1 || unpooled[d + 2] < 0)
            throw Error(fmt::format("{}: kernel_shape, strides and pads give axis {} a length of {}", node.describe(),
                                    d + 2, unpooled[d + 2]));
    }
    Shape shape = unpooled;
    std::vector<std::int64_t> before(shape.size(), 0);  // the zeros an axis grows by at its beginning
    if (const Tensor<Number>* given = call.optional_input(2)) {
        shape = integer_list(*given, 2, node);
        bool valid = shape.size() == unpooled.size() && shape[0] == unpooled[0] && shape[1] == unpooled[1];
        for (std::size_t d = 2; valid && d < shape.size(); ++d) {
            const std::int64_t more = shape[d] - unpooled[d];
            valid = more >= 0 && more <= kernel[d - 2];
            before[d] = more == kernel[d - 2] ? 1 : 0;
        }
        if (!valid)
            throw Error(
                fmt::format("{}: output_shape {} does not hold the unpooled shape {} grown by at most the "
                            "kernel size ({}) along each spatial axis",
                            node.describe(), describe(shape), describe(unpooled), describe(kernel)));
    }
    require_output(node, shape, true);
    Tensor<Number> y =
        number_tensor<Number>(x.type, shape, std::vector<Number>(element_count(shape), call.numerics.from_double(0)));
    const std::size_t unpooled_size = element_count(unpooled);
    const std::vector<std::size_t> from_strides = strides(unpooled), to_strides = strides(shape);
    for (std::size_t i = 0; i < indices.integers.size(); ++i) {
        const std::int64_t index = indices.integers[i];
        if (index < 0 || static_cast<std::size_t>(index) >= unpooled_size)
            throw Error(fmt::format("{}: index {} is outside the unpooled tensor of shape {}", node.describe(), index,
                                    describe(unpooled)));
        std::size_t rest = static_cast<std::size_t>(index), at = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            at += (rest / from_strides[d] + static_cast<std::size_t>(before[d])) * to_strides[d];
            rest %= from_strides[d];
        }
        y.numbers[at] = x.numbers[i];
    }
    return {std::move(y)};
}

}  // namespace

void add_max_unpool_operators(OperatorTable& table) {
    table.add("MaxUnpool", [](const auto& call) { return max_unpool(call); });
}

}  // namespace floatscope::emu::onnx
