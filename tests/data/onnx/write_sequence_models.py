#!/usr/bin/python3
"""Writes ONNX models that carry sequences between their nodes, with inputs and float64 NumPy
reference outputs computed here from the operators' definitions (ONNX's Operators.md),
independently of FloatScope:

  sequence_ops_opset11  x [4, 6] through every sequence operator of opset 11: SplitToSequence by a
                        list ([1, 2, 3] along axis 1), by a scalar (4: parts of 4 and 2) and into
                        rows (axis 0, keepdims 0); SequenceAt (2 and -1), SequenceInsert (at 0 and at
                        the end of a SequenceEmpty), SequenceErase (-3), SequenceLength,
                        ConcatFromSequence joining (axis 1) and stacking (new_axis 1, axis -1); Tanh,
                        Exp, Sin, Mul and Sqrt on the tensors taken out, so that the truth computes.
  sequence_map_opset17  SequenceMap over the rows of x [3, 5] (SplitToSequence, keepdims 0) with the
                        outer b [5] whole: its body makes tanh(x_i * b + 0.5) and exp(x_i); each
                        gathered sequence stacked by ConcatFromSequence (new_axis 1, axis 0).

Models an evaluation must refuse (no references):

  sequence_into_add     Add reads a sequence (SplitToSequence's), which it cannot take
  sequence_at_outside   SequenceAt at position 3 of a sequence of 2 tensors
  sequence_input        a graph input that is a sequence, which the onnx workload does not take

Beside each <name>.onnx: <name>_input_<i>.npy (float32) and <name>_<output>.npy for each graph
output (float64; int64 for SequenceLength). Seeds are fixed.

Usage: write_sequence_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from model_files import ModelFiles, init, node, value

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = sys.argv[1]
files = ModelFiles(out, "write_sequence_models.py")
model, data = files.model, files.data
rng = np.random.default_rng(3611)
f32 = np.float32
FLOAT, INT64 = TensorProto.FLOAT, TensorProto.INT64


# ---- sequence_ops_opset11 --------------------------------------------------------------------------------

nodes = [
    node("SplitToSequence", ["x", "lengths"], ["parts"], axis=1),  # [4,1], [4,2], [4,3]
    node("SequenceAt", ["parts", "two"], ["third"]),
    node("Tanh", ["third"], ["third_tanh"]),
    node("SequenceInsert", ["parts", "third_tanh", "zero"], ["inserted"]),  # tanh, p0, p1, p2
    node("SequenceErase", ["inserted", "minus_three"], ["erased"]),  # tanh, p1, p2
    node("SequenceLength", ["erased"], ["count"]),
    node("ConcatFromSequence", ["erased"], ["joined"], axis=1),  # [4, 8]
    node("Exp", ["joined"], ["joined_exp"]),
    node("SplitToSequence", ["x"], ["rows"], axis=0, keepdims=0),  # 4 x [6]
    node("ConcatFromSequence", ["rows"], ["stacked"], axis=-1, new_axis=1),  # [6, 4]: x transposed
    node("Sin", ["stacked"], ["stacked_sin"]),
    node("SplitToSequence", ["x", "four"], ["chunks"], axis=1),  # [4, 4], [4, 2]
    node("SequenceAt", ["chunks", "minus_one"], ["last_chunk"]),
    node("Mul", ["last_chunk", "last_chunk"], ["squared"]),
    node("SequenceEmpty", [], ["empty"], dtype=FLOAT),
    node("SequenceInsert", ["empty", "squared"], ["single"]),
    node("SequenceAt", ["single", "zero"], ["taken"]),
    node("Sqrt", ["taken"], ["root"]),
]
model("sequence_ops_opset11", 11, nodes, [("x", FLOAT, [4, 6])],
      [("count", INT64, []), ("joined_exp", FLOAT, [4, 8]), ("stacked_sin", FLOAT, [6, 4]), ("root", FLOAT, [4, 2])],
      [init("lengths", np.array([1, 2, 3], np.int64)), init("two", np.array(2, np.int64)),
       init("zero", np.array(0, np.int64)), init("minus_three", np.array(-3, np.int64)),
       init("four", np.array(4, np.int64)), init("minus_one", np.array(-1, np.int64))])
x = rng.standard_normal((4, 6)).astype(f32)
xd = x.astype(np.float64)
joined = np.concatenate([np.tanh(xd[:, 3:6]), xd[:, 1:3], xd[:, 3:6]], axis=1)
data("sequence_ops_opset11", [x],
     [("count", np.array(3, np.int64)), ("joined_exp", np.exp(joined)), ("stacked_sin", np.ascontiguousarray(np.sin(xd.T))),
      ("root", np.sqrt(xd[:, 4:6] * xd[:, 4:6]))])

# ---- sequence_map_opset17 --------------------------------------------------------------------------------

body = helper.make_graph(
    [node("Mul", ["row", "scale"], ["scaled"]),
     node("Add", ["scaled", "half"], ["shifted"]),
     node("Tanh", ["shifted"], ["row_tanh"]),
     node("Exp", ["row"], ["row_exp"])],
    "body", [value("row", FLOAT, [5]), value("scale", FLOAT, [5])],
    [value("row_tanh", FLOAT, [5]), value("row_exp", FLOAT, [5])], [init("half", np.array(0.5, f32))])
nodes = [
    node("SplitToSequence", ["x"], ["rows"], axis=0, keepdims=0),
    helper.make_node("SequenceMap", ["rows", "b"], ["tanhs", "exps"], name="SequenceMap_0", body=body),
    node("ConcatFromSequence", ["tanhs"], ["tanh_stacked"], axis=0, new_axis=1),
    node("ConcatFromSequence", ["exps"], ["exp_stacked"], axis=0, new_axis=1),
]
model("sequence_map_opset17", 17, nodes, [("x", FLOAT, [3, 5]), ("b", FLOAT, [5])],
      [("tanh_stacked", FLOAT, [3, 5]), ("exp_stacked", FLOAT, [3, 5])])
x = rng.standard_normal((3, 5)).astype(f32)
b = rng.standard_normal(5).astype(f32)
xd, bd = x.astype(np.float64), b.astype(np.float64)
data("sequence_map_opset17", [x, b], [("tanh_stacked", np.tanh(xd * bd + 0.5)), ("exp_stacked", np.exp(xd))])

# ---- models to refuse ------------------------------------------------------------------------------------

model("sequence_into_add", 11,
      [node("SplitToSequence", ["x"], ["parts"], axis=0), node("Add", ["parts", "parts"], ["sum"])],
      [("x", FLOAT, [2, 3])], [("sum", FLOAT, None)], check=False)
data("sequence_into_add", [rng.standard_normal((2, 3)).astype(f32)], [])
model("sequence_at_outside", 11,
      [node("SplitToSequence", ["x"], ["parts"], axis=0), node("SequenceAt", ["parts", "three"], ["part"])],
      [("x", FLOAT, [2, 3])], [("part", FLOAT, [1, 3])], [init("three", np.array(3, np.int64))])
data("sequence_at_outside", [rng.standard_normal((2, 3)).astype(f32)], [])
seq_in = helper.make_tensor_sequence_value_info("parts", FLOAT, [2])
m = helper.make_model(helper.make_graph([node("ConcatFromSequence", ["parts"], ["joined"], axis=0)], "sequence_input",
                                        [seq_in], [value("joined", FLOAT, [None])]),
                      opset_imports=[helper.make_opsetid("", 11)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
onnx.save(m, os.path.join(out, "sequence_input.onnx"))
