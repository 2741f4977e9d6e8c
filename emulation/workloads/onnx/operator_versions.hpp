// The definitions of each ONNX operator FloatScope knows, by opset version, and how the older ones
// differ from the one its kernel implements: ONNX's operator changelog (onnx/docs/Changelog.md;
// every version's schema: onnx.defs.get_all_schemas_with_history()) as data, each change once.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floatscope::emu::onnx {

/// An attribute of the definitions before a change that the changed definition takes as an input
/// instead (Clip-11 takes min and max, Clip-6's attributes, as inputs 1 and 2).
struct AttributeInput {
    enum class As {
        Integers,  ///< a 1-D int64 tensor of the attribute's ints (Slice-1's starts)
        Integer,  ///< a 1-D int64 tensor of the one int (TopK-1's k; DFT-17's axis, whose fallback is 1)
        Number,  ///< a scalar of input 0's element type (Clip-6's min)
        Numbers,  ///< a 1-D float tensor of the attribute's floats (Upsample-7's scales)
    };
    std::string_view attribute;
    std::size_t input = 0;
    As as = As::Integers;
    /// The attribute's value where the node leaves it out (Clip-6's float range); none: the input
    /// is left out, which the later definition reads as the attribute's absence.
    std::optional<double> fallback = {};
};

/// A change of meaning data cannot say: each is written once, in older_definitions.cpp.
enum class Adapter {
    None,
    /// Softmax, LogSoftmax, Hardmax before 13: the input is coerced to 2-D,
    /// [a_0 * ... * a_{k-1}, a_k * ... * a_{n-1}] for axis k (default 1), and normalized along the second.
    CoerceTo2D,
    /// BatchNormalization before 9: attribute spatial (default 1); spatial = 0 normalizes each
    /// channel and position, with scale, B, mean and var of shape (C, D1, ..., Dn).
    SpatialAttribute,
    /// Dropout before 10: the mask output has the input's type, not bool.
    MaskOfInputType,
    /// Resize-10: input 1 is scales (Resize-11 takes roi there and scales as input 2), and its
    /// coordinates are Resize-11's asymmetric ones, nearest rounding down (floor).
    AsymmetricResize,
    /// RoiAlign-10: its coordinates are RoiAlign-16's output_half_pixel (no half-pixel shift; 16's
    /// default is half_pixel).
    OutputHalfPixelRoiAlign,
    /// OneHot-9: a negative index is outside [0, depth) and leaves its row off; OneHot-11 counts it
    /// from the end.
    NegativeIndicesOff,
    /// Scan-8: input 0 is sequence_lens, and the states and scan inputs have a batch axis 0 (the
    /// scan inputs' sequence axis is 1); Scan-9 has neither. graph_evaluation.cpp reads it.
    BatchAxisScan,
    /// GroupNormalization-18: scale and bias hold one value per group, which applies to each of the
    /// group's channels (GroupNormalization-21: one per channel).
    ScaleBiasPerGroup,
};

/// How the definitions of an operator before `version` differ from the definition of `version`.
struct DefinitionChange {
    int version = 0;
    std::vector<AttributeInput> attributes_to_inputs = {};
    Adapter adapter = Adapter::None;
};

/// An attribute a later definition added, whose default keeps the older meaning: on a node of an
/// older definition it is not ONNX (ArgMax-12's select_last_index on an ArgMax-11 node).
struct LaterAttribute {
    std::string_view attribute;
    int version = 0;
};

/// An operator of the default domain: every version ONNX defines it in up to max_supported_opset,
/// ascending (its since_versions), and the changes between them that matter to evaluating a valid
/// node (new element types need none; nor do new attributes, whose defaults are the old meaning).
struct OperatorVersions {
    std::string_view op_type;
    std::vector<int> versions;
    std::vector<DefinitionChange> changes = {};
    int deprecated_from = 0;  ///< the version from which ONNX deprecates the operator (0: never)
    bool any_opset = false;  ///< evaluated at any opset, though ONNX defines it later (Gelu, opset 20)
    std::vector<LaterAttribute> later_attributes = {};  ///< added after the definition of opset 7
    /// The newest definition the kernel implements where ONNX defines later ones FloatScope does not
    /// evaluate (GridSample-20, N-D): a node of those is refused naming its definition. 0: the newest.
    int evaluated_to = 0;
};

/// The definition of an operator in one opset: the version it holds since, and the changes from it
/// to the definition FloatScope's kernel implements (ascending; empty for that definition).
struct Definition {
    const OperatorVersions* op = nullptr;  ///< null: FloatScope knows no definition of the op type
    int version = 0;  ///< 0: the op is not defined in this opset (defined later, or deprecated)
    std::vector<const DefinitionChange*> changes;
};

/// The operators of the default domain whose definitions FloatScope knows, by op type.
const std::map<std::string, OperatorVersions, std::less<>>& operator_versions();

/// The definition of `op_type` in the ai.onnx `opset` (1 to max_supported_opset).
Definition definition_in(std::string_view op_type, int opset);

}  // namespace floatscope::emu::onnx
