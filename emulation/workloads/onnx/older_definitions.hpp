// Evaluating a node of an older definition of its operator with the kernel of the newest: the
// attributes that became inputs made into tensors, each change of meaning adapted once.
#pragma once

#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operator_versions.hpp"

namespace floatscope::emu::onnx {

/// `kernel` (the newest definition's) on call.node as `definition` (older, with changes) writes it:
/// each change's attributes_to_inputs become the inputs the later definition reads, and its adapter
/// applies, in the order of the changes. Throws floatscope::Error naming the node where it gives an
/// input its definition does not take.
template <class Numerics>
Outputs<Numerics> run_older_definition(const OperatorCall<Numerics>& call, const Definition& definition,
                                       const Kernel<Numerics>& kernel);

}  // namespace floatscope::emu::onnx
