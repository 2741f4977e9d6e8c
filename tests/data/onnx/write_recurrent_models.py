#!/usr/bin/python3
"""Writes one-node ONNX models of LSTM, GRU and RNN with their attributes, inputs, and float64 NumPy
reference outputs computed here from the equations of ONNX's operator specification
(onnx/docs/Operators.md), independently of FloatScope:

  lstm_bidirectional   LSTM-14 bidirectional, peepholes, B, initial_h, initial_c, sequence_lens
                       [3, 1, 2]; default activations; Y, Y_h, Y_c
  lstm_reverse_layout  LSTM-14 reverse, layout 1, clip 0.6, input_forget, activations HardSigmoid
                       (alpha 0.3, beta 0.4), Softsign, Elu (alpha 0.7); sequence_lens [2, 4]
  lstm_opset7          LSTM-7 forward with B and peepholes, no sequence_lens; Y and Y_c only
  gru_bidirectional    GRU-14 bidirectional, linear_before_reset, B, initial_h, sequence_lens
                       [4, 2, 3]; activations Sigmoid, Tanh (forward), HardSigmoid, ScaledTanh
                       (alpha 0.2, 0.9; beta 0.5, 1.1) (reverse)
  gru_reverse_layout   GRU-14 reverse, layout 1, clip 0.5, linear_before_reset 0, activations
                       Sigmoid, Softplus
  rnn_bidirectional    RNN-14 bidirectional, activations Affine (alpha 0.5, beta 0.1) and LeakyRelu
                       (alpha 0.2), initial_h, sequence_lens [3, 2]
  rnn_thresholded      RNN-7 forward, ThresholdedRelu (alpha 0.1)
  rnn_reverse_clip     RNN-14 reverse, layout 1, Relu, clip 0.8
  pytorch_lstm_opset16 a two-layer bidirectional LSTM as torch.onnx.export writes nn.LSTM at opset
                       16: weights as initializers, h0 and c0 inputs sliced per layer (Slice),
                       each layer's Y made [seq, batch, 2 * hidden] (Transpose, Reshape) for the
                       next, the final states concatenated (Concat)

Choices the specification leaves open, as onnxruntime makes them: clip bounds each gate's input
before its activation (never C_t before h); input_forget makes f_t = 1 - i_t; Y is 0 past a
sequence's length; Y_h and Y_c are each sequence's state after its last step (a reverse direction
runs each sequence from its own last step). ThresholdedRelu is x >= alpha ? x : 0, the recurrent
operators' text.

Beside each <name>.onnx: <name>_input_<i>.npy (the graph's inputs in order: float32, sequence_lens
int32) and <name>_<output>.npy (float64). Every model passes onnx.checker. Seeds fixed.

Usage: write_recurrent_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(1436)
f32 = np.float32


def floats(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(f32)


ACTIVATIONS = {
    "Relu": lambda x, a, b: np.maximum(x, 0),
    "Tanh": lambda x, a, b: np.tanh(x),
    "Sigmoid": lambda x, a, b: 1 / (1 + np.exp(-x)),
    "Affine": lambda x, a, b: a * x + b,
    "LeakyRelu": lambda x, a, b: np.where(x >= 0, x, a * x),
    "ThresholdedRelu": lambda x, a, b: np.where(x >= a, x, 0),
    "ScaledTanh": lambda x, a, b: a * np.tanh(b * x),
    "HardSigmoid": lambda x, a, b: np.minimum(np.maximum(a * x + b, 0), 1),
    "Elu": lambda x, a, b: np.where(x >= 0, x, a * (np.exp(x) - 1)),
    "Softsign": lambda x, a, b: x / (1 + np.abs(x)),
    "Softplus": lambda x, a, b: np.log1p(np.exp(x)),
}
TAKES = {"Affine": (1, 1), "LeakyRelu": (1, 0), "ThresholdedRelu": (1, 0), "ScaledTanh": (1, 1),
         "HardSigmoid": (1, 1), "Elu": (1, 0)}


def activation_functions(names, alphas, betas):
    """Each name with the next alpha and beta it takes, as functions of x (float64)."""
    alphas, betas = list(alphas), list(betas)
    result = []
    for name in names:
        ta, tb = TAKES.get(name, (0, 0))
        a = np.float64(f32(alphas.pop(0))) if ta else 0.0
        b = np.float64(f32(betas.pop(0))) if tb else 0.0
        result.append(lambda x, f=ACTIVATIONS[name], a=a, b=b: f(x, a, b))
    return result


def recurrent(cell, X, W, R, B=None, lens=None, h0=None, c0=None, P=None, direction="forward", layout=0,
              clip=None, activations=None, alphas=(), betas=(), linear_before_reset=0, input_forget=0):
    """Y, Y_h, Y_c in float64 of `cell` ('LSTM', 'GRU', 'RNN') as ONNX's equations define them."""
    X, W, R = (np.asarray(a, np.float64) for a in (X, W, R))
    if layout == 1:
        X = X.transpose(1, 0, 2)
    seq, batch, _ = X.shape
    dirs, _, hidden = R.shape
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[cell]
    per_dir = {"LSTM": 3, "GRU": 2, "RNN": 1}[cell]
    if activations is None:
        activations = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"], "RNN": ["Tanh"]}[cell] * dirs
    acts = activation_functions(activations, alphas, betas)
    B = np.zeros((dirs, 2 * gates * hidden)) if B is None else np.asarray(B, np.float64)
    lens = np.full(batch, seq) if lens is None else np.asarray(lens)
    state = lambda s: (np.zeros((dirs, batch, hidden)) if s is None else
                       np.asarray(s, np.float64).transpose(1, 0, 2) if layout == 1 else np.asarray(s, np.float64))
    h0, c0 = state(h0), state(c0)
    cl = (lambda v: v) if clip is None else (lambda v: np.clip(v, -np.float64(f32(clip)), np.float64(f32(clip))))
    Y = np.zeros((seq, dirs, batch, hidden))
    Yh = np.zeros((dirs, batch, hidden))
    Yc = np.zeros((dirs, batch, hidden))
    for d in range(dirs):
        f, g, h = (acts[d * per_dir:(d + 1) * per_dir] + [None, None])[:3]
        Wg = np.split(W[d], gates)
        Rg = np.split(R[d], gates)
        Wb = np.split(B[d][:gates * hidden], gates)
        Rb = np.split(B[d][gates * hidden:], gates)
        reverse = direction == "reverse" or d == 1
        for b in range(batch):
            H = h0[d, b].copy()
            C = c0[d, b].copy()
            steps = range(lens[b] - 1, -1, -1) if reverse else range(lens[b])
            for t in steps:
                x = X[t, b]
                if cell == "RNN":
                    H = f(cl(x @ Wg[0].T + H @ Rg[0].T + Wb[0] + Rb[0]))
                elif cell == "GRU":
                    z = f(cl(x @ Wg[0].T + H @ Rg[0].T + Wb[0] + Rb[0]))
                    r = f(cl(x @ Wg[1].T + H @ Rg[1].T + Wb[1] + Rb[1]))
                    if linear_before_reset:
                        ht = g(cl(x @ Wg[2].T + r * (H @ Rg[2].T + Rb[2]) + Wb[2]))
                    else:
                        ht = g(cl(x @ Wg[2].T + (r * H) @ Rg[2].T + Rb[2] + Wb[2]))
                    H = (1 - z) * ht + z * H
                else:
                    Pi, Po, Pf = np.split(np.zeros(3 * hidden) if P is None else np.asarray(P[d], np.float64), 3)
                    i = f(cl(x @ Wg[0].T + H @ Rg[0].T + Pi * C + Wb[0] + Rb[0]))
                    fg = 1 - i if input_forget else f(cl(x @ Wg[2].T + H @ Rg[2].T + Pf * C + Wb[2] + Rb[2]))
                    c = g(cl(x @ Wg[3].T + H @ Rg[3].T + Wb[3] + Rb[3]))
                    C = fg * C + i * c
                    o = f(cl(x @ Wg[1].T + H @ Rg[1].T + Po * C + Wb[1] + Rb[1]))
                    H = o * h(C)
                Y[t, d, b] = H
            Yh[d, b] = H
            Yc[d, b] = C
    if layout == 1:
        return Y.transpose(2, 0, 1, 3), Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    return Y, Yh, Yc


