#!/usr/bin/python3
"""Writes ONNX models of older opsets (7 to 11) and of opset 18, as exporters write them, with inputs
and float64 NumPy reference outputs computed here from each operator's definition in the model's
opset (ONNX's operator changelog), independently of FloatScope:

  cnn_opset9          paddle2onnx-style CNN: weights as Constant nodes, Conv, BatchNormalization-9,
                      Clip-6 as ReLU6 (min/max attributes), MaxPool, Conv, Relu, GlobalAveragePool,
                      Flatten-9, Gemm-9, Softmax-1 on 2-D
  softmax_opset11     Softmax-11 (default axis 1), LogSoftmax-11 (axis 1), Hardmax-11 (axis -2) of a
                      3-D input: each coerces it to 2-D, which differs from opset 13's single axis
  shapes_opset10      Slice-10 (inputs), TopK-10 (k an input), Clip-6, Pad-2 (attributes),
                      Unsqueeze-1 and Squeeze-1 (axes attributes), ReduceMean-1, Dropout-10 with its
                      bool mask
  shapes_opset11      Clip-11 (min only), Pad-11 (reflect), Slice-11 (negative axes),
                      Unsqueeze-11/Squeeze-11 (negative axes), Split-11 (split attribute),
                      ReduceSum-11 and ReduceL2-11 (axes attributes)
  batchnorm_opset7    BatchNormalization-7 with spatial = 0 (per channel and position) and 1,
                      Dropout-7 (its mask of the input's type), Softmax-1 of a 4-D input
  opset18             ReduceMean-18 and ReduceSumSquare-18 (axes an input), Pad-18 (axes input),
                      Split-18 (num_outputs, a shorter last part), ScatterElements-18 (reduction max)
  activations_opset14 Celu-12 (negative inputs, which ONNX's node test lacks), LRN-13 of an even
                      size (its window one channel longer after than before), Selu-6 (defaults),
                      HardSwish-14
  fpn_opset11         a feature pyramid's top-down path as PyTorch exports it: Conv, lateral 1 x 1
                      Convs, Resize-11 nearest by scales (asymmetric, floor) and bilinear to the
                      lateral's size (Shape, Slice, Concat; pytorch_half_pixel, 8 x 8 to 15 x 15), Add
  group_norm_opset18  GroupNormalization-18, 3 groups of 2 channels, scale and bias per group
  group_norm_opset21  GroupNormalization-21, the same with scale and bias per channel
  cnn_opset22         opset 22's definitions (bfloat16 added, meaning unchanged): Conv-22, Elu-22
                      (alpha 0.5), MaxPool-22, GlobalAveragePool-22; HardSigmoid-22, Sin-22, Round-22
                      (halves to even) beside them

Beside each <name>.onnx: <name>_input_<i>.npy (the graph's inputs in order, float32) and
<name>_<output>.npy for each graph output (float64 for floating outputs; int64 or bool as the
model's). Models of opsets 7 to 11 pass onnx.checker.check_model(full_check=True); Debian 12's onnx
1.12 knows opsets to 17, so the models of opsets 18 to 22 are not checked. Seeds are fixed.

Usage: write_opset_models.py OUT_DIR
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
rng = np.random.default_rng(36)
f32 = np.float32


def floats(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(f32)


def const(name, array):
    """A Constant node holding `array`, as paddle2onnx writes weights."""
    return helper.make_node("Constant", [], [name], name=f"const_{name}", value=numpy_helper.from_array(array, name))


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def value(name, elem=TensorProto.FLOAT, shape=None):
    return helper.make_tensor_value_info(name, elem, shape)


def save(name, opset, nodes, inputs, outputs, initializers=(), check=True):
    """inputs: [(name, array)]; outputs: [(name, reference array, element type)]."""
    graph = helper.make_graph(nodes, name, [value(n, TensorProto.FLOAT, list(a.shape)) for n, a in inputs],
                              [value(n, elem, list(r.shape)) for n, r, elem in outputs], list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7 if opset < 18 else 8,
                              producer_name="write_opset_models.py")
    if check:
        onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    for i, (_, array) in enumerate(inputs):
        np.save(os.path.join(out, f"{name}_input_{i}.npy"), array)
    for n, reference, _ in outputs:
        np.save(os.path.join(out, f"{name}_{n}.npy"), reference)


# ---- NumPy float64 references, each operator as its definition in the model's opset says ----------

def d(a):
    return np.asarray(a, np.float64)


def conv2d(x, w, b, pad):
    """Conv with stride 1 and symmetric padding: y[n, f] = b[f] + sum_{c, i, j} w[f, c, i, j] x[n, c, .+i, .+j]."""
    x = np.pad(d(x), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    y = np.zeros((n, f, h - kh + 1, wd - kw + 1))
    for i in range(kh):
        for j in range(kw):
            y += np.einsum("nchw,fc->nfhw", x[:, :, i:i + y.shape[2], j:j + y.shape[3]], d(w[:, :, i, j]))
    return y + d(b)[None, :, None, None]


def softmax_rows(x2):
    e = np.exp(x2 - x2.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def coerced(x, axis):
    """The 2-D view opsets 1 to 12 give Softmax, LogSoftmax and Hardmax: [a_0..a_{k-1}, a_k..a_{n-1}]."""
    axis = axis % x.ndim
    return x.reshape(int(np.prod(x.shape[:axis])), -1)


# ---- cnn_opset9 --------------------------------------------------------------------------------------

x = floats(2, 3, 8, 8)
w1, b1 = floats(4, 3, 3, 3, scale=0.4), floats(4, scale=0.1)
scale, bias, mean, var = floats(4) * 0.5 + 1, floats(4, scale=0.1), floats(4, scale=0.2), np.abs(floats(4)) + 0.5
w2, b2 = floats(6, 4, 3, 3, scale=0.3), floats(6, scale=0.1)
fc_w, fc_b = floats(6, 5, scale=0.5), floats(5, scale=0.1)
eps = f32(1e-5)
nodes = [const("w1", w1), const("b1", b1), const("scale", scale), const("bias", bias), const("mean", mean),
         const("var", var), const("w2", w2), const("b2", b2), const("fc_w", fc_w), const("fc_b", fc_b),
         helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
         helper.make_node("BatchNormalization", ["c1", "scale", "bias", "mean", "var"], ["n1"], name="bn1",
                          epsilon=float(eps), momentum=0.9),
         helper.make_node("Clip", ["n1"], ["r1"], name="relu6", min=0.0, max=6.0),
         helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
         helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], name="conv2", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
         helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
         helper.make_node("Flatten", ["g"], ["flat"], name="flatten", axis=1),
         helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc"),
         helper.make_node("Softmax", ["logits"], ["probs"], name="softmax")]
c1 = conv2d(x, w1, b1, 1)
n1 = (c1 - d(mean)[None, :, None, None]) / np.sqrt(d(var) + d(eps))[None, :, None, None] \
    * d(scale)[None, :, None, None] + d(bias)[None, :, None, None]
r1 = np.minimum(np.maximum(n1, 0.0), 6.0)
p1 = r1.reshape(2, 4, 4, 2, 4, 2).max(axis=(3, 5))
r2 = np.maximum(conv2d(p1, w2, b2, 1), 0.0)
logits = r2.mean(axis=(2, 3)) @ d(fc_w) + d(fc_b)
save("cnn_opset9", 9, nodes, [("x", x)], [("probs", softmax_rows(logits), TensorProto.FLOAT)])

# ---- softmax_opset11 ---------------------------------------------------------------------------------

x = floats(2, 3, 4, scale=2.0)
nodes = [helper.make_node("Softmax", ["x"], ["soft"], name="softmax"),
         helper.make_node("LogSoftmax", ["x"], ["logsoft"], name="logsoftmax", axis=1),
         helper.make_node("Hardmax", ["x"], ["hard"], name="hardmax", axis=-2)]
x2 = coerced(d(x), 1)
soft = softmax_rows(x2)
hard = np.zeros_like(x2)
hard[np.arange(x2.shape[0]), x2.argmax(axis=1)] = 1
save("softmax_opset11", 11, nodes, [("x", x)],
     [("soft", soft.reshape(x.shape), TensorProto.FLOAT), ("logsoft", np.log(soft).reshape(x.shape), TensorProto.FLOAT),
      ("hard", hard.reshape(x.shape), TensorProto.FLOAT)])

# ---- shapes_opset10 ----------------------------------------------------------------------------------

x = floats(2, 3, 5)
nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["sliced"], name="slice"),
         helper.make_node("TopK", ["sliced", "k"], ["top", "indices"], name="topk", axis=2),
         helper.make_node("Clip", ["top"], ["clipped"], name="clip", min=-0.5, max=0.5),
         helper.make_node("Pad", ["clipped"], ["padded"], name="pad", pads=[0, 1, 0, 0, 0, 1], value=1.5),
         helper.make_node("Unsqueeze", ["padded"], ["expanded"], name="unsqueeze", axes=[0]),
         helper.make_node("Squeeze", ["expanded"], ["squeezed"], name="squeeze", axes=[0]),
         helper.make_node("ReduceMean", ["squeezed"], ["mean"], name="reduce_mean", axes=[2], keepdims=0),
         helper.make_node("Dropout", ["mean"], ["dropped", "mask"], name="dropout", ratio=0.3)]
initializers = [init("starts", np.array([1], np.int64)), init("ends", np.array([100], np.int64)),
                init("axes", np.array([2], np.int64)), init("k", np.array([2], np.int64))]
sliced = d(x)[:, :, 1:]
order = np.argsort(-sliced, axis=2, kind="stable")[:, :, :2]
top = np.take_along_axis(sliced, order, axis=2)
clipped = np.minimum(np.maximum(top, -0.5), 0.5)
padded = np.pad(clipped, ((0, 0), (1, 0), (0, 1)), constant_values=1.5)
mean = padded.mean(axis=2)
save("shapes_opset10", 10, nodes, [("x", x)],
     [("dropped", mean, TensorProto.FLOAT), ("mask", np.ones(mean.shape, bool), TensorProto.BOOL),
      ("indices", order.astype(np.int64), TensorProto.INT64)], initializers)

# ---- shapes_opset11 ----------------------------------------------------------------------------------

x = floats(2, 4, 6)
nodes = [helper.make_node("Clip", ["x", "low"], ["clipped"], name="clip"),
         helper.make_node("Pad", ["clipped", "pads"], ["padded"], name="pad", mode="reflect"),
         helper.make_node("Slice", ["padded", "starts", "ends", "axes"], ["sliced"], name="slice"),
         helper.make_node("Unsqueeze", ["sliced"], ["expanded"], name="unsqueeze", axes=[-1]),
         helper.make_node("Squeeze", ["expanded"], ["squeezed"], name="squeeze", axes=[-1]),
         helper.make_node("Split", ["squeezed"], ["first", "rest"], name="split", axis=1, split=[1, 3]),
         helper.make_node("ReduceSum", ["rest"], ["rest_sum"], name="reduce_sum", axes=[1], keepdims=1),
         helper.make_node("Add", ["first", "rest_sum"], ["sum"], name="add"),
         helper.make_node("ReduceL2", ["rest"], ["l2"], name="reduce_l2", axes=[-1], keepdims=0)]
initializers = [init("low", np.array(-0.25, f32)), init("pads", np.array([0, 0, 1, 0, 0, 2], np.int64)),
                init("starts", np.array([-5], np.int64)), init("ends", np.array([-1], np.int64)),
                init("axes", np.array([-1], np.int64))]
clipped = np.maximum(d(x), d(f32(-0.25)))
padded = np.pad(clipped, ((0, 0), (0, 0), (1, 2)), mode="reflect")
sliced = padded[:, :, -5:-1]
first, rest = sliced[:, :1], sliced[:, 1:]
save("shapes_opset11", 11, nodes, [("x", x)],
     [("sum", first + rest.sum(axis=1, keepdims=True), TensorProto.FLOAT),
      ("l2", np.sqrt((rest * rest).sum(axis=-1)), TensorProto.FLOAT)], initializers)

# ---- batchnorm_opset7 --------------------------------------------------------------------------------

x = floats(2, 3, 2, 2)
per_position = [floats(3, 2, 2) * 0.5 + 1, floats(3, 2, 2, scale=0.1), floats(3, 2, 2, scale=0.2),
                np.abs(floats(3, 2, 2)) + 0.5]
per_channel = [floats(3) * 0.5 + 1, floats(3, scale=0.1), floats(3, scale=0.2), np.abs(floats(3)) + 0.5]
names = ["scale", "bias", "mean", "var"]
initializers = [init(f"{n}_p", a) for n, a in zip(names, per_position)] + \
               [init(f"{n}_c", a) for n, a in zip(names, per_channel)]
nodes = [helper.make_node("BatchNormalization", ["x"] + [f"{n}_p" for n in names], ["y_position"], name="bn_position",
                          spatial=0, epsilon=float(eps)),
         helper.make_node("BatchNormalization", ["x"] + [f"{n}_c" for n in names], ["y_channel"], name="bn_channel",
                          epsilon=float(eps)),
         helper.make_node("Dropout", ["y_channel"], ["dropped", "mask"], name="dropout", ratio=0.5),
         helper.make_node("Softmax", ["x"], ["soft"], name="softmax")]
s, b, m, v = (d(a)[None] for a in per_position)
y_position = (d(x) - m) / np.sqrt(v + d(eps)) * s + b
s, b, m, v = (d(a)[None, :, None, None] for a in per_channel)
y_channel = (d(x) - m) / np.sqrt(v + d(eps)) * s + b
save("batchnorm_opset7", 7, nodes, [("x", x)],
     [("y_position", y_position, TensorProto.FLOAT), ("dropped", y_channel, TensorProto.FLOAT),
      ("mask", np.ones(x.shape), TensorProto.FLOAT),
      ("soft", softmax_rows(coerced(d(x), 1)).reshape(x.shape), TensorProto.FLOAT)], initializers)

# ---- opset18 -----------------------------------------------------------------------------------------

x = floats(2, 3, 7)
updates = floats(2, 3, 2)
indices = np.array([[[0, 0], [6, 2], [3, 3]], [[1, 5], [4, 4], [2, 0]]], np.int64)
nodes = [helper.make_node("ReduceMean", ["x", "axis2"], ["mean"], name="reduce_mean", keepdims=0),
         helper.make_node("ReduceSumSquare", ["x"], ["squares"], name="reduce_sum_square", keepdims=0),
         helper.make_node("Pad", ["x", "pads", "half", "last_axis"], ["padded"], name="pad"),
         helper.make_node("Split", ["x"], ["part0", "part1", "part2"], name="split", axis=2, num_outputs=3),
         helper.make_node("ScatterElements", ["x", "indices", "updates"], ["scattered"], name="scatter", axis=2,
                          reduction="max")]
initializers = [init("axis2", np.array([2], np.int64)), init("pads", np.array([1, 2], np.int64)),
                init("half", np.array(0.5, f32)), init("last_axis", np.array([-1], np.int64)),
                init("indices", indices), init("updates", updates)]
scattered = d(x).copy()
for n in range(2):
    for c in range(3):
        for j in range(2):
            k = indices[n, c, j]
            scattered[n, c, k] = max(scattered[n, c, k], float(updates[n, c, j]))
save("opset18", 18, nodes, [("x", x)],
     [("mean", d(x).mean(axis=2), TensorProto.FLOAT), ("squares", np.array((d(x) ** 2).sum()), TensorProto.FLOAT),
      ("padded", np.pad(d(x), ((0, 0), (0, 0), (1, 2)), constant_values=0.5), TensorProto.FLOAT),
      ("part2", d(x)[:, :, 6:], TensorProto.FLOAT), ("part1", d(x)[:, :, 3:6], TensorProto.FLOAT),
      ("scattered", scattered, TensorProto.FLOAT)], initializers, check=False)

# ---- activations_opset14 -----------------------------------------------------------------------------

x = floats(2, 5, 3, 3, scale=2.0)
nodes = [helper.make_node("Celu", ["x"], ["celu"], name="celu", alpha=2.0),
         helper.make_node("LRN", ["x"], ["lrn"], name="lrn", size=4, alpha=0.001, beta=0.6, bias=2.0),
         helper.make_node("Selu", ["x"], ["selu"], name="selu"),
         helper.make_node("HardSwish", ["x"], ["hardswish"], name="hardswish")]
xd = d(x)
celu = np.where(xd >= 0, xd, 2.0 * (np.exp(xd / 2.0) - 1))
# LRN: square_sum over channels c - floor((size - 1) / 2) .. c + ceil((size - 1) / 2): c - 1 .. c + 2.
square_sum = np.zeros_like(xd)
for c in range(5):
    low, high = max(0, c - 1), min(4, c + 2)
    square_sum[:, c] = (xd[:, low:high + 1] ** 2).sum(axis=1)
lrn = xd / (2.0 + d(f32(0.001)) / 4 * square_sum) ** d(f32(0.6))
alpha, gamma = d(f32(1.67326319217681884765625)), d(f32(1.05070102214813232421875))
selu = gamma * np.where(xd > 0, xd, alpha * (np.exp(xd) - 1))
# The specification's function: HardSigmoid(alpha = 1/6 as a float, beta = 0.5), then Mul.
hardswish = xd * np.maximum(0, np.minimum(1, d(f32(1 / 6)) * xd + 0.5))
save("activations_opset14", 14, nodes, [("x", x)],
     [("celu", celu, TensorProto.FLOAT), ("lrn", lrn, TensorProto.FLOAT), ("selu", selu, TensorProto.FLOAT),
      ("hardswish", hardswish, TensorProto.FLOAT)])

# ---- fpn_opset11 -------------------------------------------------------------------------------------
# A feature pyramid's top-down path as torch.onnx.export writes it at opset 11: F.interpolate(scale_factor=2,
# mode="nearest") is Resize with an empty roi, scales [1, 1, 2, 2], asymmetric coordinates and floor;
# F.interpolate(size=lateral.shape[-2:], mode="bilinear") reads the size through Shape, Slice and Concat
# and is Resize with empty roi and scales, sizes, and pytorch_half_pixel: here 8 x 8 to 15 x 15.

x = floats(1, 3, 15, 15)
w2, b2, w3, b3, w4, b4 = floats(4, 3, 3, 3, scale=0.3), floats(4), floats(4, 4, 3, 3, scale=0.3), floats(4), \
    floats(4, 4, 3, 3, scale=0.3), floats(4)
l2, l3, l4 = floats(4, 4, 1, 1, scale=0.5), floats(4, 4, 1, 1, scale=0.5), floats(4, 4, 1, 1, scale=0.5)
empty = np.zeros(0, f32)
nodes = [helper.make_node("Conv", ["x", "w2", "b2"], ["c2_"], name="conv2", pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c2_"], ["c2"], name="relu2"),
         helper.make_node("Conv", ["c2", "w3", "b3"], ["c3_"], name="conv3", pads=[1, 1, 1, 1], strides=[2, 2]),
         helper.make_node("Relu", ["c3_"], ["c3"], name="relu3"),
         helper.make_node("Conv", ["c3", "w4", "b4"], ["c4_"], name="conv4", pads=[1, 1, 1, 1], strides=[2, 2]),
         helper.make_node("Relu", ["c4_"], ["c4"], name="relu4"),
         helper.make_node("Conv", ["c4", "l4"], ["p4"], name="lateral4"),
         helper.make_node("Conv", ["c3", "l3"], ["lat3"], name="lateral3"),
         helper.make_node("Conv", ["c2", "l2"], ["lat2"], name="lateral2"),
         helper.make_node("Resize", ["p4", "roi", "scales2"], ["up4"], name="upsample4", mode="nearest",
                          coordinate_transformation_mode="asymmetric", nearest_mode="floor", cubic_coeff_a=-0.75),
         helper.make_node("Add", ["lat3", "up4"], ["p3"], name="merge3"),
         helper.make_node("Shape", ["lat2"], ["lat2_shape"], name="shape_lat2"),
         helper.make_node("Slice", ["lat2_shape", "from2", "to4", "axis0"], ["hw"], name="slice_hw"),
         helper.make_node("Shape", ["p3"], ["p3_shape"], name="shape_p3"),
         helper.make_node("Slice", ["p3_shape", "from0", "from2", "axis0"], ["nc"], name="slice_nc"),
         helper.make_node("Concat", ["nc", "hw"], ["size2"], name="concat_size", axis=0),
         helper.make_node("Resize", ["p3", "roi", "no_scales", "size2"], ["up3"], name="upsample3", mode="linear",
                          coordinate_transformation_mode="pytorch_half_pixel", nearest_mode="floor",
                          cubic_coeff_a=-0.75),
         helper.make_node("Add", ["lat2", "up3"], ["p2"], name="merge2")]
initializers = [init("w2", w2), init("b2", b2), init("w3", w3), init("b3", b3), init("w4", w4), init("b4", b4),
                init("l2", l2), init("l3", l3), init("l4", l4), init("roi", empty), init("no_scales", empty),
                init("scales2", np.array([1, 1, 2, 2], f32)), init("from0", np.array([0], np.int64)),
                init("from2", np.array([2], np.int64)), init("to4", np.array([4], np.int64)),
                init("axis0", np.array([0], np.int64))]


def relu(a):
    return np.maximum(a, 0)


def conv2d_stride2(x, w, b):
    """Stride 2 with padding 1: every other position of the stride-1 convolution."""
    return conv2d(x, w, b, 1)[:, :, ::2, ::2]


def bilinear_matrix(n_in, n_out):
    """PyTorch's bilinear with align_corners=False along one axis as an n_out x n_in matrix: source
    (i + 0.5) * n_in / n_out - 0.5, clamped at 0, between its floor and the next element (the last repeats)."""
    m = np.zeros((n_out, n_in))
    for i in range(n_out):
        src = max((i + 0.5) * n_in / n_out - 0.5, 0.0)
        i0 = int(np.floor(src))
        i1 = min(i0 + 1, n_in - 1)
        m[i, i0] += 1 - (src - i0)
        m[i, i1] += src - i0
    return m


c2 = relu(conv2d(x, w2, b2, 1))
c3 = relu(conv2d_stride2(c2, w3, b3))
c4 = relu(conv2d_stride2(c3, w4, b4))
p4 = conv2d(c4, l4, np.zeros(4), 0)
p3 = conv2d(c3, l3, np.zeros(4), 0) + p4.repeat(2, axis=2).repeat(2, axis=3)
m = bilinear_matrix(8, 15)
p2 = conv2d(c2, l2, np.zeros(4), 0) + np.einsum("ih,nchw,jw->ncij", m, p3, m)
save("fpn_opset11", 11, nodes, [("x", x)], [("p3", p3, TensorProto.FLOAT), ("p2", p2, TensorProto.FLOAT)], initializers)

# ---- group_norm_opset18, group_norm_opset21 -----------------------------------------------------------
# GroupNormalization: x of (2, 6, 3, 2) in 3 groups of 2 channels, each sample's group normalized over
# its channels and positions (biased variance, epsilon the float 1e-5); 18's scale and bias per group,
# 21's per channel.

x = floats(2, 6, 3, 2, scale=3.0)
grouped = d(x).reshape(2, 3, -1)
normalized = ((grouped - grouped.mean(axis=2, keepdims=True)) /
              np.sqrt(grouped.var(axis=2, keepdims=True) + d(f32(1e-5)))).reshape(2, 6, 3, 2)
for opset, count in ((18, 3), (21, 6)):
    scale, bias = floats(count), floats(count)
    per_channel = lambda a: np.repeat(d(a), 6 // count).reshape(1, 6, 1, 1)  # noqa: E731
    save(f"group_norm_opset{opset}", opset,
         [helper.make_node("GroupNormalization", ["x", "scale", "bias"], ["y"], name="group_norm", num_groups=3)],
         [("x", x)], [("y", normalized * per_channel(scale) + per_channel(bias), TensorProto.FLOAT)],
         [init("scale", scale), init("bias", bias)], check=False)

# ---- cnn_opset22 -----------------------------------------------------------------------------------------

x = floats(2, 3, 6, 6)
x[0, 0, 0, :4] = [0.5, 1.5, -2.5, 2.5]  # Round's halves: to even
w, b = floats(4, 3, 3, 3, scale=0.4), floats(4, scale=0.1)
nodes = [helper.make_node("Conv", ["x", "w", "b"], ["conv"], name="conv", pads=[1, 1, 1, 1]),
         helper.make_node("Elu", ["conv"], ["elu"], name="elu", alpha=0.5),
         helper.make_node("MaxPool", ["elu"], ["pool"], name="pool", kernel_shape=[2, 2], strides=[2, 2]),
         helper.make_node("GlobalAveragePool", ["pool"], ["gap"], name="gap"),
         helper.make_node("HardSigmoid", ["x"], ["hard"], name="hard", alpha=0.25, beta=0.4),
         helper.make_node("Sin", ["x"], ["sin"], name="sin"),
         helper.make_node("Round", ["x"], ["round"], name="round")]
conv = conv2d(x, w, b, 1)
elu = np.where(conv > 0, conv, 0.5 * np.expm1(conv))
pool = elu.reshape(2, 4, 3, 2, 3, 2).max(axis=(3, 5))
hard = np.clip(d(f32(0.25)) * d(x) + d(f32(0.4)), 0, 1)
save("cnn_opset22", 22, nodes, [("x", x)],
     [("gap", pool.mean(axis=(2, 3), keepdims=True), TensorProto.FLOAT), ("hard", hard, TensorProto.FLOAT),
      ("sin", np.sin(d(x)), TensorProto.FLOAT), ("round", np.round(d(x)), TensorProto.FLOAT)],
     [init("w", w), init("b", b)], check=False)
