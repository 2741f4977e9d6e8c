#!/usr/bin/python3
"""Writes ONNX models with control flow (If, Loop, Scan and their subgraphs) as exporters write them,
with inputs and float64 NumPy reference outputs computed here from the operators' definitions
(ONNX's Operators.md), independently of FloatScope:

  if_opset16          PyTorch-style If on the sample rate (Equal(sr, 16000)) as voice-activity
                      models switch: then_branch MatMul, Add, Tanh of outer-scope x, w and b;
                      else_branch Mul by an outer-scope scale, Sigmoid; an Add after the If. Two
                      input sets: if_opset16_then_* (sr = 16000) and if_opset16_else_* (sr = 8000).
  if_lstm_opset16     a voice-activity model's switch as PyTorch exports it at opset 16: If on
                      Equal(sr, 16000), each branch an LSTM (hidden 3, forward, its own weights of the
                      outer scope) over the outer x [5, 1, 2], then Squeeze and the last step's Y_h
                      through a Gemm head outside the If. Input sets if_lstm_opset16_then_* (sr =
                      16000) and if_lstm_opset16_else_* (sr = 8000).
  if_flip_opset16     If on Greater(x, 1): x = 1 + 2^-9 is 1 in bf16 (8 significand bits), so a bf16
                      policy takes else_branch where the truth takes then_branch.
  loop_opset13        Loop with a trip count (4) and a condition: carried a (a = a * w + x, x and w
                      of the outer scope) and a float counter, scan outputs a and the iteration
                      number (Cast to float) per iteration.
  loop_cond_opset11   Loop with only a condition (trip count omitted): a = a * 1.5 while
                      sum(a) < 20; the body computes the condition.
  loop_trips_opset16  Loop with only a trip count (3; condition omitted): its body's condition, false,
                      is ignored, as ONNX says of a for loop; a = a + i.
  loop_if_opset13     an If inside a Loop's body, on |xs[i] - 1| > 5 * 2^-11, with xs = [0.5,
                      1 + 6 * 2^-11, 1 - 9 * 2^-12]: then_branch doubles the carried v, else_branch
                      adds 10. The truth takes then, then, else; a bf16 policy (xs[1] rounds to 1,
                      xs[2] to 1 - 2^-8) then, else, then: each branch runs as often in both runs,
                      in other iterations.
  loop_flip_opset13   a Loop (trip count 8 and a condition) of a = a * (1 + 2^-9) while a < 1 + 2^-8,
                      a scan output of a: the truth makes 2 iterations; bf16, where both constants
                      are 1, makes 1.
  scan_opset9         Scan-9 with one state and two scan inputs, the second along axis 1 and read in
                      reverse (scan_input_axes, scan_input_directions), one scan output written
                      along axis 1 (scan_output_axes): s = s + x_t * y_t, out_t = tanh(s).
  scan_opset8         Scan-8 with its batch axis: state [B, D], scan input [B, T, D]
                      (sequence_lens omitted), directions [1] (reverse): s = s * 0.5 + x_t,
                      out_t = s.

Models a reader must refuse (no references; not checked by onnx.checker):

  loop_cycle          the Loop's body reads y of the outer scope, and y = Add(the Loop's output, 1)
  if_output_count     then_branch has one output, else_branch two
  if_output_shape     then_branch's output is declared [2, 3], else_branch's [3, 2]
  if_opset25          an If at opset 25, which FloatScope does not know, Relu in its branches

Beside each <name>.onnx: <name>_input_<i>.npy (float32, int64 or bool as the graph's inputs, in
order) and <name>_<output>.npy for each graph output (float64). Seeds are fixed.

Usage: write_control_flow_models.py OUT_DIR
"""
import sys

import numpy as np
from onnx import TensorProto, helper

