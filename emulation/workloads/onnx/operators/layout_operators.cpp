// ONNX operators that change a tensor's shape or the order of its elements (to opset 18):
// Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Expand, Tile, DepthToSpace, SpaceToDepth.
#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/operators/moved_outputs.hpp"
#include "emulation/workloads/onnx/operators/shape_families.hpp"

namespace floatscope::emu::onnx {

namespace {

/// Reshape's output shape: 0 copies the input's dimension (a literal 0 with allowzero), one -1
/// takes what the element count leaves.
Shape reshape_target(const Shape& input, const Shape& requested, bool allow_zero, const Node& node) {
    Shape shape = requested;
    std::optional<std::size_t> inferred;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 0 && !allow_zero) {
            if (d >= input.size())
                throw Error(fmt::format("{}: shape {} copies dimension {} of the input, which has shape {}",
                                        node.describe(), describe(requested), d, describe(input)));
            shape[d] = input[d];
        } else if (shape[d] == -1) {
            if (inferred)
                throw Error(fmt::format("{}: shape {} has more than one -1", node.describe(), describe(requested)));
            inferred = d;
        } else if (shape[d] < 0) {
            throw Error(fmt::format("{}: shape {} has dimension {} (only -1 and sizes >= 0 are valid)", node.describe(),
                                    describe(requested), shape[d]));
        }
    }
    const bool has_zero = std::find(requested.begin(), requested.end(), 0) != requested.end();
    if (allow_zero && inferred && has_zero)
        throw Error(
            fmt::format("{}: shape {} has both 0 and -1 with allowzero = 1", node.describe(), describe(requested)));
    const std::size_t count = element_count(input);
    if (inferred) {
        shape[*inferred] = 1;
        const std::size_t known = element_count(shape);
        if (known == 0 || count % known != 0)
            throw Error(fmt::format("{}: the input's shape {} cannot be reshaped to {}", node.describe(),
                                    describe(input), describe(requested)));
        shape[*inferred] = static_cast<std::int64_t>(count / known);
    }
    if (element_count(shape) != count)
        throw Error(fmt::format("{}: the input's shape {} ({} elements) cannot be reshaped to {}", node.describe(),
                                describe(input), count, describe(requested)));
    return shape;
}

template <class Numerics>
Outputs<Numerics> reshape(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({"allowzero"});
    const auto& data = call.input(0);
    const Shape requested = integer_list(call.input(1), 1, call.node);
    const bool allow_zero = call.node.int_attribute("allowzero", 0) != 0;
    return moved_outputs(
        reshaped(data, reshape_target(data.shape, requested, allow_zero, call.node), call.consumable_input(0)));
}

