#!/usr/bin/env python3
"""Writes an ONNX model with the operators and shapes of a CRNN text recogniser, as paddle2onnx and
torch.onnx write PP-OCR-style recognition networks at opset 17 (onnx.helper and NumPy only):

  a MobileNetV3-style backbone on a [1, 3, 48, W] image: a 3x3 stride-2 Conv, then inverted
  residual blocks (1x1 expansion Conv, 3x3 depthwise Conv with stride (2, 1) or 1, a
  squeeze-excitation branch GlobalAveragePool -> Conv -> Relu -> Conv -> HardSigmoid -> Mul, 1x1
  projection Conv, residual Add where the shapes agree), each Conv followed by
  BatchNormalization and HardSwish; a MaxPool to height 1; Reshape/Transpose to [1, T, C]
  (T = W / 4 time steps); a 2-layer transformer neck (width 256, 8 heads, FFN 512, gelu as
  torch.onnx writes it, LayerNormalization); a 6625-class MatMul head and Softmax.

crnn.onnx and crnn_input.npy (float32) go to OUT_DIR; 13 MB of weights at the default sizes.
scripts/onnx-bench.sh times it (issue 37); the tests run a small one (--image-width 32
--neck-width 16 --classes 50) through the engine, whose measures must equal those against a
whole truth kept aside. Its operators are checked against NumPy elsewhere. Seeds are fixed: the
same arguments write the same files.

Usage: write_crnn_model.py OUT_DIR [--image-width W] [--neck-width D] [--classes N]
"""
import argparse
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
# (expanded channels, output channels, depthwise stride, squeeze-excitation) per block, as
# MobileNetV3-small's recognition variant strides height only.
BLOCKS = [(32, 16, (2, 1), True), (72, 24, (2, 1), False), (88, 24, (1, 1), False), (96, 40, (2, 1), True),
          (240, 40, (1, 1), True), (120, 48, (1, 1), True), (144, 48, (1, 1), True), (288, 96, (2, 1), True),
          (576, 96, (1, 1), True)]


