#!/usr/bin/python3
"""Writes ONNX models of the quantized operators, with inputs and NumPy reference outputs computed
here from ONNX's operator specification (onnx/docs/Operators.md), independently of FloatScope:
integer products summed exactly in int64; x / y_scale, DynamicQuantizeLinear's scale and zero point
and the rescaling of QLinearMatMul's and QLinearConv's accumulations in float32, each operation
rounded to float32 as the specification's reference computes them (and onnxruntime); rounding half
to even (np.rint), saturation with np.clip; DequantizeLinear and the float operators in float64.

  quantize_uint8        QuantizeLinear-13 per tensor to uint8: ties (x / scale = k + 1/2) both ways,
                        saturation at 0 and 255
  quantize_axis_int8    QuantizeLinear-13 per axis (axis 1 of [2, 3, 4]) to int8: ties, saturation
                        at -128 and 127
  quantize_opset10      QuantizeLinear-10 without a zero point (uint8, zero point 0)
  dequantize_axis       DequantizeLinear-13 per axis (axis 0) of int8
  dequantize_int32      DequantizeLinear-10 of int32 without a zero point
  dynamic_quantize      DynamicQuantizeLinear-11: y_scale is a float (binary32) as its output type
                        says; x / y_scale and the zero point from that float
  matmul_integer        MatMulInteger-10 of uint8 [2, 3, 4] by int8 [4, 5], per-row and per-column
                        zero points
  qlinear_matmul        QLinearMatMul-10 uint8 by int8 to int8, B's scale and zero point per column
  conv_integer          ConvInteger-10, strides 2, pads 1, W's zero point per output channel
  qlinear_conv          QLinearConv-10, group 2, dilations [1, 2], per-channel W scale and zero
                        point, int32 bias, uint8 output
  qdq_cnn               a QDQ int8 CNN as quantization tools write it: QuantizeLinear and
                        DequantizeLinear around a Conv (weights an int8 initializer with per-channel
                        scales), Relu, MaxPool and a Gemm, in float between them

Beside each <name>.onnx: <name>_input_<i>.npy (the graph's inputs in order) and <name>_<output>.npy
(float64 for floating outputs, the model's integer type otherwise). Every model passes
onnx.checker. Seeds fixed.

Usage: write_quantized_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(3610)
f32 = np.float32
RANGES = {np.int8: (-128, 127), np.uint8: (0, 255), np.int32: (-2**31, 2**31 - 1)}


def elem(dtype):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]


def quantize(real, zero_point, dtype):
    """saturate(rint(real) + zero_point): real is x / scale (or a rescaled accumulation) in float32."""
    low, high = RANGES[dtype]
    return np.clip(np.rint(real) + zero_point, low, high).astype(dtype)


def save(name, opset, nodes, inputs, outputs, initializers=()):
    """inputs: [(name, array)]; outputs: [(name, reference array, element type)]."""
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info(n, elem(a.dtype), list(a.shape))
                                            for n, a in inputs],
                              [helper.make_tensor_value_info(n, t, list(r.shape)) for n, r, t in outputs],
                              list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7,
                              producer_name="write_quantized_models.py")
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    for i, (_, array) in enumerate(inputs):
        np.save(os.path.join(out, f"{name}_input_{i}.npy"), array)
    for n, reference, _ in outputs:
        np.save(os.path.join(out, f"{name}_{n}.npy"), reference)


def one_node(name, opset, op, inputs, outputs, **attributes):
    node = helper.make_node(op, [n for n, _ in inputs], [n for n, _, _ in outputs], name=f"{op}_0", **attributes)
    save(name, opset, [node], inputs, outputs)


def conv_integer(x, w, x_zp, w_zp, strides, pads, dilations, group):
    """sum (x - x_zp) (w - w_zp[m]) over each window, exact (int64); 2-D, pads [top, left, bottom, right]."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xs = np.full((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]), 0, np.int64)
    xs[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x.astype(np.int64) - x_zp
    ws = w.astype(np.int64) - np.asarray(w_zp, np.int64).reshape(-1, 1, 1, 1)
    oh = (xs.shape[2] - (dilations[0] * (kh - 1) + 1)) // strides[0] + 1
    ow = (xs.shape[3] - (dilations[1] * (kw - 1) + 1)) // strides[1] + 1
    y = np.zeros((n, m, oh, ow), np.int64)
    mg = m // group
    for b in range(n):
        for o in range(m):
            g = o // mg
            for i in range(oh):
                for j in range(ow):
                    window = xs[b, g * cg:(g + 1) * cg, i * strides[0]:i * strides[0] + dilations[0] * (kh - 1) + 1:dilations[0],
                                j * strides[1]:j * strides[1] + dilations[1] * (kw - 1) + 1:dilations[1]]
                    y[b, o, i, j] = np.sum(window * ws[o])
    return y


# QuantizeLinear per tensor to uint8: scale 0.5, so x = 0.25 (0.5), 0.75 (1.5), -0.25 (-0.5) tie.
x = np.array([[0.25, 0.75, 1.25, -0.25, -0.75, 1.0, 3.3], [200.0, -100.0, 63.75, 64.25, 0.0, -64.0, 12.34]], f32)
scale, zp = np.array(0.5, f32), np.array(100, np.uint8)
one_node("quantize_uint8", 13, "QuantizeLinear", [("x", x), ("scale", scale), ("zp", zp)],
         [("y", quantize(x / scale, 100, np.uint8), TensorProto.UINT8)])

# QuantizeLinear per axis 1 to int8.
x = (rng.standard_normal((2, 3, 4)) * 40).astype(f32)
x[0, 0, 0], x[0, 1, 0], x[1, 2, 3] = 2.5, 0.75, -1.25  # ties: 2.5 / 1 -> 2, 0.75 / 0.5 -> 2, -1.25 / 0.25 -> -5
x[1, 0, 1], x[1, 1, 1] = 500.0, -500.0
scale = np.array([1.0, 0.5, 0.25], f32)
zp = np.array([0, -3, 5], np.int8)
real = x / scale.reshape(1, 3, 1)
one_node("quantize_axis_int8", 13, "QuantizeLinear", [("x", x), ("scale", scale), ("zp", zp)],
         [("y", quantize(real, zp.astype(np.int64).reshape(1, 3, 1), np.int8), TensorProto.INT8)], axis=1)

# QuantizeLinear-10 without a zero point: uint8 around 0.
x = np.array([-3.0, -0.2, 0.0, 0.3, 1.5, 2.5, 255.9, 300.0], f32)
scale = np.array(1.0, f32)
one_node("quantize_opset10", 10, "QuantizeLinear", [("x", x), ("scale", scale)],
         [("y", quantize(x / scale, 0, np.uint8), TensorProto.UINT8)])

# DequantizeLinear per axis 0 of int8.
x = rng.integers(-128, 128, (3, 4), dtype=np.int8)
scale = np.array([0.1, 0.02, 3.0], f32)
zp = np.array([-1, 7, 0], np.int8)
y = (x.astype(np.int64) - zp.astype(np.int64).reshape(3, 1)) * scale.astype(np.float64).reshape(3, 1)
one_node("dequantize_axis", 13, "DequantizeLinear", [("x", x), ("scale", scale), ("zp", zp)],
         [("y", y, TensorProto.FLOAT)], axis=0)

# DequantizeLinear of int32 (a bias), no zero point.
x = np.array([-70000, -1, 0, 5, 123456], np.int32)
scale = np.array(0.0625, f32)
one_node("dequantize_int32", 10, "DequantizeLinear", [("x", x), ("scale", scale)],
         [("y", x.astype(np.float64) * np.float64(scale), TensorProto.FLOAT)])

# DynamicQuantizeLinear.
x = np.array([[-2.3, 0.7, 1.9, -0.45], [3.05, 0.0, -1.1, 2.2]], f32)
low, high = np.minimum(f32(0), x.min()), np.maximum(f32(0), x.max())
y_scale = (high - low) / f32(255)
y_zp = int(np.clip(np.rint(f32(0) - low / y_scale), 0, 255))
y = quantize(x / y_scale, y_zp, np.uint8)
one_node("dynamic_quantize", 11, "DynamicQuantizeLinear", [("x", x)],
         [("y", y, TensorProto.UINT8), ("y_scale", np.array(y_scale, np.float64), TensorProto.FLOAT),
          ("y_zero_point", np.array(y_zp, np.uint8), TensorProto.UINT8)])

# MatMulInteger, batched A with per-row zero points, B with per-column ones.
a = rng.integers(0, 256, (2, 3, 4), dtype=np.uint8)
b = rng.integers(-128, 128, (4, 5), dtype=np.int8)
a_zp = np.array([10, 128, 255], np.uint8)
b_zp = np.array([0, -5, 3, 127, -128], np.int8)
y = (a.astype(np.int64) - a_zp.astype(np.int64).reshape(3, 1)) @ (b.astype(np.int64) - b_zp.astype(np.int64))
one_node("matmul_integer", 10, "MatMulInteger", [("a", a), ("b", b), ("a_zp", a_zp), ("b_zp", b_zp)],
         [("y", y.astype(np.int32), TensorProto.INT32)])

# QLinearMatMul: uint8 by int8 (per column) to int8.
a = rng.integers(0, 256, (3, 6), dtype=np.uint8)
b = rng.integers(-128, 128, (6, 4), dtype=np.int8)
a_scale, a_zp = np.array(0.02, f32), np.array(120, np.uint8)
b_scale, b_zp = np.array([0.01, 0.03, 0.005, 0.02], f32), np.array([0, 2, -4, 9], np.int8)
y_scale, y_zp = np.array(0.15, f32), np.array(-10, np.int8)
acc = (a.astype(np.int64) - int(a_zp)) @ (b.astype(np.int64) - b_zp.astype(np.int64))
real = acc.astype(f32) * (a_scale * b_scale / y_scale)
one_node("qlinear_matmul", 10, "QLinearMatMul",
         [("a", a), ("a_scale", a_scale), ("a_zp", a_zp), ("b", b), ("b_scale", b_scale), ("b_zp", b_zp),
          ("y_scale", y_scale), ("y_zp", y_zp)],
         [("y", quantize(real, -10, np.int8), TensorProto.INT8)])

# ConvInteger, strides 2, pads 1, per-channel W zero points.
x = rng.integers(0, 256, (1, 2, 5, 5), dtype=np.uint8)
w = rng.integers(0, 256, (3, 2, 3, 3), dtype=np.uint8)
x_zp, w_zp = np.array(3, np.uint8), np.array([0, 100, 255], np.uint8)
y = conv_integer(x, w, 3, w_zp, [2, 2], [1, 1, 1, 1], [1, 1], 1)
one_node("conv_integer", 10, "ConvInteger", [("x", x), ("w", w), ("x_zp", x_zp), ("w_zp", w_zp)],
         [("y", y.astype(np.int32), TensorProto.INT32)], strides=[2, 2], pads=[1, 1, 1, 1])

# QLinearConv, group 2, dilations [1, 2], per-channel W scale and zero point, bias.
x = rng.integers(0, 256, (1, 4, 5, 6), dtype=np.uint8)
w = rng.integers(-128, 128, (4, 2, 2, 2), dtype=np.int8)
x_scale, x_zp = np.array(0.05, f32), np.array(128, np.uint8)
w_scale, w_zp = np.array([0.01, 0.002, 0.02, 0.005], f32), np.array([0, 1, -2, 3], np.int8)
y_scale, y_zp = np.array(0.25, f32), np.array(100, np.uint8)
bias = np.array([1000, -500, 0, 20000], np.int32)
acc = conv_integer(x, w, 128, w_zp, [1, 1], [0, 1, 0, 1], [1, 2], 2) + bias.astype(np.int64).reshape(1, 4, 1, 1)
real = acc.astype(f32) * (x_scale * w_scale.reshape(1, 4, 1, 1) / y_scale)
one_node("qlinear_conv", 10, "QLinearConv",
         [("x", x), ("x_scale", x_scale), ("x_zp", x_zp), ("w", w), ("w_scale", w_scale), ("w_zp", w_zp),
          ("y_scale", y_scale), ("y_zp", y_zp), ("bias", bias)],
         [("y", quantize(real, 100, np.uint8), TensorProto.UINT8)], group=2, dilations=[1, 2], pads=[0, 1, 0, 1])

# A QDQ int8 CNN: Q/DQ of the input, Conv with int8 per-channel weights (DequantizeLinear of an
# initializer), Relu, Q/DQ, MaxPool, Flatten, Gemm (int8 weights per tensor), output in float.
x = (rng.standard_normal((2, 2, 6, 6))).astype(f32)
w_q = rng.integers(-127, 128, (3, 2, 3, 3), dtype=np.int8)
w_scale = np.array([0.01, 0.02, 0.015], f32)
g_q = rng.integers(-127, 128, (3 * 2 * 2, 4), dtype=np.int8)
g_scale = np.array(0.02, f32)
s_in, s_act = np.array(0.03, f32), np.array(0.01, f32)
z8 = np.array(0, np.int8)
bias = np.array([0.05, -0.02, 0.1], f32)
nodes = [
    helper.make_node("QuantizeLinear", ["x", "s_in", "z8"], ["x_q"], name="q_in"),
    helper.make_node("DequantizeLinear", ["x_q", "s_in", "z8"], ["x_dq"], name="dq_in"),
    helper.make_node("DequantizeLinear", ["w_q", "w_scale", "w_zp"], ["w"], name="dq_w", axis=0),
    helper.make_node("Conv", ["x_dq", "w", "bias"], ["conv"], name="conv", pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["conv"], ["relu"], name="relu"),
    helper.make_node("QuantizeLinear", ["relu", "s_act", "z8"], ["relu_q"], name="q_act"),
    helper.make_node("DequantizeLinear", ["relu_q", "s_act", "z8"], ["relu_dq"], name="dq_act"),
    helper.make_node("MaxPool", ["relu_dq"], ["pool"], name="pool", kernel_shape=[3, 3], strides=[3, 3]),
    helper.make_node("Flatten", ["pool"], ["flat"], name="flatten"),
    helper.make_node("DequantizeLinear", ["g_q", "g_scale", "z8"], ["g"], name="dq_g"),
    helper.make_node("Gemm", ["flat", "g"], ["y"], name="gemm"),
]
initializers = [numpy_helper.from_array(a, n) for n, a in [
    ("s_in", s_in), ("z8", z8), ("w_q", w_q), ("w_scale", w_scale), ("w_zp", np.zeros(3, np.int8)),
    ("bias", bias), ("s_act", s_act), ("g_q", g_q), ("g_scale", g_scale)]]
f64 = np.float64
x_dq = quantize(x / s_in, 0, np.int8).astype(f64) * f64(s_in)
w_real = w_q.astype(f64) * w_scale.astype(f64).reshape(3, 1, 1, 1)
xp = np.pad(x_dq, ((0, 0), (0, 0), (1, 1), (1, 1)))
conv = np.zeros((2, 3, 6, 6))
for i in range(6):
    for j in range(6):
        conv[:, :, i, j] = np.einsum("nchw,mchw->nm", xp[:, :, i:i + 3, j:j + 3], w_real)
conv += bias.astype(f64).reshape(1, 3, 1, 1)
relu = np.maximum(conv, 0)
relu_dq = quantize(relu.astype(f32) / s_act, 0, np.int8).astype(f64) * f64(s_act)
pool = relu_dq.reshape(2, 3, 2, 3, 2, 3).max(axis=(3, 5))
y = pool.reshape(2, 12) @ (g_q.astype(f64) * f64(g_scale))
save("qdq_cnn", 13, nodes, [("x", x)], [("y", y, TensorProto.FLOAT)], initializers)
