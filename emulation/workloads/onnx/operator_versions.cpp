// The table of ONNX operator definitions by version. Each op lists every since_version ONNX gives it
// up to opset 21 (onnx 1.12's schemas for 1 to 17; ONNX's changelog for 18: the Reduce ops but
// ReduceSum, Pad, ScatterElements, ScatterND and Split; 19, ONNX 1.14: AveragePool, Cast, CastLike,
// Constant, DequantizeLinear, Equal, Identity, If, Loop, Pad, QuantizeLinear, Reshape, Resize, Scan,
// Shape, Size; 20, ONNX 1.15: ConstantOfShape, DFT, Gelu, GridSample, IsInf, IsNaN, ReduceMax,
// ReduceMin; 21, ONNX 1.16: Cast, CastLike, Constant, ConstantOfShape, DequantizeLinear, Flatten,
// GroupNormalization, Identity, If, Loop, Pad, QLinearMatMul, QuantizeLinear, Reshape, Scan, Shape,
// Size, Squeeze, Transpose, Unsqueeze: most add element types only; 22, ONNX 1.17: bfloat16 added to
// Acos to Atanh, AveragePool, Conv, ConvTranspose, Cos, Cosh, Det, Dropout, Elu, EyeLike,
// GlobalAveragePool, GlobalMaxPool, GridSample, GRU, HardSigmoid, HardSwish, InstanceNormalization,
// LSTM, MaxPool, MaxUnpool, NegativeLogLikelihoodLoss, RNN, RoiAlign, Round, Selu, Sin, Sinh,
// Softplus, Softsign, Tan, ThresholdedRelu, a type list change only; 23, ONNX 1.18: float4e2m1 (and
// int4, uint4 where 21 lacked them) added to 21's list, Cast, CastLike, Constant, ConstantOfShape,
// DequantizeLinear, Flatten, Identity, If, Loop, Pad, QuantizeLinear, Reshape, Scan, Shape, Size,
// Squeeze, Transpose, Unsqueeze: onnx/defs/operator_sets.h's OpSet_Onnx_ver22 and ver23; 23's new
// Attention, RotaryEmbedding and RMSNormalization are not listed, so refused by name); the changes
// that follow say how an older definition differs from the newest the kernels in operators/ implement.
#include "emulation/workloads/onnx/operator_versions.hpp"

#include <algorithm>
#include <limits>

