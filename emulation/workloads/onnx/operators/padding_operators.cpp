// ONNX's Pad as opset 19 defines it: pads (begin and end per axis, or per axis of input 3, axes;
// negative ones crop) in the modes
// constant (the constant_value input, 0 by default), reflect (mirrored about the edge element, as
// numpy's "reflect"), edge (the edge element repeated) and wrap (Pad-19: the axis repeated, as
// numpy's "wrap"). Only moves elements.
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/axes.hpp"
#include "emulation/workloads/onnx/operators/element_selection.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

enum class PadMode { Constant, Reflect, Edge, Wrap };

/// Pad's modes and the definition that added each (Pad-19: wrap, ONNX 1.14's changelog).
struct PadModeName {
    std::string_view name;
    PadMode mode;
    int since;
};
constexpr PadModeName pad_modes[] = {{"constant", PadMode::Constant, 1},
                                     {"reflect", PadMode::Reflect, 1},
                                     {"edge", PadMode::Edge, 1},
                                     {"wrap", PadMode::Wrap, 19}};

/// The input coordinate an output coordinate `c` (already shifted by the begin pad) reads on an
/// axis of size `dim`, or -1 where the constant goes.
std::int64_t padded_source(std::int64_t c, std::int64_t dim, PadMode mode) {
    if (c >= 0 && c < dim) return c;
    switch (mode) {
        case PadMode::Constant: return -1;
        case PadMode::Edge: return c < 0 ? 0 : dim - 1;
        case PadMode::Wrap: return (c % dim + dim) % dim;  // numpy's "wrap": the axis repeated
        case PadMode::Reflect: {
            if (dim == 1) return 0;
            const std::int64_t period = 2 * (dim - 1);
            c = (c < 0 ? -c : c) % period;
            return c < dim ? c : period - c;
        }
    }
    return -1;
}

/// The pads of every axis, begins then ends: input 1 as it is, or with input 3 (axes, Pad-18) the
/// pads of those axes in their order, 0 for the others.
template <class Numerics>
std::vector<std::int64_t> padding_per_axis(const OperatorCall<Numerics>& call, std::size_t rank) {
    const Node& node = call.node;
    const std::vector<std::int64_t> given = integer_list(call.input(1), 1, node);
    std::vector<std::int64_t> axes(rank);
    for (std::size_t d = 0; d < rank; ++d) axes[d] = static_cast<std::int64_t>(d);
    if (const auto* a = call.optional_input(3)) axes = integer_list(*a, 3, node);
    if (given.size() != 2 * axes.size())
        throw Error(fmt::format("{}: input 1 (pads) holds {} values; 2 x {} = {} are required", node.describe(),
                                given.size(), call.optional_input(3) ? "the number of axes" : "rank", 2 * axes.size()));
    const std::vector<std::size_t> dims = normalize_axes(axes, rank, node);
    std::vector<std::int64_t> pads(2 * rank, 0);
    for (std::size_t i = 0; i < dims.size(); ++i) {
        pads[dims[i]] = given[i];
        pads[rank + dims[i]] = given[dims.size() + i];
    }
    return pads;
}

template <class Numerics>
Outputs<Numerics> pad(const OperatorCall<Numerics>& call) {
    const Node& node = call.node;
    node.check_attributes({"mode"});
    const auto& data = call.input(0);
    const std::size_t rank = data.shape.size();
    const std::string mode_name = node.string_attribute("mode", "constant");
    const int version = definition_in("Pad", call.opset).version;
    std::string valid;
    const PadModeName* chosen = nullptr;
    for (const PadModeName& m : pad_modes) {
        if (m.since > version) continue;
        if (m.name == mode_name) chosen = &m;
        valid += fmt::format("{}{}", valid.empty() ? "" : ", ", m.name);
    }
    if (!chosen)
        throw Error(fmt::format("{}: attribute mode is '{}', not one of Pad-{}'s: {}", node.describe(), mode_name,
                                version, valid));
    const PadMode mode = chosen->mode;
    const std::vector<std::int64_t> pads = padding_per_axis(call, rank);
    Shape shape(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        shape[d] = data.shape[d] + pads[d] + pads[rank + d];
        if (shape[d] < 0)
            throw Error(fmt::format("{}: pads {} and {} crop axis {} of size {} below 0", node.describe(), pads[d],
                                    pads[rank + d], d, data.shape[d]));
        if (mode != PadMode::Constant && data.shape[d] == 0 && shape[d] > 0)
            throw Error(fmt::format("{}: mode {} pads axis {}, which is empty", node.describe(), mode_name, d));
    }
    const auto* constant = call.optional_input(2);
    if (constant) {
        require_same_type(data, *constant, 0, 2, node);
        if (constant->size() != 1)
            throw Error(fmt::format("{}: input 2 (constant_value) has shape {}; a scalar is required", node.describe(),
                                    describe(constant->shape)));
    }

    require_output(node, shape, data.floating(), 1);  // and its indices
    // The constant goes after the data's elements, so that every output element is a selection.
    Tensor<typename Numerics::Number> source = data;
    if (data.floating())
        source.numbers.push_back(constant ? constant->numbers[0] : call.numerics.from_double(0));
    else
        source.integers.push_back(constant ? constant->integers[0] : 0);
    const std::size_t constant_index = element_count(data.shape);
    const std::vector<std::size_t> data_strides = strides(data.shape);
    const std::vector<std::size_t> indices = indices_by_position(shape, [&](const std::vector<std::int64_t>& at) {
        std::size_t index = 0;
        for (std::size_t d = 0; d < rank; ++d) {
            const std::int64_t c = padded_source(at[d] - pads[d], data.shape[d], mode);
            if (c < 0) return constant_index;
            index += static_cast<std::size_t>(c) * data_strides[d];
        }
        return index;
    });
    return {select_elements(source, std::move(shape), indices)};
}

}  // namespace

void add_padding_operators(OperatorTable& table) {
    table.add("Pad", [](const auto& call) { return pad(call); });
}

}  // namespace floatscope::emu::onnx
