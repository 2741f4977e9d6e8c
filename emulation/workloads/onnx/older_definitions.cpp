// The older definitions' differences applied: attributes to inputs (data), and the adapters
// (Softmax's 2-D coercion, BatchNormalization's spatial, Dropout's mask type, Resize-10's coordinates).
#include "emulation/workloads/onnx/older_definitions.hpp"

#include <algorithm>
#include <deque>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The node as the newest definition writes it, the inputs it reads, and the tensors made for it
/// (a deque: the inputs point into it as it grows).
template <class Numerics>
struct NewestForm {
    using Number = typename Numerics::Number;
    Node node;
    std::vector<const Tensor<Number>*> inputs;
    std::deque<Tensor<Number>> made;
    std::string definition;  ///< "Clip-6", for errors

    const Tensor<Number>& input(std::size_t i) const {
        if (i >= inputs.size() || inputs[i] == nullptr) throw_missing_input(node, i);
        return *inputs[i];
    }
    void set_input(std::size_t i, Tensor<Number> t) {
        if (inputs.size() <= i) inputs.resize(i + 1, nullptr);
        made.push_back(std::move(t));
        inputs[i] = &made.back();
    }
};

template <class Numerics>
Tensor<typename Numerics::Number> attribute_tensor(const AttributeInput& a, NewestForm<Numerics>& form,
                                                   const Numerics& numerics) {
    using Number = typename Numerics::Number;
    const Node& node = form.node;
    switch (a.as) {
        case AttributeInput::As::Integers: {
            std::vector<std::int64_t> values = node.ints_attribute(a.attribute);
            const auto count = static_cast<std::int64_t>(values.size());
            return integer_tensor<Number>(ElementType::Int64, {count}, std::move(values));
        }
        case AttributeInput::As::Integer:
            return integer_tensor<Number>(
                ElementType::Int64, {1},
                {node.int_attribute(a.attribute, static_cast<std::int64_t>(a.fallback.value_or(0)))});
        case AttributeInput::As::Numbers: {
            std::vector<Number> values;
            for (double v : node.floats_attribute(a.attribute)) values.push_back(numerics.from_double(v));
            const auto count = static_cast<std::int64_t>(values.size());
            return number_tensor<Number>(ElementType::Float, {count}, std::move(values));
        }
        case AttributeInput::As::Number: break;
    }
    const auto& x = form.input(0);
    if (!x.floating())
        throw Error(fmt::format("{}: input 0 is {}; {} takes floating types", node.describe(), to_string(x.type),
                                form.definition));
    const double value = node.float_attribute(a.attribute, a.fallback.value_or(0));
    return number_tensor<Number>(x.type, {}, {numerics.from_double(value)});
}

/// The attributes of an older definition that a later one takes as inputs, moved there.
template <class Numerics>
void move_attributes_to_inputs(const DefinitionChange& change, NewestForm<Numerics>& form, const Numerics& numerics) {
    for (const AttributeInput& a : change.attributes_to_inputs) {
        const bool named = a.input < form.node.inputs.size() && !form.node.inputs[a.input].empty();
        if (named || (a.input < form.inputs.size() && form.inputs[a.input] != nullptr))
            throw Error(fmt::format("{}: input {} is given, which {} does not take ({} is an attribute there)",
                                    form.node.describe(), a.input, form.definition, a.attribute));
        const bool given = form.node.has(a.attribute);
        if (!given && !a.fallback) continue;  // the later definition's input left out
        form.set_input(a.input, attribute_tensor(a, form, numerics));
        form.node.attributes.erase(std::string(a.attribute));
    }
}

std::int64_t product(const Shape& shape, std::size_t from, std::size_t to) {
    std::int64_t p = 1;
    for (std::size_t d = from; d < to; ++d) p *= shape[d];
    return p;
}