def save(name, opset, cell, inputs, outputs, attributes, check=True, **reference_options):
    """inputs: [(onnx input name, array or None)]; outputs: which of Y, Y_h, Y_c the node names."""
    names = [n if a is not None else "" for n, a in inputs]
    while names and names[-1] == "":
        names.pop()
    present = [(n, a) for n, a in inputs if a is not None]
    values = dict(present)
    Y, Yh, Yc = recurrent(cell, values["X"], values["W"], values["R"], B=values.get("B"),
                          lens=values.get("sequence_lens"), h0=values.get("initial_h"), c0=values.get("initial_c"),
                          P=values.get("P"), **reference_options)
    all_outputs = {"Y": Y, "Y_h": Yh, "Y_c": Yc}
    node_outputs = [o if o in outputs else "" for o in (["Y", "Y_h", "Y_c"] if cell == "LSTM" else ["Y", "Y_h"])]
    while node_outputs[-1] == "":
        node_outputs.pop()
    node = helper.make_node(cell, names, node_outputs, name=f"{cell}_0", **attributes)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(n, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[a.dtype], list(a.shape)) for n, a in present],
        [helper.make_tensor_value_info(o, onnx.TensorProto.FLOAT, list(all_outputs[o].shape)) for o in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7,
                              producer_name="write_recurrent_models.py")
    if check:
        onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    for i, (_, array) in enumerate(present):
        np.save(os.path.join(out, f"{name}_input_{i}.npy"), array)
    for o in outputs:
        np.save(os.path.join(out, f"{name}_{o}.npy"), all_outputs[o])


