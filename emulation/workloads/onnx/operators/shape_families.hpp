// The families add_shape_operators registers, each in a file of its own.
#pragma once

#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx {

void add_layout_operators(OperatorTable& table);  ///< Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Expand, Tile,
                                                  ///< DepthToSpace, SpaceToDepth
void add_indexing_operators(OperatorTable& table);  ///< Slice, Gather, GatherElements, Concat, Split
void add_constant_operators(OperatorTable& table);  ///< Shape, Size, Constant, ConstantOfShape, Range, EyeLike

}  // namespace floatscope::emu::onnx
