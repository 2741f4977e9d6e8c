// The key under which NodeOutputMemo keeps an emulated node's outputs: what those outputs depend on.
#pragma once

#include <cstdint>
#include <optional>

#include "emulation/workloads/onnx/node_output_memo.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

/// The node's id, formats and seed and a content hash of each input, under the loaded model
/// `model`; nullopt for a node that reads a sequence or an optional (never kept).
std::optional<NodeKey> node_memo_key(std::uint64_t model, const OperatorCall<EmulatedNumerics>& call);

}  // namespace floatscope::emu::onnx