namespace floatscope::emu::onnx {

namespace {

using As = AttributeInput::As;

// Clip-6's min and max default to the float range (std::numeric_limits<float>::lowest() and max()).
constexpr double lowest_float = std::numeric_limits<float>::lowest();
constexpr double highest_float = std::numeric_limits<float>::max();

// The Reduce ops' attribute axes became input 1: ReduceSum-13, the others at 18.
const AttributeInput axes_input{"axes", 1, As::Integers};

// Softmax-13, LogSoftmax-13, Hardmax-13: "the operator's 'axis' attribute now defines the axis
// along which the operation is performed, instead of coercing the input to 2-D" (default -1, not 1).
const std::vector<DefinitionChange> coerce_to_2d{{13, {}, Adapter::CoerceTo2D}};

std::vector<OperatorVersions> all_operators() {
    return {
        {"Abs", {1, 6, 13}},
        {"Acos", {7, 22}},
        {"Acosh", {9, 22}},
        {"Add", {1, 6, 7, 13, 14}},
        {"And", {1, 7}},
        {"ArgMax", {1, 11, 12, 13}},
        {"ArgMin", {1, 11, 12, 13}},
        {"Asin", {7, 22}},
        {"Asinh", {9, 22}},
        {"Atan", {7, 22}},
        {"Atanh", {9, 22}},
        {"AveragePool", {1, 7, 10, 11, 19, 22}},
        // BatchNormalization-9 drops spatial (always 1 from then on).
        {"BatchNormalization", {1, 6, 7, 9, 14, 15}, {{9, {}, Adapter::SpatialAttribute}}},
        {"BitShift", {11}},
        {"BlackmanWindow", {17}},
        // Cast-19, CastLike-19: the float8 types and saturate; 21: int4, uint4; 23: float4e2m1, always
        // saturated (ONNX 1.14, 1.16 and 1.18 changelogs).
        {"Cast", {1, 6, 9, 13, 19, 21, 23}},
        {"CastLike", {15, 19, 21, 23}},
        {"Ceil", {1, 6, 13}},
        {"Celu", {12}},
        // Clip-11: min and max are inputs, no longer attributes.
        {"Clip",
         {1, 6, 11, 12, 13},
         {{11, {{"min", 1, As::Number, lowest_float}, {"max", 2, As::Number, highest_float}}}}},
        {"Compress", {9, 11}},
        {"Concat", {1, 4, 11, 13}},
        {"ConcatFromSequence", {11}},
        {"Constant", {1, 9, 11, 12, 13, 19, 21, 23}},
        {"ConstantOfShape", {9, 20, 21, 23}},
        {"Conv", {1, 11, 22}},
        {"ConvTranspose", {1, 11, 22}},
        {"ConvInteger", {10}},
        {"Cos", {7, 22}},
        {"Cosh", {9, 22}},
        {"CumSum", {11, 14}},
        // DFT-20: axis is input 2 (default -2); DFT-17's attribute axis defaults to 1.
        {"DFT", {17, 20}, {{20, {{"axis", 2, As::Integer, 1}}}}},
        {"DepthToSpace", {1, 11, 13}},
        {"Det", {11, 22}},
        // DequantizeLinear-13 and QuantizeLinear-13: per-axis (axis); 19: float8 types (QuantizeLinear's
        // saturate); 21: blocked (block_size), int4, uint4, int16, uint16; 23: float4e2m1 (ONNX 1.14-1.18
        // changelogs; 23 adds no attribute: `precision` is QuantizeLinear-25's).
        {"DequantizeLinear", {10, 13, 19, 21, 23}},
        {"Div", {1, 6, 7, 13, 14}},
        // Dropout-10: the mask is bool (Dropout-7: the input's type). Dropout-12: ratio is input 1.
        {"Dropout", {1, 6, 7, 10, 12, 13, 22}, {{10, {}, Adapter::MaskOfInputType}, {12, {{"ratio", 1, As::Number}}}}},
        {"DynamicQuantizeLinear", {11}},
        {"Einsum", {12}},
        {"Elu", {1, 6, 22}},
        {"Equal", {1, 7, 11, 13, 19}},
        {"Erf", {9, 13}},
        {"Exp", {1, 6, 13}},
        {"Expand", {8, 13}},
        {"EyeLike", {9, 22}},
        {"Flatten", {1, 9, 11, 13, 21, 23}},
        {"Floor", {1, 6, 13}},
        {"Gather", {1, 11, 13}},
        {"GatherElements", {11, 13}},
        {"GatherND", {11, 12, 13}},
        // Gelu is ONNX's from opset 20; exporters write it at lower opsets too (activation_operators.cpp).
        {"Gelu", {20}, {}, 0, true},
        {"Gemm", {1, 6, 7, 9, 11, 13}},
        {"GlobalAveragePool", {1, 22}},
        {"GlobalMaxPool", {1, 22}},
        {"Greater", {1, 7, 9, 13}},
        // GridSample-20: N-D, and its modes renamed (linear, cubic for bilinear, bicubic): not evaluated
        // (nor 22, bfloat16 added).
        {"GridSample", {16, 20, 22}, {}, 0, false, {}, 16},
        // GRU-7, LSTM-7, RNN-7 drop the output_sequence attribute (always on since); 14 adds layout.
        {"GRU", {1, 3, 7, 14, 22}},
        {"GreaterOrEqual", {12, 16}},
        // GroupNormalization-21: scale and bias per channel, 18's per group; 21 adds stash_type.
        {"GroupNormalization", {18, 21}, {{21, {}, Adapter::ScaleBiasPerGroup}}},
        {"HammingWindow", {17}},
        {"HannWindow", {17}},
        {"Hardmax", {1, 11, 13}, coerce_to_2d},
        {"HardSigmoid", {1, 6, 22}},
        {"HardSwish", {14, 22}},
        {"Identity", {1, 13, 14, 16, 19, 21, 23}},
        // Control flow (graph_evaluation.cpp evaluates them with their subgraphs): If's and Loop's
        // later definitions add element types (sequences at 13, optionals at 16), nothing else.
        {"If", {1, 11, 13, 16, 19, 21, 23}},
        {"InstanceNormalization", {1, 6, 22}},
        {"IsInf", {10, 20}},
        {"IsNaN", {9, 13, 20}},
        {"LayerNormalization", {17}},
        {"LRN", {1, 13}},
        {"LSTM", {1, 7, 14, 22}},
        {"LeakyRelu", {1, 6, 16}},
        {"Less", {1, 7, 9, 13}},
        {"LessOrEqual", {12, 16}},
        {"Log", {1, 6, 13}},
        {"Loop", {1, 11, 13, 16, 19, 21, 23}},
        {"LogSoftmax", {1, 11, 13}, coerce_to_2d},
        {"MatMul", {1, 9, 13}},
        {"MatMulInteger", {10}},
        {"Max", {1, 6, 8, 12, 13}},
        {"MaxPool", {1, 8, 10, 11, 12, 22}},
        // MaxUnpool-11 states strides' default (1) and infers shapes: MaxUnpool-9's meaning (onnx 1.12's defs/nn).
        {"MaxUnpool", {9, 11, 22}},
        {"Mean", {1, 6, 8, 13}},
        {"MeanVarianceNormalization", {9, 13}},
        {"MelWeightMatrix", {17}},
        {"Min", {1, 6, 8, 12, 13}},
        {"Mod", {10, 13}},
        {"Mul", {1, 6, 7, 13, 14}},
        {"Neg", {1, 6, 13}},
        {"NegativeLogLikelihoodLoss", {12, 13, 22}},
        // NonMaxSuppression-11 adds shape inference only (onnx 1.12's defs/object_detection, old.cc beside defs.cc).
        {"NonMaxSuppression", {10, 11}},
        {"NonZero", {9, 13}},
        {"Not", {1}},
        // OneHot-11 counts negative indices from the end; OneHot-9 leaves their rows off.
        {"OneHot", {9, 11}, {{11, {}, Adapter::NegativeIndicesOff}}},
        {"Optional", {15}},
        // OptionalGetElement-18 and OptionalHasElement-18 (ONNX 1.13) also take a tensor or a sequence,
        // and OptionalHasElement-18 an omitted input: one kernel for both definitions.
        {"OptionalGetElement", {15, 18}},
        {"OptionalHasElement", {15, 18}},
        {"Or", {1, 7}},
        // Pad-11: pads and the constant value are inputs (Pad-2's value: a float, 0 by default).
        // Pad-18 adds input 3, axes.
        // Pad-19 adds mode wrap (padding_operators.cpp); 21: new types.
        {"Pad", {1, 2, 11, 13, 18, 19, 21, 23}, {{11, {{"pads", 1, As::Integers}, {"value", 2, As::Number}}}}},
        {"Pow", {1, 7, 12, 13, 15}},
        {"PRelu", {1, 6, 7, 9, 16}},
        {"QLinearConv", {10}},
        {"QLinearMatMul", {10, 21}},
        {"QuantizeLinear", {10, 13, 19, 21, 23}},
        {"ReverseSequence", {10}},
        {"RNN", {1, 7, 14, 22}},
        {"Range", {11}},
        {"Reciprocal", {1, 6, 13}},
        {"ReduceL1", {1, 11, 13, 18}, {{18, {axes_input}}}},
        {"ReduceL2", {1, 11, 13, 18}, {{18, {axes_input}}}},
        {"ReduceLogSum", {1, 11, 13, 18}, {{18, {axes_input}}}},
        {"ReduceLogSumExp", {1, 11, 13, 18}, {{18, {axes_input}}}},
        {"ReduceMax", {1, 11, 12, 13, 18, 20}, {{18, {axes_input}}}},
        {"ReduceMean", {1, 11, 13, 18}, {{18, {axes_input}}}},
        {"ReduceMin", {1, 11, 12, 13, 18, 20}, {{18, {axes_input}}}},
        {"ReduceProd", {1, 11, 13, 18}, {{18, {axes_input}}}},
        {"ReduceSum", {1, 11, 13}, {{13, {axes_input}}}},
        {"ReduceSumSquare", {1, 11, 13, 18}, {{18, {axes_input}}}},
        {"Relu", {1, 6, 13, 14}},
        {"Reshape", {1, 5, 13, 14, 19, 21, 23}},
        // Resize-11: roi before scales, and coordinate modes (Resize-10's are asymmetric); 13 makes roi
        // and scales optional and drops tf_half_pixel_for_nn; 18 adds antialias, axes and
        // keep_aspect_ratio_policy; 19 half_pixel_symmetric (ONNX 1.13 and 1.14's changelogs).
        {"Resize", {10, 11, 13, 18, 19}, {{11, {}, Adapter::AsymmetricResize}}},
        // RoiAlign-16 adds coordinate_transformation_mode, half_pixel by default; RoiAlign-10's
        // coordinates are its output_half_pixel (ONNX 1.11's changelog, opset 16).
        {"RoiAlign", {10, 16, 22}, {{16, {}, Adapter::OutputHalfPixelRoiAlign}}},
        {"Round", {11, 22}},
        // Scatter-9 is ScatterElements-11 under its first name; deprecated at 11.
        {"Scatter", {9, 11}, {}, 11},
        // Scan-9 dropped Scan-8's batch axis and sequence_lens (graph_evaluation.cpp runs Scan-8 per
        // batch entry) and added the axes and directions attributes of the scan inputs and outputs.
        {"Scan", {8, 9, 11, 16, 19, 21, 23}, {{9, {}, Adapter::BatchAxisScan}}},
        {"ScatterElements", {11, 13, 16, 18}},
        {"ScatterND", {11, 13, 16, 18}},
        {"Selu", {1, 6, 22}},
        {"SequenceAt", {11}},
        {"SequenceConstruct", {11}},
        {"SequenceEmpty", {11}},
        {"SequenceErase", {11}},
        {"SequenceInsert", {11}},
        {"SequenceLength", {11}},
        // SequenceMap runs its body in graph_evaluation.cpp, as control flow.
        {"SequenceMap", {17}},
        {"Shape", {1, 13, 15, 19, 21, 23}},
        {"Shrink", {9}},
        {"Sigmoid", {1, 6, 13}},
        {"Sign", {9, 13}},
        {"Sin", {7, 22}},
        {"Sinh", {9, 22}},
        {"Size", {1, 13, 19, 21, 23}},
        // Slice-10: starts, ends and axes are inputs (and steps, input 4, is new).
        {"Slice",
         {1, 10, 11, 13},
         {{10, {{"starts", 1, As::Integers}, {"ends", 2, As::Integers}, {"axes", 3, As::Integers}}}}},
        {"Softmax", {1, 11, 13}, coerce_to_2d},
        {"SoftmaxCrossEntropyLoss", {12, 13}},
        {"Softplus", {1, 22}},
        {"Softsign", {1, 22}},
        {"SpaceToDepth", {1, 13}},
        // Split-13: split is input 1. Split-18 adds num_outputs.
        {"Split", {1, 2, 11, 13, 18}, {{13, {{"split", 1, As::Integers}}}}},
        {"SplitToSequence", {11}},
        {"Sqrt", {1, 6, 13}},
        // Squeeze-13, Unsqueeze-13: axes is input 1.
        {"Squeeze", {1, 11, 13, 21, 23}, {{13, {axes_input}}}},
        {"STFT", {17}},
        {"Sub", {1, 6, 7, 13, 14}},
        {"Sum", {1, 6, 8, 13}},
        {"Tan", {7, 22}},
        {"Tanh", {1, 6, 13}},
        {"TfIdfVectorizer", {9}},
        {"ThresholdedRelu", {10, 22}},
        {"Tile", {1, 6, 13}},
        // TopK-10: k is input 1, a 1-D tensor of one int64 (TopK-11 adds largest and sorted, both
        // 1 by default: TopK-1's and TopK-10's meaning).
        {"TopK", {1, 10, 11}, {{10, {{"k", 1, As::Integer}}}}},
        {"Transpose", {1, 13, 21, 23}},
        {"Trilu", {14}},
        {"Unique", {11}},
        {"Unsqueeze", {1, 11, 13, 21, 23}, {{13, {axes_input}}}},
        // Upsample-9: scales is input 1, no longer an attribute; Upsample-9 is Resize-10 under its
        // first name, deprecated at 10 in its favour (resize_operators.cpp evaluates it as Resize-10).
        {"Upsample", {1, 7, 9, 10}, {{9, {{"scales", 1, As::Numbers}}}}, 10},
        {"Where", {9, 16}},
        {"Xor", {1, 7}},
    };
}

// The attributes definitions after opset 7's added (onnx 1.12's schemas; 18: ONNX 1.13's changelog).
struct AddedAttribute {
    std::string_view op_type;
    LaterAttribute attribute;
};
const AddedAttribute added_attributes[] = {
    {"ArgMax", {"select_last_index", 12}},
    {"ArgMin", {"select_last_index", 12}},
    {"AveragePool", {"ceil_mode", 10}},
    {"AveragePool", {"dilations", 19}},
    {"BatchNormalization", {"training_mode", 14}},
    {"Cast", {"saturate", 19}},
    {"CastLike", {"saturate", 19}},
    {"Constant", {"sparse_value", 11}},
    {"Constant", {"value_float", 12}},
    {"Constant", {"value_floats", 12}},
    {"Constant", {"value_int", 12}},
    {"Constant", {"value_ints", 12}},
    {"Constant", {"value_string", 12}},
    {"Constant", {"value_strings", 12}},
    {"DepthToSpace", {"mode", 11}},
    {"DequantizeLinear", {"axis", 13}},
    {"DequantizeLinear", {"block_size", 21}},
    {"Dropout", {"seed", 12}},
    {"GatherND", {"batch_dims", 12}},
    {"GroupNormalization", {"stash_type", 21}},
    {"GRU", {"layout", 14}},
    {"LSTM", {"layout", 14}},
    {"MaxPool", {"storage_order", 8}},
    {"MaxPool", {"ceil_mode", 10}},
    {"MaxPool", {"dilations", 10}},
    {"RNN", {"layout", 14}},
    {"QuantizeLinear", {"axis", 13}},
    {"QuantizeLinear", {"saturate", 19}},
    {"QuantizeLinear", {"block_size", 21}},
    {"QuantizeLinear", {"output_dtype", 21}},
    {"ReduceL1", {"noop_with_empty_axes", 18}},
    {"ReduceL2", {"noop_with_empty_axes", 18}},
    {"ReduceLogSum", {"noop_with_empty_axes", 18}},
    {"ReduceLogSumExp", {"noop_with_empty_axes", 18}},
    {"ReduceMax", {"noop_with_empty_axes", 18}},
    {"ReduceMean", {"noop_with_empty_axes", 18}},
    {"ReduceMin", {"noop_with_empty_axes", 18}},
    {"ReduceProd", {"noop_with_empty_axes", 18}},
    {"ReduceSum", {"noop_with_empty_axes", 13}},
    {"ReduceSumSquare", {"noop_with_empty_axes", 18}},
    {"Reshape", {"allowzero", 14}},
    {"Scan", {"scan_input_axes", 9}},
    {"Scan", {"scan_input_directions", 9}},
    {"Scan", {"scan_output_axes", 9}},
    {"Scan", {"scan_output_directions", 9}},
    {"ScatterElements", {"reduction", 16}},
    {"ScatterND", {"reduction", 16}},
    {"Resize", {"coordinate_transformation_mode", 11}},
    {"Resize", {"cubic_coeff_a", 11}},
    {"Resize", {"exclude_outside", 11}},
    {"Resize", {"extrapolation_value", 11}},
    {"Resize", {"nearest_mode", 11}},
    {"Resize", {"antialias", 18}},
    {"Resize", {"axes", 18}},
    {"Resize", {"keep_aspect_ratio_policy", 18}},
    {"RoiAlign", {"coordinate_transformation_mode", 16}},
    {"Shape", {"end", 15}},
    {"Shape", {"start", 15}},
    {"Split", {"num_outputs", 18}},
    {"TopK", {"largest", 11}},
    {"TopK", {"sorted", 11}},
};

}  // namespace

const std::map<std::string, OperatorVersions, std::less<>>& operator_versions() {
    static const std::map<std::string, OperatorVersions, std::less<>> table = [] {
        std::map<std::string, OperatorVersions, std::less<>> t;
        for (OperatorVersions& op : all_operators()) t.emplace(std::string(op.op_type), std::move(op));
        for (const AddedAttribute& added : added_attributes)
            t.find(added.op_type)->second.later_attributes.push_back(added.attribute);
        return t;
    }();
    return table;
}

Definition definition_in(std::string_view op_type, int opset) {
    Definition d;
    const auto& table = operator_versions();
    const auto it = table.find(op_type);
    if (it == table.end()) return d;
    d.op = &it->second;
    const std::vector<int>& versions = d.op->versions;
    if (d.op->any_opset) {
        d.version = versions.back();
        return d;
    }
    const auto after = std::upper_bound(versions.begin(), versions.end(), opset);
    if (after == versions.begin()) return d;  // defined only in later opsets
    d.version = *(after - 1);
    if (d.op->deprecated_from != 0 && d.version >= d.op->deprecated_from) {
        d.version = 0;
        return d;
    }
    for (const DefinitionChange& change : d.op->changes)
        if (change.version > d.version) d.changes.push_back(&change);
    return d;
}

}  // namespace floatscope::emu::onnx