from model_files import ModelFiles, init, value

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = sys.argv[1]
files = ModelFiles(out, "write_control_flow_models.py")
model, data = files.model, files.data
rng = np.random.default_rng(3636)
f32 = np.float32
FLOAT, INT64, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def floats(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(f32)


def d(a):
    return np.asarray(a, np.float64)


def sigmoid(a):
    return 1 / (1 + np.exp(-a))


# ---- if_opset16 ---------------------------------------------------------------------------------------

w, b, scale = floats(3, 4, scale=0.5), floats(4, scale=0.1), floats(1)
then_branch = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["xw"], name="MatMul_0"),
     helper.make_node("Add", ["xw", "b"], ["xwb"], name="Add_1"),
     helper.make_node("Tanh", ["xwb"], ["then_out"], name="Tanh_2")],
    "then_branch", [], [value("then_out", FLOAT, [2, 4])])
else_branch = helper.make_graph(
    [helper.make_node("Slice", ["x_full", "zero", "four", "one_axis"], ["x4"], name="Slice_0"),
     helper.make_node("Mul", ["x4", "scale"], ["xs"], name="Mul_1"),
     helper.make_node("Sigmoid", ["xs"], ["else_out"], name="Sigmoid_2")],
    "else_branch", [], [value("else_out", FLOAT, [2, 4])])
# then_branch reads x (an outer Slice: x_full's first 3 columns), else_branch x_full's first 4.
nodes = [helper.make_node("Slice", ["x_full", "zero", "three", "one_axis"], ["x"], name="Slice_x"),
         helper.make_node("Constant", [], ["rate"], name="Constant_0", value=init("rate", np.array(16000, np.int64))),
         helper.make_node("Equal", ["sr", "rate"], ["is_16k"], name="Equal_1"),
         helper.make_node("If", ["is_16k"], ["branch_out"], name="If_2", then_branch=then_branch,
                          else_branch=else_branch),
         helper.make_node("Add", ["branch_out", "branch_out"], ["y"], name="Add_3")]
model("if_opset16", 16, nodes, [("x_full", FLOAT, [2, 5]), ("sr", INT64, [])], [("y", FLOAT, [2, 4])],
      [init("w", w), init("b", b), init("scale", scale), init("zero", np.array([0], np.int64)),
       init("three", np.array([3], np.int64)), init("four", np.array([4], np.int64)),
       init("one_axis", np.array([1], np.int64))])
x_full = floats(2, 5)
then_y = 2 * np.tanh(d(x_full[:, :3]) @ d(w) + d(b))
else_y = 2 * sigmoid(d(x_full[:, :4]) * d(scale))
data("if_opset16_then", [x_full, np.array(16000, np.int64)], [("y", then_y)])
data("if_opset16_else", [x_full, np.array(8000, np.int64)], [("y", else_y)])

# ---- if_lstm_opset16 ------------------------------------------------------------------------------------


def lstm_reference(x, w, r, b):
    """ONNX's LSTM (forward, default activations, no peepholes) over x [seq, batch, input]: Y, Y_h."""
    hidden = r.shape[-1]
    w, r, b = d(w[0]), d(r[0]), d(b[0])
    h = np.zeros((x.shape[1], hidden))
    c = np.zeros((x.shape[1], hidden))
    ys = []
    for t in range(x.shape[0]):
        gates = d(x[t]) @ w.T + h @ r.T + b[:4 * hidden] + b[4 * hidden:]
        i, o, f, g = (gates[:, k * hidden:(k + 1) * hidden] for k in range(4))
        i, o, f, g = sigmoid(i), sigmoid(o), sigmoid(f), np.tanh(g)
        c = f * c + i * g
        h = o * np.tanh(c)
        ys.append(h)
    return np.stack(ys)[:, None], h[None]


hidden = 3
weights = {rate: (floats(1, 4 * hidden, 2, scale=0.5), floats(1, 4 * hidden, hidden, scale=0.5),
                  floats(1, 8 * hidden, scale=0.1)) for rate in ("16k", "8k")}


def lstm_branch(rate, name):
    w, r, b = (f"{k}_{rate}" for k in ("W", "R", "B"))
    return helper.make_graph(
        [helper.make_node("LSTM", ["x", w, r, b], ["y_" + rate, "y_h_" + rate], name="LSTM_0", hidden_size=hidden)],
        name, [], [value("y_" + rate, FLOAT, [5, 1, 1, hidden]), value("y_h_" + rate, FLOAT, [1, 1, hidden])])