template <class Numerics>
Outputs<Numerics> flatten(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({"axis"});
    const auto& data = call.input(0);
    // axis in [-rank, rank]; rank itself puts everything in the first dimension.
    const auto rank = static_cast<std::int64_t>(data.shape.size());
    std::int64_t axis = call.node.int_attribute("axis", 1);
    if (axis < -rank || axis > rank)
        throw Error(fmt::format("{}: axis {} is out of range for a tensor of rank {} (valid: {} to {})",
                                call.node.describe(), axis, rank, -rank, rank));
    if (axis < 0) axis += rank;
    const Shape outer(data.shape.begin(), data.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    const Shape inner(data.shape.begin() + static_cast<std::ptrdiff_t>(axis), data.shape.end());
    return moved_outputs(reshaped(
        data, Shape{static_cast<std::int64_t>(element_count(outer)), static_cast<std::int64_t>(element_count(inner))},
        call.consumable_input(0)));
}

template <class Numerics>
Outputs<Numerics> squeeze(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({});
    const auto& data = call.input(0);
    const std::size_t rank = data.shape.size();
    std::vector<bool> removed(rank, false);
    if (const auto* axes = call.optional_input(1)) {
        for (std::size_t a : normalize_axes(integer_list(*axes, 1, call.node), rank, call.node)) {
            if (data.shape[a] != 1)
                throw Error(fmt::format("{}: axis {} of shape {} is not 1 and cannot be squeezed", call.node.describe(),
                                        a, describe(data.shape)));
            removed[a] = true;
        }
    } else {
        for (std::size_t d = 0; d < rank; ++d) removed[d] = data.shape[d] == 1;
    }
    Shape shape;
    for (std::size_t d = 0; d < rank; ++d)
        if (!removed[d]) shape.push_back(data.shape[d]);
    return moved_outputs(reshaped(data, std::move(shape), call.consumable_input(0)));
}

template <class Numerics>
Outputs<Numerics> unsqueeze(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({});
    const auto& data = call.input(0);
    const std::vector<std::int64_t> axes = integer_list(call.input(1), 1, call.node);
    const std::size_t rank = data.shape.size() + axes.size();
    std::vector<bool> inserted(rank, false);
    for (std::size_t a : normalize_axes(axes, rank, call.node)) inserted[a] = true;
    Shape shape;
    auto next = data.shape.begin();
    for (std::size_t d = 0; d < rank; ++d) shape.push_back(inserted[d] ? 1 : *next++);
    return moved_outputs(reshaped(data, std::move(shape), call.consumable_input(0)));
}

template <class Numerics>
Outputs<Numerics> transpose(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({"perm"});
    const auto& data = call.input(0);
    const std::size_t rank = data.shape.size();
    std::vector<std::int64_t> reversed(rank);
    for (std::size_t d = 0; d < rank; ++d) reversed[d] = static_cast<std::int64_t>(rank - 1 - d);
    const std::vector<std::int64_t> perm = call.node.ints_attribute("perm", reversed);
    std::vector<bool> seen(rank, false);
    bool permutation = perm.size() == rank;
    for (std::int64_t p : perm) {
        permutation =
            permutation && p >= 0 && p < static_cast<std::int64_t>(rank) && !seen[static_cast<std::size_t>(p)];
        if (permutation) seen[static_cast<std::size_t>(p)] = true;
    }
    if (!permutation)
        throw Error(fmt::format("{}: perm [{}] is not a permutation of the {} axes of shape {}", call.node.describe(),
                                fmt::join(perm, ", "), rank, describe(data.shape)));
    Shape shape(rank);
    for (std::size_t d = 0; d < rank; ++d) shape[d] = data.shape[static_cast<std::size_t>(perm[d])];
    const std::vector<std::size_t> input_strides = strides(data.shape);
    const std::vector<std::size_t> indices = indices_by_position(shape, [&](const std::vector<std::int64_t>& at) {
        std::size_t index = 0;
        for (std::size_t d = 0; d < rank; ++d)
            index += static_cast<std::size_t>(at[d]) * input_strides[static_cast<std::size_t>(perm[d])];
        return index;
    });
    // A permutation names each element once: where the node may take data's values, they move.
    if (auto* own = call.consumable_input(0); own && own->kind == ValueKind::Tensor)
        return moved_outputs(permuted_elements(*own, std::move(shape), indices));
    return {select_elements(data, std::move(shape), indices)};
}

/// A shape given as an input (Expand, Tile's repeats): a list of sizes >= 0.
template <class Number>
Shape size_list(const Tensor<Number>& t, std::size_t index, const char* what, const Node& node) {
    Shape sizes = integer_list(t, index, node);
    for (std::int64_t s : sizes)
        if (s < 0) throw Error(fmt::format("{}: {} {} has a negative entry", node.describe(), what, describe(sizes)));
    return sizes;
}

template <class Numerics>
Outputs<Numerics> expand(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({});
    const auto& data = call.input(0);
    const Shape requested = size_list(call.input(1), 1, "shape", call.node);
    Shape shape = broadcast_shapes(data.shape, requested, call.node.describe());
    const std::vector<std::size_t> indices = broadcast_indices(data.shape, shape);
    return {select_elements(data, std::move(shape), indices)};
}

template <class Numerics>
Outputs<Numerics> tile(const OperatorCall<Numerics>& call) {
    call.node.check_attributes({});
    const auto& data = call.input(0);
    const Shape repeats = size_list(call.input(1), 1, "repeats", call.node);
    const std::size_t rank = data.shape.size();
    if (repeats.size() != rank)
        throw Error(fmt::format("{}: repeats {} has {} entries, the input's shape {} has rank {}", call.node.describe(),
                                describe(repeats), repeats.size(), describe(data.shape), rank));
    Shape shape(rank);
    for (std::size_t d = 0; d < rank; ++d) shape[d] = data.shape[d] * repeats[d];
    const std::vector<std::size_t> input_strides = strides(data.shape);
    const std::vector<std::size_t> indices = indices_by_position(shape, [&](const std::vector<std::int64_t>& at) {
        std::size_t index = 0;
        for (std::size_t d = 0; d < rank; ++d)
            index += static_cast<std::size_t>(at[d] % data.shape[d]) * input_strides[d];
        return index;
    });
    return {select_elements(data, std::move(shape), indices)};
}

/// DepthToSpace and SpaceToDepth's blocksize and the input's (N, C, H, W), checked.
template <class Number>
std::int64_t block_size(const Tensor<Number>& x, const Node& node) {
    const std::int64_t b = node.int_attribute("blocksize", 0);
    if (b <= 0)
        throw Error(fmt::format("{}: attribute blocksize is {}; a positive one is required", node.describe(), b));
    if (x.shape.size() != 4)
        throw Error(
            fmt::format("{}: input 0 has shape {}; (N, C, H, W) is required", node.describe(), describe(x.shape)));
    return b;
}

/// DepthToSpace: (N, C, H, W) to (N, C / b^2, H b, W b). Mode DCR (the default): y[n, c, h b + i,
/// w b + j] = x[n, (i b + j) C / b^2 + c, h, w]; CRD: x[n, c b^2 + i b + j, h, w].
template <class Numerics>
Outputs<Numerics> depth_to_space(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"blocksize", "mode"});
    const auto& x = call.input(0);
    const std::int64_t b = block_size(x, node);
    const std::string mode = node.string_attribute("mode", "DCR");
    if (mode != "DCR" && mode != "CRD")
        throw Error(fmt::format("{}: attribute mode is '{}' (DCR or CRD)", node.describe(), mode));
    if (x.shape[1] % (b * b) != 0)
        throw Error(
            fmt::format("{}: {} channels do not divide into blocks of {} x {}", node.describe(), x.shape[1], b, b));
    const std::int64_t depth = x.shape[1] / (b * b);
    Shape shape{x.shape[0], depth, x.shape[2] * b, x.shape[3] * b};
    const std::vector<std::size_t> input_strides = strides(x.shape);
    const std::vector<std::size_t> indices = indices_by_position(shape, [&](const std::vector<std::int64_t>& at) {
        const std::int64_t i = at[2] % b, j = at[3] % b;
        const std::int64_t channel = mode == "DCR" ? (i * b + j) * depth + at[1] : at[1] * b * b + i * b + j;
        const std::int64_t source[] = {at[0], channel, at[2] / b, at[3] / b};
        std::size_t index = 0;
        for (std::size_t d = 0; d < 4; ++d) index += static_cast<std::size_t>(source[d]) * input_strides[d];
        return index;
    });
    return {select_elements(x, std::move(shape), indices)};
}

