// The key under which NodeOutputMemo keeps an emulated node's outputs.
#include "emulation/workloads/onnx/node_memo_key.hpp"

namespace floatscope::emu::onnx {

std::optional<NodeKey> node_memo_key(std::uint64_t model, const OperatorCall<EmulatedNumerics>& call) {
    NodeKey key{model, call.node.id, call.numerics.formats(), call.numerics.seed(), {}};
    for (const Tensor<double>* input : call.inputs) {
        if (input && input->kind != ValueKind::Tensor) return std::nullopt;
        key.inputs.push_back(input ? content_hash(*input) : 0);
    }
    return key;
}

}  // namespace floatscope::emu::onnx