class Graph:
    def __init__(self, rng):
        self.rng, self.nodes, self.initializers, self.count = rng, [], [], 0

    def weight(self, array):
        name = f"w{len(self.initializers)}"
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array, dtype=np.float32), name))
        return name

    def uniform(self, shape, bound):
        return self.weight(self.rng.uniform(-bound, bound, size=shape))

    def add(self, op, inputs, **attributes):
        self.count += 1
        output = f"{op}_{self.count}"
        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attributes))
        return output

    def conv_bn(self, x, c_in, c_out, kernel, stride=(1, 1), group=1, activation="HardSwish"):
        fan_in = c_in // group * kernel * kernel
        w = self.uniform((c_out, c_in // group, kernel, kernel), 1 / math.sqrt(fan_in))
        pad = kernel // 2
        y = self.add("Conv", [x, w], kernel_shape=[kernel, kernel], strides=list(stride), pads=[pad] * 4,
                     group=group)
        scale = self.weight(self.rng.uniform(0.5, 1.5, c_out))
        bias = self.uniform((c_out,), 0.2)
        mean = self.uniform((c_out,), 0.3)
        var = self.weight(self.rng.uniform(0.2, 2, c_out))
        y = self.add("BatchNormalization", [y, scale, bias, mean, var], epsilon=1e-5)
        return self.add(activation, [y]) if activation else y

    def squeeze_excite(self, x, c):
        s = self.add("GlobalAveragePool", [x])
        s = self.add("Conv", [s, self.uniform((c // 4, c, 1, 1), 1 / math.sqrt(c)), self.uniform((c // 4,), 0.1)],
                     kernel_shape=[1, 1])
        s = self.add("Relu", [s])
        s = self.add("Conv", [s, self.uniform((c, c // 4, 1, 1), 1 / math.sqrt(c // 4)), self.uniform((c,), 0.1)],
                     kernel_shape=[1, 1])
        s = self.add("HardSigmoid", [s], alpha=0.2, beta=0.5)
        return self.add("Mul", [x, s])

    def linear(self, x, d_in, d_out):
        y = self.add("MatMul", [x, self.uniform((d_in, d_out), 1 / math.sqrt(d_in))])
        return self.add("Add", [y, self.uniform((d_out,), 1 / math.sqrt(d_in))])

    def layer_norm(self, x, d):
        return self.add("LayerNormalization", [x, self.weight(self.rng.uniform(0.8, 1.2, d)), self.uniform((d,), 0.1)],
                        axis=-1, epsilon=1e-5)

    def encoder_layer(self, x, steps, d, heads, ffn):
        def split(t):
            t = self.add("Reshape", [t, self.weight_int([1, steps, heads, d // heads])])
            return self.add("Transpose", [t], perm=[0, 2, 1, 3])

        q, k, v = (split(self.linear(x, d, d)) for _ in range(3))
        scores = self.add("MatMul", [q, self.add("Transpose", [k], perm=[0, 1, 3, 2])])
        scores = self.add("Div", [scores, self.weight(np.float32(math.sqrt(d // heads)))])
        attention = self.add("MatMul", [self.add("Softmax", [scores], axis=-1), v])
        attention = self.add("Transpose", [attention], perm=[0, 2, 1, 3])
        attention = self.add("Reshape", [attention, self.weight_int([1, steps, d])])
        x = self.layer_norm(self.add("Add", [x, self.linear(attention, d, d)]), d)
        h = self.linear(x, d, ffn)
        gelu = self.add("Erf", [self.add("Div", [h, self.weight(np.float32(math.sqrt(2)))])])
        gelu = self.add("Mul", [self.add("Mul", [h, self.add("Add", [gelu, self.weight(np.float32(1))])]),
                                self.weight(np.float32(0.5))])
        return self.layer_norm(self.add("Add", [x, self.linear(gelu, ffn, d)]), d)

    def weight_int(self, values):
        name = f"w{len(self.initializers)}"
        self.initializers.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
        return name


def crnn_model(rng, image_width, d, classes):
    g = Graph(rng)
    x = g.conv_bn("image", 3, 16, 3, stride=(2, 2))
    channels = 16
    for expanded, out, stride, excite in BLOCKS:
        y = g.conv_bn(x, channels, expanded, 1)
        y = g.conv_bn(y, expanded, expanded, 3, stride=stride, group=expanded)
        if excite:
            y = g.squeeze_excite(y, expanded)
        y = g.conv_bn(y, expanded, out, 1, activation=None)
        x = g.add("Add", [x, y]) if (out == channels and stride == (1, 1)) else y
        channels = out
    x = g.conv_bn(x, channels, d, 1)
    x = g.add("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])  # height 48 -> 2 -> 1: [1, d, 1, T]
    steps = image_width // 4
    x = g.add("Reshape", [x, g.weight_int([1, d, steps])])
    x = g.add("Transpose", [x], perm=[0, 2, 1])
    for _ in range(2):
        x = g.encoder_layer(x, steps, d, 8, 2 * d)
    logits = g.linear(x, d, classes)
    probabilities = g.add("Softmax", [logits], axis=-1)
    graph = helper.make_graph(g.nodes, "crnn", [helper.make_tensor_value_info("image", TensorProto.FLOAT,
                                                                              [1, 3, 48, image_width])],
                              [helper.make_tensor_value_info(probabilities, TensorProto.FLOAT,
                                                             [1, steps, classes])], g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=8,
                              producer_name="write_crnn_model.py")
    onnx.checker.check_model(model, full_check=True)
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--image-width", type=int, default=128)
    parser.add_argument("--neck-width", type=int, default=256)
    parser.add_argument("--classes", type=int, default=6625)
    a = parser.parse_args()
    if a.image_width % 4 or a.neck_width % 8:
        parser.error("--image-width must be a multiple of 4 and --neck-width of 8")
    rng = np.random.default_rng(37)
    model = crnn_model(rng, a.image_width, a.neck_width, a.classes)
    os.makedirs(a.folder, exist_ok=True)
    onnx.save(model, os.path.join(a.folder, "crnn.onnx"))
    image = rng.uniform(-1, 1, (1, 3, 48, a.image_width)).astype(np.float32)
    np.save(os.path.join(a.folder, "crnn_input.npy"), image)
    weights = sum(numpy_helper.to_array(t).nbytes for t in model.graph.initializer)
    print(f"crnn.onnx: {len(model.graph.node)} nodes, {weights / 1e6:.1f} MB of weights, {a.image_width // 4} steps")


if __name__ == "__main__":
    main()