def parameters(gates, dirs, input_size, hidden, scale=0.5):
    return floats(dirs, gates * hidden, input_size, scale=scale), floats(dirs, gates * hidden, hidden, scale=scale), \
        floats(dirs, 2 * gates * hidden, scale=0.3)


# LSTM, bidirectional with peepholes and sequence lengths.
seq, batch, inp, hid = 3, 3, 4, 5
W, R, B = parameters(4, 2, inp, hid)
save("lstm_bidirectional", 14, "LSTM",
     [("X", floats(seq, batch, inp)), ("W", W), ("R", R), ("B", B),
      ("sequence_lens", np.array([3, 1, 2], np.int32)), ("initial_h", floats(2, batch, hid, scale=0.5)),
      ("initial_c", floats(2, batch, hid, scale=0.5)), ("P", floats(2, 3 * hid, scale=0.5))],
     ["Y", "Y_h", "Y_c"], {"hidden_size": hid, "direction": "bidirectional"}, direction="bidirectional")

# LSTM, reverse, batch-major, clipped, input and forget gates coupled, other activations.
seq, batch, inp, hid = 4, 2, 3, 4
W, R, B = parameters(4, 1, inp, hid, scale=1.2)
acts = ["HardSigmoid", "Softsign", "Elu"]
save("lstm_reverse_layout", 14, "LSTM",
     [("X", floats(batch, seq, inp, scale=1.5)), ("W", W), ("R", R), ("B", B),
      ("sequence_lens", np.array([2, 4], np.int32)), ("initial_h", floats(batch, 1, hid, scale=0.5)),
      ("initial_c", floats(batch, 1, hid, scale=0.5))],
     ["Y", "Y_h", "Y_c"],
     {"hidden_size": hid, "direction": "reverse", "layout": 1, "clip": 0.6, "input_forget": 1,
      "activations": acts, "activation_alpha": [0.3, 0.7], "activation_beta": [0.4]},
     direction="reverse", layout=1, clip=0.6, input_forget=1, activations=acts, alphas=[0.3, 0.7], betas=[0.4])