head_w, head_b = floats(hidden, 2, scale=0.5), floats(2, scale=0.1)
nodes = [helper.make_node("Equal", ["sr", "rate"], ["is_16k"], name="Equal_0"),
         helper.make_node("If", ["is_16k"], ["y", "y_h"], name="If_1", then_branch=lstm_branch("16k", "then_branch"),
                          else_branch=lstm_branch("8k", "else_branch")),
         helper.make_node("Squeeze", ["y_h", "zero"], ["last"], name="Squeeze_2"),
         helper.make_node("Gemm", ["last", "head_w", "head_b"], ["logits"], name="Gemm_3")]
initializers = [init("rate", np.array(16000, np.int64)), init("zero", np.array([0], np.int64)),
                init("head_w", head_w), init("head_b", head_b)]
for rate, (w, r, b) in weights.items():
    initializers += [init(f"W_{rate}", w), init(f"R_{rate}", r), init(f"B_{rate}", b)]
model("if_lstm_opset16", 16, nodes, [("x", FLOAT, [5, 1, 2]), ("sr", INT64, [])],
      [("y", FLOAT, [5, 1, 1, hidden]), ("logits", FLOAT, [1, 2])], initializers)
x = floats(5, 1, 2)
for branch, rate, sr in (("then", "16k", 16000), ("else", "8k", 8000)):
    y, y_h = lstm_reference(x, *weights[rate])
    data(f"if_lstm_opset16_{branch}", [x, np.array(sr, np.int64)],
         [("y", y), ("logits", y_h[0] @ d(head_w) + d(head_b))])

# ---- if_flip_opset16 ------------------------------------------------------------------------------------

then_branch = helper.make_graph([helper.make_node("Mul", ["x", "two"], ["then_out"], name="Mul_0")], "then_branch",
                                [], [value("then_out", FLOAT, [4])])
else_branch = helper.make_graph([helper.make_node("Add", ["x", "ten"], ["else_out"], name="Add_0"),
                                 helper.make_node("Neg", ["else_out"], ["else_neg"], name="Neg_1")], "else_branch",
                                [], [value("else_neg", FLOAT, [4])])
nodes = [helper.make_node("ReduceMax", ["x"], ["largest"], name="ReduceMax_0", keepdims=0),
         helper.make_node("Greater", ["largest", "one"], ["above"], name="Greater_1"),
         helper.make_node("If", ["above"], ["branch_out"], name="If_2", then_branch=then_branch,
                          else_branch=else_branch),
         helper.make_node("Mul", ["branch_out", "x"], ["y"], name="Mul_3")]
model("if_flip_opset16", 16, nodes, [("x", FLOAT, [4])], [("y", FLOAT, [4])],
      [init("one", np.array(1, f32)), init("two", np.array(2, f32)), init("ten", np.array(10, f32))])
x = np.array([0.25, 1 + 2.0 ** -9, 0.5, -1], f32)
data("if_flip_opset16", [x], [("y", d(x) * 2 * d(x))])

# ---- loop_opset13 -----------------------------------------------------------------------------------------

body = helper.make_graph(
    [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="Identity_0"),
     helper.make_node("Mul", ["a_in", "w"], ["aw"], name="Mul_1"),
     helper.make_node("Add", ["aw", "x"], ["a_out"], name="Add_2"),
     helper.make_node("Add", ["count_in", "one"], ["count_out"], name="Add_3"),
     helper.make_node("Cast", ["i"], ["i_float"], name="Cast_4", to=FLOAT)],
    "body", [value("i", INT64, []), value("cond_in", BOOL, []), value("a_in", FLOAT, [3]),
             value("count_in", FLOAT, [])],
    [value("cond_out", BOOL, []), value("a_out", FLOAT, [3]), value("count_out", FLOAT, []),
     value("a_out", FLOAT, [3]), value("i_float", FLOAT, [])])
w_loop = floats(3) * 0.5
nodes = [helper.make_node("Loop", ["trips", "go", "a0", "zero"], ["a_final", "count", "a_each", "i_each"],
                          name="Loop_0", body=body),
         helper.make_node("Mul", ["a_final", "count"], ["scaled"], name="Mul_1")]
