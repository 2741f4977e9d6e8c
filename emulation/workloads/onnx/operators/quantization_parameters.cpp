// Scale and zero-point indices of quantized tensors' elements (quantization_parameters.hpp).
#include "emulation/workloads/onnx/operators/quantization_parameters.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu::onnx {

std::vector<std::size_t> parameter_indices(const Shape& shape, const Shape& parameter, std::int64_t axis,
                                           std::int64_t block_size, const char* what, const Node& node) {
    const std::size_t count = element_count(shape);
    if (element_count(parameter) == 1 && parameter.size() <= 1 && block_size == 0)
        return std::vector<std::size_t>(count, 0);
    const auto rank = static_cast<std::int64_t>(shape.size());
    if (axis < -rank || axis >= rank)
        throw Error(fmt::format("{}: axis {} is outside an input of rank {}", node.describe(), axis, rank));
    const auto a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
    const std::vector<std::size_t> stride = strides(shape);
    std::vector<std::size_t> indices(count);
    if (block_size == 0) {
        if (parameter != Shape{shape[a]})
            throw Error(fmt::format("{}: {} has shape {}; a scalar or [{}] (axis {} of the input {}) is required",
                                    node.describe(), what, describe(parameter), shape[a], axis, describe(shape)));
        for (std::size_t i = 0; i < count; ++i) indices[i] = (i / stride[a]) % static_cast<std::size_t>(shape[a]);
        return indices;
    }
    if (block_size < 0)
        throw Error(fmt::format("{}: attribute block_size is {}; 0 or a positive size", node.describe(), block_size));
    Shape expected = shape;
    expected[a] = (shape[a] + block_size - 1) / block_size;
    if (parameter != expected)
        throw Error(fmt::format("{}: {} has shape {}; blocks of {} along axis {} of {} make {}", node.describe(), what,
                                describe(parameter), block_size, axis, describe(shape), describe(expected)));
    const std::vector<std::size_t> parameter_stride = strides(parameter);
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t at = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            std::size_t coordinate = (i / stride[d]) % static_cast<std::size_t>(shape[d]);
            if (d == a) coordinate /= static_cast<std::size_t>(block_size);
            at += coordinate * parameter_stride[d];
        }
        indices[i] = at;
    }
    return indices;
}

}  // namespace floatscope::emu::onnx
