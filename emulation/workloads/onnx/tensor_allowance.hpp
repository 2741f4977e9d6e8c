// What an ONNX evaluation holds in tensors, counted against the memory limit as the graph runs.
#pragma once

#include <cstddef>
#include <string_view>

namespace floatscope::emu::onnx {

/// While one lives on a thread (evaluate_graph makes one), the bytes of the tensors the evaluation
/// holds, against core::memory_limit(): what it starts with (constants, inputs), then each node's
/// outputs as they are made, less the values released after their last reader. Operators whose
/// output can be far larger than their inputs (ConstantOfShape, Expand, Tile, Range, MatMul, Gemm,
/// Conv, Pad, Resize, the broadcasting elementwise operators) ask require_tensor before they
/// allocate it, so that a graph is refused before it outgrows the limit, not after.
class TensorAllowance {
public:
    /// `number_bytes`: what one floating element costs (8 for a double, an MPFR number and its
    /// limbs for the truth); `held`: the bytes held before the first node, beside what an outer
    /// allowance (the graph around a subgraph) holds.
    TensorAllowance(double number_bytes, double held);
    ~TensorAllowance();
    TensorAllowance(const TensorAllowance&) = delete;
    TensorAllowance& operator=(const TensorAllowance&) = delete;

    /// The bytes of a tensor of `elements` elements (integers and bools take 8 each).
    double bytes(double elements, bool floating) const;
    /// Adds `bytes` (negative: released) to what is held; throws floatscope::Error naming `what`,
    /// what is held and the limit when that passes the limit.
    void hold(std::string_view what, double bytes);
    double held() const { return held_; }

private:
    friend void require_tensor(std::string_view, double, bool, double);
    double number_bytes_;
    double held_;
    TensorAllowance* outer_;
};

/// Counts a copy of `elements` elements that lives on beside the evaluation's values (the trace's
/// copy of each node's output) as held by the thread's TensorAllowance, throwing as
/// TensorAllowance::hold does; nothing when none lives.
void keep_tensor(std::string_view what, std::size_t elements, bool floating);

/// Throws floatscope::Error naming `what` when a tensor of `elements` elements, and the
/// `index_elements` indices (8 bytes each) made beside it, would pass the memory limit beside what
/// the thread's TensorAllowance holds; nothing when none lives. Counts are doubles, so that the
/// product of a hostile shape's dimensions is refused rather than wrapped around.
void require_tensor(std::string_view what, double elements, bool floating, double index_elements = 0);

}  // namespace floatscope::emu::onnx
