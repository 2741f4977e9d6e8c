// The operators FloatScope evaluates: each written once as a generic function of an OperatorCall,
// instantiated for the emulated run and for the ground truth (numerics.hpp), for its newest
// definition; a node of an older one is adapted to it (operator_versions.hpp, older_definitions.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/numerics.hpp"
#include "emulation/workloads/onnx/operator_versions.hpp"
#include "emulation/workloads/onnx/tensor.hpp"
#include "emulation/workloads/onnx/wide_numerics.hpp"

namespace floatscope::emu::onnx {

[[noreturn]] void throw_missing_input(const Node& node, std::size_t index);

/// What an operator receives: its node, the graph's opset (which picks the node's definition), its
/// inputs (nullptr for an omitted optional input, and for inputs past the ones the node names) and
/// the node's arithmetic.
template <class Numerics>
struct OperatorCall {
    using Number = typename Numerics::Number;
    const Node& node;
    int opset;
    std::vector<const Tensor<Number>*> inputs;
    const Numerics& numerics;
    /// Per input: the model's doubles where the evaluator left an initializer unconverted for the
    /// operator (reads_as_doubles: the truth's MatMul and Gemm operands), inputs[i] then holding
    /// its type and shape but no numbers; null (or past the end) elsewhere.
    std::vector<const Tensor<double>*> as_doubles = {};
    /// Per input: the tensor itself where no later node reads it and this node reads it once (a value
    /// its graph made, or a constant converted for this node alone), so that the operator may take
    /// its numbers and write its results over them (taken_input): the truth then makes and frees no
    /// MPFR number per element. Null (or past the end) elsewhere.
    std::vector<Tensor<Number>*> consumable = {};

    /// Input i, or nullptr when the node omits it.
    const Tensor<Number>* optional_input(std::size_t i) const { return i < inputs.size() ? inputs[i] : nullptr; }
    /// Input i; throws floatscope::Error naming the node when it is omitted.
    const Tensor<Number>& input(std::size_t i) const {
        const Tensor<Number>* t = optional_input(i);
        if (!t) throw_missing_input(node, i);
        return *t;
    }
    /// Input i as the model's doubles (as_doubles), or nullptr where it holds its numbers.
    const Tensor<double>* input_as_doubles(std::size_t i) const { return i < as_doubles.size() ? as_doubles[i] : nullptr; }
    /// Input i where the operator may take its numbers (consumable), or nullptr.
    Tensor<Number>* consumable_input(std::size_t i) const { return i < consumable.size() ? consumable[i] : nullptr; }
};

template <class Numerics>
using Outputs = std::vector<Tensor<typename Numerics::Number>>;

template <class Numerics>
using Kernel = std::function<Outputs<Numerics>(const OperatorCall<Numerics>&)>;

/// What an operator's inputs may be: tensors only (most), or also sequences and optionals
/// (Identity, the sequence and optional operators, Loop's carried values).
enum class Reads { Tensors, AnyValues };

class OperatorTable {
public:
    /// Registers `op_type` with an operator written as a generic callable
    /// (`[](const auto& call) { ... return outputs; }`) for the newest definition operator_versions()
    /// lists, instantiated for the three numerics (emulated on doubles, emulated in wide formats, the truth). An operator of Reads::Tensors is not called with a
    /// sequence or an optional: run throws naming the node and the input.
    template <class Operator>
    void add(std::string op_type, Operator op, Reads reads = Reads::Tensors) {
        entries_[std::move(op_type)] = {Kernel<EmulatedNumerics>(op), Kernel<WideNumerics>(op),
                                        Kernel<TruthNumerics>(op), reads};
    }

