// What an ONNX graph declares it will compute before it runs, node by node from the shapes the model
// declares or ONNX's shape inference finds: the onnx workload's Workload::work, and through it the
// Runner's time estimate and the progress bar's shares.
#pragma once

#include <cstdint>
#include <optional>

#include "core/cost_model.hpp"
#include "emulation/workloads/onnx/graph.hpp"
#include "emulation/workloads/onnx/graph_precision.hpp"

namespace floatscope::emu::onnx {

/// The operations of one node, in the datasheets' convention (a multiply-add counts as 2):
/// - MatMul, Gemm, Conv, ConvTranspose and the recurrent nodes (RNN, GRU,
///   LSTM): 2 x their multiply-adds (output elements x the reduced length; for a recurrent node
///   steps x batch x directions x gate rows x (input + hidden));
/// - every other node: one operation per element of its largest input or output (elementwise
///   nodes, reductions, normalizations, data movement).
/// A symbolic dimension counts as `batch`. nullopt where a shape it needs is not known.
/// Subgraphs are not counted here (graph_work does).
std::optional<double> node_operations(const Graph& graph, const Node& node, std::int64_t batch);

/// The graph's work under `precision`: each node's operations (node_operations) in the datasheet
/// format it computes in (a matrix product: its multiplier's input format; other nodes: their
/// compute format); the bytes each node reads and writes in its output format (dram_bytes), the
/// initializers in the storage format (resident_bytes). Subgraphs: a Loop's or Scan's body times its
/// trip count (a Loop's M where it is a constant, a Scan's scanned length where its shape is
/// known), an If's costlier branch. Where a trip count or a shape is not known before the run the
/// count is an estimate, and `assumptions` says what it assumed (a body counted once, nodes left out).
core::WorkloadCounts graph_work(const Graph& graph, const GraphPrecision& precision, std::int64_t batch);

}  // namespace floatscope::emu::onnx