# LSTM-7: peepholes without initial states, Y and Y_c only.
seq, batch, inp, hid = 3, 2, 3, 3
W, R, B = parameters(4, 1, inp, hid)
save("lstm_opset7", 7, "LSTM",
     [("X", floats(seq, batch, inp)), ("W", W), ("R", R), ("B", B), ("sequence_lens", None),
      ("initial_h", None), ("initial_c", None), ("P", floats(1, 3 * hid, scale=0.5))],
     ["Y", "Y_c"], {"hidden_size": hid})

# GRU, bidirectional, linear before reset, four activations with alphas and betas.
seq, batch, inp, hid = 4, 3, 3, 4
W, R, B = parameters(3, 2, inp, hid)
acts = ["Sigmoid", "Tanh", "HardSigmoid", "ScaledTanh"]
save("gru_bidirectional", 14, "GRU",
     [("X", floats(seq, batch, inp)), ("W", W), ("R", R), ("B", B),
      ("sequence_lens", np.array([4, 2, 3], np.int32)), ("initial_h", floats(2, batch, hid, scale=0.5))],
     ["Y", "Y_h"],
     {"hidden_size": hid, "direction": "bidirectional", "linear_before_reset": 1, "activations": acts,
      "activation_alpha": [0.2, 0.9], "activation_beta": [0.5, 1.1]},
     direction="bidirectional", linear_before_reset=1, activations=acts, alphas=[0.2, 0.9], betas=[0.5, 1.1])

# GRU, reverse, batch-major, clipped, Softplus as g.
seq, batch, inp, hid = 3, 2, 4, 3
W, R, B = parameters(3, 1, inp, hid, scale=1.2)
acts = ["Sigmoid", "Softplus"]
save("gru_reverse_layout", 14, "GRU",
     [("X", floats(batch, seq, inp, scale=1.5)), ("W", W), ("R", R), ("B", B)],
     ["Y", "Y_h"], {"hidden_size": hid, "direction": "reverse", "layout": 1, "clip": 0.5, "activations": acts},
     direction="reverse", layout=1, clip=0.5, activations=acts)

# RNN, bidirectional, Affine forward and LeakyRelu reverse.
seq, batch, inp, hid = 3, 2, 3, 4
W, R, B = parameters(1, 2, inp, hid)
acts = ["Affine", "LeakyRelu"]
save("rnn_bidirectional", 14, "RNN",
     [("X", floats(seq, batch, inp)), ("W", W), ("R", R), ("B", B), ("sequence_lens", np.array([3, 2], np.int32)),
      ("initial_h", floats(2, batch, hid, scale=0.5))],
     ["Y", "Y_h"],
     {"hidden_size": hid, "direction": "bidirectional", "activations": acts, "activation_alpha": [0.5, 0.2],
      "activation_beta": [0.1]},
     direction="bidirectional", activations=acts, alphas=[0.5, 0.2], betas=[0.1])

# RNN-7, ThresholdedRelu.
seq, batch, inp, hid = 3, 2, 3, 4
W, R, B = parameters(1, 1, inp, hid)
save("rnn_thresholded", 7, "RNN", [("X", floats(seq, batch, inp)), ("W", W), ("R", R), ("B", B)], ["Y", "Y_h"],
     {"hidden_size": hid, "activations": ["ThresholdedRelu"], "activation_alpha": [0.1]},
     activations=["ThresholdedRelu"], alphas=[0.1])