model("loop_opset13", 13, nodes, [("x", FLOAT, [3]), ("a0", FLOAT, [3])],
      [("scaled", FLOAT, [3]), ("a_each", FLOAT, [4, 3]), ("i_each", FLOAT, [4])],
      [init("trips", np.array(4, np.int64)), init("go", np.array(True)), init("zero", np.array(0, f32)),
       init("one", np.array(1, f32)), init("w", w_loop)])
x, a0 = floats(3), floats(3)
a, each = d(a0), []
for _ in range(4):
    a = a * d(w_loop) + d(x)
    each.append(a)
data("loop_opset13", [x, a0], [("scaled", a * 4), ("a_each", np.stack(each)), ("i_each", np.arange(4.0))])

# ---- loop_cond_opset11 -------------------------------------------------------------------------------------

body = helper.make_graph(
    [helper.make_node("Mul", ["a_in", "factor"], ["a_out"], name="Mul_0"),
     helper.make_node("ReduceSum", ["a_out"], ["total"], name="ReduceSum_1", keepdims=0),
     helper.make_node("Less", ["total", "limit"], ["cond_out"], name="Less_2")],
    "body", [value("i", INT64, []), value("cond_in", BOOL, []), value("a_in", FLOAT, [3])],
    [value("cond_out", BOOL, []), value("a_out", FLOAT, [3])])
nodes = [helper.make_node("Loop", ["", "go", "a0"], ["a_final"], name="Loop_0", body=body)]
model("loop_cond_opset11", 11, nodes, [("a0", FLOAT, [3])], [("a_final", FLOAT, [3])],
      [init("go", np.array(True)), init("factor", np.array(1.5, f32)), init("limit", np.array(20, f32))])
a0 = np.array([1, 2, 0.5], f32)
a = d(a0)
while True:
    a = a * 1.5
    if not a.sum() < 20:
        break
data("loop_cond_opset11", [a0], [("a_final", a)])

# ---- loop_trips_opset16 ----------------------------------------------------------------------------------

body = helper.make_graph(
    [helper.make_node("Constant", [], ["cond_out"], name="Constant_0", value=init("stop", np.array(False))),
     helper.make_node("Cast", ["i"], ["i_float"], name="Cast_1", to=FLOAT),
     helper.make_node("Add", ["a_in", "i_float"], ["a_out"], name="Add_2")],
    "body", [value("i", INT64, []), value("cond_in", BOOL, []), value("a_in", FLOAT, [2])],
    [value("cond_out", BOOL, []), value("a_out", FLOAT, [2])])
nodes = [helper.make_node("Loop", ["trips", "", "a0"], ["a_final"], name="Loop_0", body=body)]
model("loop_trips_opset16", 16, nodes, [("a0", FLOAT, [2])], [("a_final", FLOAT, [2])],
      [init("trips", np.array(3, np.int64))])
a0 = floats(2)
data("loop_trips_opset16", [a0], [("a_final", d(a0) + 0 + 1 + 2)])

# ---- loop_if_opset13 ------------------------------------------------------------------------------------

then_branch = helper.make_graph([helper.make_node("Mul", ["v_in", "two"], ["t"], name="Mul_0")], "then_branch", [],
                                [value("t", FLOAT, [2])])
else_branch = helper.make_graph([helper.make_node("Add", ["v_in", "ten"], ["e"], name="Add_0")], "else_branch", [],
                                [value("e", FLOAT, [2])])
body = helper.make_graph(
    [helper.make_node("Gather", ["xs", "i"], ["xi"], name="Gather_0", axis=0),
     helper.make_node("Sub", ["xi", "one"], ["off"], name="Sub_1"),
     helper.make_node("Abs", ["off"], ["distance"], name="Abs_2"),
     helper.make_node("Greater", ["distance", "eps"], ["c"], name="Greater_3"),
     helper.make_node("If", ["c"], ["u"], name="If_4", then_branch=then_branch, else_branch=else_branch),
     helper.make_node("Identity", ["cond_in"], ["cond_out"], name="Identity_5")],
    "body", [value("i", INT64, []), value("cond_in", BOOL, []), value("v_in", FLOAT, [2])],
    [value("cond_out", BOOL, []), value("u", FLOAT, [2]), value("u", FLOAT, [2])])