/// SpaceToDepth: (N, C, H, W) to (N, C b^2, H / b, W / b), y[n, (i b + j) C + c, h, w] =
/// x[n, c, h b + i, w b + j] (DepthToSpace's DCR undone).
template <class Numerics>
Outputs<Numerics> space_to_depth(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"blocksize"});
    const auto& x = call.input(0);
    const std::int64_t b = block_size(x, node);
    if (x.shape[2] % b != 0 || x.shape[3] % b != 0)
        throw Error(fmt::format("{}: shape {} does not divide into blocks of {} x {}", node.describe(),
                                describe(x.shape), b, b));
    const std::int64_t channels = x.shape[1];
    Shape shape{x.shape[0], channels * b * b, x.shape[2] / b, x.shape[3] / b};
    const std::vector<std::size_t> input_strides = strides(x.shape);
    const std::vector<std::size_t> indices = indices_by_position(shape, [&](const std::vector<std::int64_t>& at) {
        const std::int64_t block = at[1] / channels, i = block / b, j = block % b;
        const std::int64_t source[] = {at[0], at[1] % channels, at[2] * b + i, at[3] * b + j};
        std::size_t index = 0;
        for (std::size_t d = 0; d < 4; ++d) index += static_cast<std::size_t>(source[d]) * input_strides[d];
        return index;
    });
    return {select_elements(x, std::move(shape), indices)};
}

}  // namespace

void add_layout_operators(OperatorTable& table) {
    table.add("Reshape", [](const auto& call) { return reshape(call); });
    table.add("Flatten", [](const auto& call) { return flatten(call); });
    table.add("Squeeze", [](const auto& call) { return squeeze(call); });
    table.add("Unsqueeze", [](const auto& call) { return unsqueeze(call); });
    table.add("Transpose", [](const auto& call) { return transpose(call); });
    table.add("Expand", [](const auto& call) { return expand(call); });
    table.add("Tile", [](const auto& call) { return tile(call); });
    table.add("DepthToSpace", [](const auto& call) { return depth_to_space(call); });
    table.add("SpaceToDepth", [](const auto& call) { return space_to_depth(call); });
}

}  // namespace floatscope::emu::onnx