# RNN, reverse, batch-major, Relu clipped at 0.8.
seq, batch, inp, hid = 4, 2, 3, 3
W, R, B = parameters(1, 1, inp, hid, scale=1.0)
save("rnn_reverse_clip", 14, "RNN", [("X", floats(batch, seq, inp)), ("W", W), ("R", R), ("B", B)], ["Y", "Y_h"],
     {"hidden_size": hid, "direction": "reverse", "layout": 1, "clip": 0.8, "activations": ["Relu"]},
     direction="reverse", layout=1, clip=0.8, activations=["Relu"])

# A two-layer bidirectional LSTM as torch.onnx.export writes nn.LSTM(3, 4, num_layers=2,
# bidirectional=True) at opset 16.
seq, batch, inp, hid = 5, 2, 3, 4
x = floats(seq, batch, inp)
h0, c0 = floats(4, batch, hid, scale=0.5), floats(4, batch, hid, scale=0.5)
layers = [parameters(4, 2, inp, hid), parameters(4, 2, 2 * hid, hid)]
initializers = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in
                [("zero", [0]), ("two", [2]), ("four", [4]), ("shape", [0, 0, -1])]]
nodes = []
layer_input, reference_input = "x", x
hn, cn = [], []
for layer, (W, R, B) in enumerate(layers):
    for n, a in (("W", W), ("R", R), ("B", B)):
        initializers.append(numpy_helper.from_array(a, f"{n}{layer}"))
    first, last = ("zero", "two") if layer == 0 else ("two", "four")
    nodes += [helper.make_node("Slice", ["h0", first, last, "zero"], [f"h0_{layer}"], name=f"slice_h{layer}"),
              helper.make_node("Slice", ["c0", first, last, "zero"], [f"c0_{layer}"], name=f"slice_c{layer}"),
              helper.make_node("LSTM", [layer_input, f"W{layer}", f"R{layer}", f"B{layer}", "", f"h0_{layer}",
                                        f"c0_{layer}"], [f"Y{layer}", f"Yh{layer}", f"Yc{layer}"],
                               name=f"/lstm/LSTM_{layer}", hidden_size=hid, direction="bidirectional"),
              helper.make_node("Transpose", [f"Y{layer}"], [f"Yt{layer}"], name=f"transpose_{layer}", perm=[0, 2, 1, 3]),
              helper.make_node("Reshape", [f"Yt{layer}", "shape"], [f"out{layer}"], name=f"reshape_{layer}")]
    Y, Yh, Yc = recurrent("LSTM", reference_input, W, R, B=B, h0=h0[2 * layer:2 * layer + 2],
                          c0=c0[2 * layer:2 * layer + 2], direction="bidirectional")
    reference_input = Y.transpose(0, 2, 1, 3).reshape(seq, batch, 2 * hid)
    layer_input = f"out{layer}"
    hn.append(Yh)
    cn.append(Yc)
nodes += [helper.make_node("Identity", ["out1"], ["output"], name="identity"),
          helper.make_node("Concat", ["Yh0", "Yh1"], ["hn"], name="concat_h", axis=0),
          helper.make_node("Concat", ["Yc0", "Yc1"], ["cn"], name="concat_c", axis=0)]
references = {"output": reference_input, "hn": np.concatenate(hn), "cn": np.concatenate(cn)}
inputs = [("x", x), ("h0", h0), ("c0", c0)]
graph = helper.make_graph(
    nodes, "pytorch_lstm_opset16",
    [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, list(a.shape)) for n, a in inputs],
    [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, list(r.shape)) for n, r in references.items()],
    initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)], ir_version=8,
                          producer_name="pytorch", producer_version="2.1.0")
onnx.checker.check_model(model, full_check=True)
onnx.save(model, os.path.join(out, "pytorch_lstm_opset16.onnx"))
for i, (_, array) in enumerate(inputs):
    np.save(os.path.join(out, f"pytorch_lstm_opset16_input_{i}.npy"), array)
for n, r in references.items():
    np.save(os.path.join(out, f"pytorch_lstm_opset16_{n}.npy"), r)