    /// Why FloatScope does not evaluate `node` in the ai.onnx `opset` ("FloatScope does not evaluate
    /// this operator"); empty when it does.
    std::string unsupported_reason(const Node& node, int opset) const;
    /// Runs the kernel of call.node's operator on the node as its definition in call.opset writes
    /// it; throws Unsupported naming the node, its op, the definition's version and why, when
    /// unsupported_reason gives one.
    Outputs<EmulatedNumerics> run(const OperatorCall<EmulatedNumerics>& call) const;
    Outputs<WideNumerics> run(const OperatorCall<WideNumerics>& call) const;
    Outputs<TruthNumerics> run(const OperatorCall<TruthNumerics>& call) const;
    /// Throws as run would for a node it cannot evaluate.
    void check(const Node& node, int opset) const;
    /// The op types with a kernel, sorted.
    std::vector<std::string> op_types() const;

private:
    struct Entry {
        Kernel<EmulatedNumerics> emulated;
        Kernel<WideNumerics> wide;
        Kernel<TruthNumerics> truth;
        Reads reads = Reads::Tensors;
    };
    template <class Numerics>
    Outputs<Numerics> run_definition(const OperatorCall<Numerics>& call, const Kernel<Numerics> Entry::*kernel) const;
    std::map<std::string, Entry, std::less<>> entries_;
};

/// Every operator FloatScope evaluates.
const OperatorTable& operator_table();

/// "Upsample-9": the definition of a node's operator in `opset` as ONNX's changelog names it;
/// "Add (opset 19)" where FloatScope knows none, "Attention of domain com.microsoft".
std::string definition_name(const Node& node, int opset);

// Each family of operators registers itself (operators/*.cpp).
void add_elementwise_operators(OperatorTable& table);
void add_reduction_operators(OperatorTable& table);  ///< Reduce*, Softmax, LogSoftmax, norms
void add_shape_operators(OperatorTable& table);  ///< Reshape, Transpose, Concat, Gather, Shape, ...
void add_linear_operators(OperatorTable& table);  ///< MatMul, Gemm, Conv, ConvTranspose, pooling
void add_arg_operators(OperatorTable& table);  ///< ArgMax, ArgMin, Hardmax, TopK
void add_scan_operators(OperatorTable& table);  ///< CumSum
void add_padding_operators(OperatorTable& table);  ///< Pad
void add_triangular_operators(OperatorTable& table);  ///< Trilu
void add_modulo_operators(OperatorTable& table);  ///< Mod
void add_number_class_operators(OperatorTable& table);  ///< Sign, IsNaN, IsInf
void add_scatter_operators(OperatorTable& table);  ///< GatherND, ScatterElements, ScatterND
void add_loss_operators(OperatorTable& table);  ///< NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void add_einsum_operators(OperatorTable& table);  ///< Einsum
void add_resize_operators(OperatorTable& table);  ///< Resize, Upsample
void add_non_max_suppression_operators(OperatorTable& table);  ///< NonMaxSuppression
void add_roi_align_operators(OperatorTable& table);  ///< RoiAlign
void add_max_unpool_operators(OperatorTable& table);  ///< MaxUnpool
void add_grid_sample_operators(OperatorTable& table);  ///< GridSample
void add_recurrent_operators(OperatorTable& table);  ///< RNN, GRU, LSTM
/// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv
void add_quantize_operators(OperatorTable& table);
void add_control_flow_operators(OperatorTable& table);  ///< If, Loop, Scan, SequenceMap (run in graph_evaluation.cpp)
/// SequenceConstruct, SequenceEmpty, SequenceAt, SequenceInsert, SequenceErase, SequenceLength,
/// SplitToSequence, ConcatFromSequence
void add_sequence_operators(OperatorTable& table);
void add_optional_operators(OperatorTable& table);  ///< Optional, OptionalHasElement, OptionalGetElement
void add_window_operators(OperatorTable& table);  ///< HannWindow, HammingWindow, BlackmanWindow
void add_selection_operators(OperatorTable& table);  ///< Compress, NonZero, OneHot, ReverseSequence
void add_shift_operators(OperatorTable& table);  ///< BitShift
void add_unique_operators(OperatorTable& table);  ///< Unique
void add_determinant_operators(OperatorTable& table);  ///< Det
void add_fourier_operators(OperatorTable& table);  ///< DFT, STFT
void add_mel_weight_operators(OperatorTable& table);  ///< MelWeightMatrix
void add_tfidf_operators(OperatorTable& table);  ///< TfIdfVectorizer

}  // namespace floatscope::emu::onnx