/// Softmax, LogSoftmax, Hardmax before 13: input 0 as the 2-D [a_0 * ... * a_{k-1}, a_k * ... *
/// a_{n-1}] for axis k (default 1, negative from the back), normalized along its second axis.
/// Returns the input's shape, which the outputs take back.
template <class Numerics>
Shape coerce_to_2d(NewestForm<Numerics>& form) {
    const auto& x = form.input(0);
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    std::int64_t axis = form.node.int_attribute("axis", 1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis > rank)
        throw Error(fmt::format("{}: axis {} is outside [{}, {}] for the input's shape {}", form.node.describe(),
                                form.node.int_attribute("axis", 1), -rank, rank, describe(x.shape)));
    auto coerced = x;
    const auto k = static_cast<std::size_t>(axis);
    coerced.shape = {product(x.shape, 0, k), product(x.shape, k, x.shape.size())};
    const Shape original = x.shape;
    form.set_input(0, std::move(coerced));
    Attribute one;
    one.kind = Attribute::Kind::Int;
    one.i = 1;
    form.node.attributes["axis"] = one;
    return original;
}

/// BatchNormalization before 9, spatial = 0: scale, B, mean and var hold one value per channel and
/// position, (C, D1, ..., Dn); as spatial = 1 of X flattened to (N, C * D1 * ... * Dn) and the
/// four flattened. Returns X's shape, or an empty one where nothing changed.
template <class Numerics>
Shape spatial_attribute(NewestForm<Numerics>& form) {
    const std::int64_t spatial = form.node.int_attribute("spatial", 1);
    form.node.attributes.erase("spatial");
    const auto& x = form.input(0);
    if (spatial != 0 || x.shape.size() <= 2) return {};
    const Shape original = x.shape;
    auto flat = x;
    flat.shape = {original[0], product(original, 1, original.size())};
    form.set_input(0, std::move(flat));
    for (std::size_t i = 1; i <= 4; ++i) {
        auto parameter = form.input(i);
        parameter.shape = {static_cast<std::int64_t>(parameter.size())};
        form.set_input(i, std::move(parameter));
    }
    return original;
}

/// A string attribute of value `s`.
Attribute text_attribute(std::string s) {
    Attribute a;
    a.kind = Attribute::Kind::String;
    a.s = std::move(s);
    return a;
}

/// Resize-10 as Resize-11 writes it: scales moves from input 1 to input 2 (roi, input 1, left
/// out), and the coordinates are asymmetric with nearest rounding down, the only ones Resize-10 and
/// Upsample have (onnxruntime's Resize-10 and ONNX issue 8480; onnxruntime rounds up where it
/// downsamples, which the specification does not say).
template <class Numerics>
void asymmetric_resize(NewestForm<Numerics>& form) {
    const auto& scales = form.input(1);
    form.set_input(2, scales);
    form.inputs[1] = nullptr;
    form.node.inputs.resize(std::max<std::size_t>(form.node.inputs.size(), 3));
    form.node.inputs[2] = form.node.inputs[1];
    form.node.inputs[1].clear();
    form.node.attributes["coordinate_transformation_mode"] = text_attribute("asymmetric");
    form.node.attributes["nearest_mode"] = text_attribute("floor");
}

/// RoiAlign-10: RoiAlign-16 with coordinate_transformation_mode output_half_pixel.
template <class Numerics>
void output_half_pixel_roi_align(NewestForm<Numerics>& form) {
    form.node.attributes["coordinate_transformation_mode"] = text_attribute("output_half_pixel");
}

/// OneHot before 11: an index outside [0, depth) leaves its row off, a negative one too (OneHot-11
/// counts those from the end): each negative index becomes depth, outside both ranges.
template <class Numerics>
void negative_indices_off(NewestForm<Numerics>& form, const Numerics& numerics) {
    auto indices = form.input(0);
    const auto& depth = form.input(1);
    if (depth.size() != 1) return;  // the kernel says what is wrong
    const double past =
        depth.floating() ? numerics.to_double(depth.numbers[0]) : static_cast<double>(depth.integers[0]);
    for (auto& i : indices.numbers)
        if (numerics.less(i, numerics.from_double(0))) i = numerics.from_double(past);
    for (std::int64_t& i : indices.integers)
        if (i < 0) i = static_cast<std::int64_t>(past);
    form.set_input(0, std::move(indices));
}