nodes = [helper.make_node("Loop", ["trips", "go", "v0"], ["v_final", "v_each"], name="Loop_0", body=body)]
eps = 5 * 2.0 ** -11
model("loop_if_opset13", 13, nodes, [("xs", FLOAT, [3]), ("v0", FLOAT, [2])],
      [("v_final", FLOAT, [2]), ("v_each", FLOAT, [3, 2])],
      [init("trips", np.array(3, np.int64)), init("go", np.array(True)), init("one", np.array(1, f32)),
       init("eps", np.array(eps, f32)), init("two", np.array(2, f32)), init("ten", np.array(10, f32))])
xs, v0 = np.array([0.5, 1 + 6 * 2.0 ** -11, 1 - 9 * 2.0 ** -12], f32), np.array([0.25, -3], f32)
v, each = d(v0), []
for i in range(3):
    v = v * 2 if abs(d(xs[i]) - 1) > eps else v + 10
    each.append(v)
data("loop_if_opset13", [xs, v0], [("v_final", v), ("v_each", np.stack(each))])

# ---- loop_flip_opset13 -----------------------------------------------------------------------------------

body = helper.make_graph(
    [helper.make_node("Mul", ["a_in", "factor"], ["a_out"], name="Mul_0"),
     helper.make_node("Less", ["a_out", "limit"], ["cond_out"], name="Less_1")],
    "body", [value("i", INT64, []), value("cond_in", BOOL, []), value("a_in", FLOAT, [])],
    [value("cond_out", BOOL, []), value("a_out", FLOAT, []), value("a_out", FLOAT, [])])
nodes = [helper.make_node("Loop", ["trips", "go", "a0"], ["a_final", "a_each"], name="Loop_0", body=body)]
factor, limit = 1 + 2.0 ** -9, 1 + 2.0 ** -8
model("loop_flip_opset13", 13, nodes, [("a0", FLOAT, [])], [("a_final", FLOAT, []), ("a_each", FLOAT, [None])],
      [init("trips", np.array(8, np.int64)), init("go", np.array(True)), init("factor", np.array(factor, f32)),
       init("limit", np.array(limit, f32))])
a, each = 1.0, []
for _ in range(8):
    a = a * factor
    each.append(a)
    if not a < limit:
        break
data("loop_flip_opset13", [np.array(1, f32)], [("a_final", np.array(a)), ("a_each", np.array(each))])

# ---- scan_opset9 --------------------------------------------------------------------------------------------

body = helper.make_graph(
    [helper.make_node("Mul", ["x_t", "y_t"], ["xy"], name="Mul_0"),
     helper.make_node("Add", ["s_in", "xy"], ["s_out"], name="Add_1"),
     helper.make_node("Tanh", ["s_out"], ["out_t"], name="Tanh_2")],
    "body", [value("s_in", FLOAT, [2]), value("x_t", FLOAT, [2]), value("y_t", FLOAT, [2])],
    [value("s_out", FLOAT, [2]), value("out_t", FLOAT, [2])])
nodes = [helper.make_node("Scan", ["s0", "xs", "ys"], ["s_final", "outs"], name="Scan_0", body=body,
                          num_scan_inputs=2, scan_input_axes=[0, 1], scan_input_directions=[0, 1],
                          scan_output_axes=[1])]
model("scan_opset9", 9, nodes, [("s0", FLOAT, [2]), ("xs", FLOAT, [5, 2]), ("ys", FLOAT, [2, 5])],
      [("s_final", FLOAT, [2]), ("outs", FLOAT, [2, 5])])
s0, xs, ys = floats(2), floats(5, 2), floats(2, 5)
s, outs = d(s0), []
for t in range(5):
    s = s + d(xs[t]) * d(ys[:, 4 - t])
    outs.append(np.tanh(s))
data("scan_opset9", [s0, xs, ys], [("s_final", s), ("outs", np.stack(outs, axis=1))])

# ---- scan_opset8 ---------------------------------------------------------------------------------------------

body = helper.make_graph(
    [helper.make_node("Mul", ["s_in", "half"], ["s_half"], name="Mul_0"),
     helper.make_node("Add", ["s_half", "x_t"], ["s_out"], name="Add_1"),
     helper.make_node("Identity", ["s_out"], ["out_t"], name="Identity_2")],
    "body", [value("s_in", FLOAT, [3]), value("x_t", FLOAT, [3])],
    [value("s_out", FLOAT, [3]), value("out_t", FLOAT, [3])])
nodes = [helper.make_node("Scan", ["", "s0", "xs"], ["s_final", "outs"], name="Scan_0", body=body,
                          num_scan_inputs=1, directions=[1])]
model("scan_opset8", 8, nodes, [("s0", FLOAT, [2, 3]), ("xs", FLOAT, [2, 4, 3])],
      [("s_final", FLOAT, [2, 3]), ("outs", FLOAT, [2, 4, 3])], [init("half", np.array(0.5, f32))])
s0, xs = floats(2, 3), floats(2, 4, 3)
# Scan-8's directions[i] = 1 reads scan input i from its end; its scan outputs are written in the order
# the iterations made them (iteration k at position k), as Scan-9's with scan_output_directions 0.
s_final, outs = np.zeros((2, 3)), np.zeros((2, 4, 3))
for batch in range(2):
    s = d(s0[batch])
    for k, t in enumerate(reversed(range(4))):
        s = s * 0.5 + d(xs[batch, t])
        outs[batch, k] = s
    s_final[batch] = s
data("scan_opset8", [s0, xs], [("s_final", s_final), ("outs", outs)])

# ---- models a reader refuses ----------------------------------------------------------------------------------

body = helper.make_graph(
    [helper.make_node("Add", ["a_in", "y"], ["a_out"], name="Add_0"),
     helper.make_node("Identity", ["cond_in"], ["cond_out"], name="Identity_1")],
    "body", [value("i", INT64, []), value("cond_in", BOOL, []), value("a_in", FLOAT, [3])],
    [value("cond_out", BOOL, []), value("a_out", FLOAT, [3])])
nodes = [helper.make_node("Loop", ["trips", "go", "a0"], ["a_final"], name="Loop_0", body=body),
         helper.make_node("Add", ["a_final", "one"], ["y"], name="Add_1")]
model("loop_cycle", 13, nodes, [("a0", FLOAT, [3])], [("y", FLOAT, [3])],
      [init("trips", np.array(2, np.int64)), init("go", np.array(True)), init("one", np.array(1, f32))], check=False)

then_branch = helper.make_graph([helper.make_node("Relu", ["x"], ["t"], name="Relu_0")], "then_branch", [],
                                [value("t", FLOAT, [2, 3])])
two_outputs = helper.make_graph([helper.make_node("Neg", ["x"], ["e"], name="Neg_0"),
                                 helper.make_node("Abs", ["x"], ["f"], name="Abs_1")], "else_branch", [],
                                [value("e", FLOAT, [2, 3]), value("f", FLOAT, [2, 3])])
transposed = helper.make_graph([helper.make_node("Transpose", ["x"], ["e"], name="Transpose_0")], "else_branch", [],
                               [value("e", FLOAT, [3, 2])])
for name, else_graph in (("if_output_count", two_outputs), ("if_output_shape", transposed)):
    nodes = [helper.make_node("If", ["c"], ["y"], name="If_0", then_branch=then_branch, else_branch=else_graph)]
    model(name, 16, nodes, [("c", BOOL, []), ("x", FLOAT, [2, 3])], [("y", FLOAT, None)], check=False)

else_relu = helper.make_graph([helper.make_node("Relu", ["x"], ["e"], name="Relu_0")], "else_branch", [],
                              [value("e", FLOAT, [2, 3])])
nodes = [helper.make_node("If", ["c"], ["y"], name="If_0", then_branch=then_branch, else_branch=else_relu)]
model("if_opset25", 25, nodes, [("c", BOOL, []), ("x", FLOAT, [2, 3])], [("y", FLOAT, [2, 3])], check=False)