/// GroupNormalization-18: scale and bias of one value per group, each repeated over its group's
/// channels (x's dimension 1 over num_groups), as GroupNormalization-21 takes them.
template <class Numerics>
void scale_bias_per_group(NewestForm<Numerics>& form) {
    const auto& x = form.input(0);
    const std::int64_t groups = form.node.int_attribute("num_groups", 0);
    if (x.shape.size() < 2 || groups < 1 || x.shape[1] % groups != 0) return;  // the kernel says what is wrong
    for (std::size_t i = 1; i <= 2; ++i) {
        const auto& per_group = form.input(i);
        if (per_group.shape != Shape{groups} || !per_group.floating())
            throw Error(fmt::format("{}: input {} has shape {}; {} takes [num_groups] = [{}]", form.node.describe(), i,
                                    describe(per_group.shape), form.definition, groups));
        auto per_channel = per_group;
        per_channel.shape = {x.shape[1]};
        per_channel.numbers.clear();
        for (std::int64_t k = 0; k < x.shape[1]; ++k)
            per_channel.numbers.push_back(per_group.numbers[static_cast<std::size_t>(k / (x.shape[1] / groups))]);
        form.set_input(i, std::move(per_channel));
    }
}

/// Dropout before 10: the mask (output 1) of the input's type, 1 where the value is kept.
template <class Numerics>
void mask_of_input_type(Outputs<Numerics>& outputs, ElementType type, const Numerics& numerics) {
    if (outputs.size() < 2) return;
    auto& mask = outputs[1];
    std::vector<typename Numerics::Number> numbers;
    for (std::int64_t kept : mask.integers) numbers.push_back(numerics.from_double(static_cast<double>(kept)));
    mask = number_tensor<typename Numerics::Number>(type, mask.shape, std::move(numbers));
}

}  // namespace

template <class Numerics>
Outputs<Numerics> run_older_definition(const OperatorCall<Numerics>& call, const Definition& definition,
                                       const Kernel<Numerics>& kernel) {
    NewestForm<Numerics> form{call.node, call.inputs, {}, fmt::format("{}-{}", call.node.op_type, definition.version)};
    Shape restored;  // the shape the first outputs take back after a coercion
    bool mask_of_input = false;
    for (const DefinitionChange* change : definition.changes) {
        move_attributes_to_inputs(*change, form, call.numerics);
        switch (change->adapter) {
            case Adapter::None: break;
            case Adapter::CoerceTo2D: restored = coerce_to_2d(form); break;
            case Adapter::SpatialAttribute: restored = spatial_attribute(form); break;
            case Adapter::MaskOfInputType: mask_of_input = true; break;
            case Adapter::AsymmetricResize: asymmetric_resize(form); break;
            case Adapter::OutputHalfPixelRoiAlign: output_half_pixel_roi_align(form); break;
            case Adapter::NegativeIndicesOff: negative_indices_off(form, call.numerics); break;
            case Adapter::ScaleBiasPerGroup: scale_bias_per_group(form); break;
            case Adapter::BatchAxisScan: break;  // Scan is evaluated with its body (graph_evaluation.cpp)
        }
    }
    const ElementType input_type = form.input(0).type;
    Outputs<Numerics> outputs = kernel(OperatorCall<Numerics>{form.node, call.opset, form.inputs, call.numerics});
    if (!restored.empty() && !outputs.empty()) outputs[0].shape = restored;  // the adapted ops have one output
    if (mask_of_input) mask_of_input_type(outputs, input_type, call.numerics);
    return outputs;
}

template Outputs<EmulatedNumerics> run_older_definition(const OperatorCall<EmulatedNumerics>&, const Definition&,
                                                        const Kernel<EmulatedNumerics>&);
template Outputs<WideNumerics> run_older_definition(const OperatorCall<WideNumerics>&, const Definition&,
                                                    const Kernel<WideNumerics>&);
template Outputs<TruthNumerics> run_older_definition(const OperatorCall<TruthNumerics>&, const Definition&,
                                                     const Kernel<TruthNumerics>&);

}  // namespace floatscope::emu::onnx
