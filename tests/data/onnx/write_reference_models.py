#!/usr/bin/env python3
"""Writes ONNX models shaped as PyTorch's exporter writes them at opset 17, with inputs and float64
reference outputs, independently of FloatScope (onnx.helper and NumPy only):

  cnn.onnx                 Conv 3x3 pad 1 -> BatchNormalization -> Relu -> MaxPool 2 -> Conv 3x3 pad 1
                           -> Relu -> GlobalAveragePool -> Flatten -> Gemm(transB=1): logits, for
                           [batch, 1, 28, 28] images. torch.onnx.export in eval mode may fold the
                           BatchNormalization into the Conv before it; it is kept here so that a
                           reader meets the operator.
  encoder.onnx             one nn.TransformerEncoderLayer (norm_first=False, activation gelu,
                           batch_first) on x [batch, sequence, width]: Q, K, V as MatMul + Add,
                           Reshape/Transpose into heads, MatMul Q K^T, Div by sqrt(head width),
                           Softmax(axis=-1), MatMul V, Transpose/Reshape back, the output
                           projection, residual Add, LayerNormalization (opset 17); the FFN as
                           MatMul/Add, gelu as torch.onnx writes it (Div, Erf, Add, Mul, Mul),
                           MatMul/Add, residual Add, LayerNormalization.
  encoder_decomposed.onnx  the same weights with each LayerNormalization decomposed as older
                           exporters write it: ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt,
                           Div, Mul, Add.

Beside each <model>.onnx: <model>_input.npy (float32, batch 2) and <model>_reference.npy, the
output computed in float64 by the straightforward NumPy implementation below from the model's
float32 weights and constants (the divisors sqrt 2 and sqrt(head width), the epsilons, as the
model stores them). Every model passes onnx.checker.check_model(full_check=True); a node-by-node
NumPy evaluation of each written graph (ONNX's operator definitions, written separately from the
references) must reproduce its reference, and the two encoders' references must agree within 1e-12.
Seeds are fixed: the same arguments write the same files.

Usage: write_reference_models.py OUT_DIR [--small]
       [--sequence N] [--width N] [--heads N] [--ffn N] [--channels C1,C2]
  full size (the benchmark): sequence 128, width 256, 4 heads, FFN 1024, CNN channels 16,32;
  --small (tests): sequence 8, width 16, 2 heads, FFN 32, CNN channels 4,8; the other options
  override either.
"""
import argparse
import math
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
BATCH = 2
IMAGE = 28
CLASSES = 10
LAYER_NORM_EPSILON = np.float32(1e-5)  # nn.LayerNorm's default; the attribute is a float32
BATCH_NORM_EPSILON = np.float32(1e-5)  # nn.BatchNorm2d's default
SQRT2 = np.float32(math.sqrt(2))  # torch.onnx's gelu divides by sqrt 2 as a float32 constant
erf = np.vectorize(math.erf, otypes=[np.float64])


# ---- building graphs --------------------------------------------------------------------------

class Graph:
    """Nodes named as torch.onnx names them: /<scope>/<Op>, a repeat /<scope>/<Op>_1, the output
    <node name>_output_0."""

    def __init__(self):
        self.nodes, self.initializers, self.seen = [], [], {}

    def weight(self, name, array):
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def add(self, scope, op, inputs, output=None, **attributes):
        base = f"{scope}/{op}"
        count = self.seen.get(base, 0)
        self.seen[base] = count + 1
        name = base if count == 0 else f"{base}_{count}"
        output = output or f"{name}_output_0"
        self.nodes.append(helper.make_node(op, inputs, [output], name=name, **attributes))
        return output

    def model(self, name, inputs, outputs, doc):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=8,
                                  producer_name="write_reference_models.py", doc_string=doc)
        onnx.checker.check_model(model, full_check=True)
        return model


def uniform(rng, shape, bound):
    return rng.uniform(-bound, bound, size=shape).astype(np.float32)


# ---- the CNN ----------------------------------------------------------------------------------

def cnn_weights(rng, c1, c2):
    """Initialised as torch.nn.Conv2d and Linear are, U(+-1/sqrt(fan_in)); batch-norm statistics
    of a trained model (not the identity, so that they matter)."""
    return {
        "conv1.weight": uniform(rng, (c1, 1, 3, 3), 1 / 3),
        "conv1.bias": uniform(rng, (c1,), 1 / 3),
        "bn1.weight": rng.uniform(0.5, 1.5, c1).astype(np.float32),
        "bn1.bias": uniform(rng, (c1,), 0.2),
        "bn1.running_mean": uniform(rng, (c1,), 0.3),
        "bn1.running_var": rng.uniform(0.2, 2, c1).astype(np.float32),
        "conv2.weight": uniform(rng, (c2, c1, 3, 3), 1 / math.sqrt(9 * c1)),
        "conv2.bias": uniform(rng, (c2,), 1 / math.sqrt(9 * c1)),
        "fc.weight": uniform(rng, (CLASSES, c2), 1 / math.sqrt(c2)),
        "fc.bias": uniform(rng, (CLASSES,), 1 / math.sqrt(c2)),
    }


def cnn_model(w):
    g = Graph()
    for name, array in w.items():
        g.weight(name, array)
    conv = dict(dilations=[1, 1], group=1, kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])
    x = g.add("/conv1", "Conv", ["input", "conv1.weight", "conv1.bias"], **conv)
    x = g.add("/bn1", "BatchNormalization",
              [x, "bn1.weight", "bn1.bias", "bn1.running_mean", "bn1.running_var"],
              epsilon=float(BATCH_NORM_EPSILON), momentum=0.9)
    x = g.add("/relu1", "Relu", [x])
    x = g.add("/pool", "MaxPool", [x], ceil_mode=0, kernel_shape=[2, 2], pads=[0, 0, 0, 0], strides=[2, 2])
    x = g.add("/conv2", "Conv", [x, "conv2.weight", "conv2.bias"], **conv)
    x = g.add("/relu2", "Relu", [x])
    x = g.add("/gap", "GlobalAveragePool", [x])
    x = g.add("", "Flatten", [x], axis=1)
    g.add("/fc", "Gemm", [x, "fc.weight", "fc.bias"], output="logits", alpha=1.0, beta=1.0, transB=1)
    return g.model("cnn",
                   [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 1, IMAGE, IMAGE])],
                   [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", CLASSES])],
                   "a small CNN for 1x28x28 images, as torch.onnx.export writes it at opset 17")


def cnn_reference(w, image):
    """The CNN in float64: convolutions as sums over the nine kernel offsets of shifted images."""
    f = {k: v.astype(np.float64) for k, v in w.items()}

    def conv3x3(x, weight, bias):
        padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        h, wd = x.shape[2], x.shape[3]
        out = np.zeros((x.shape[0], weight.shape[0], h, wd)) + bias[None, :, None, None]
        for dy in range(3):
            for dx in range(3):
                out += np.einsum("bchw,oc->bohw", padded[:, :, dy:dy + h, dx:dx + wd], weight[:, :, dy, dx])
        return out

    x = conv3x3(image.astype(np.float64), f["conv1.weight"], f["conv1.bias"])
    scale = f["bn1.weight"] / np.sqrt(f["bn1.running_var"] + float(BATCH_NORM_EPSILON))
    x = (x - f["bn1.running_mean"][None, :, None, None]) * scale[None, :, None, None] + f["bn1.bias"][None, :, None, None]
    x = np.maximum(x, 0)
    b, c, h, wd = x.shape
    x = x.reshape(b, c, h // 2, 2, wd // 2, 2).max(axis=(3, 5))
    x = np.maximum(conv3x3(x, f["conv2.weight"], f["conv2.bias"]), 0)
    x = x.mean(axis=(2, 3))
    return x @ f["fc.weight"].T + f["fc.bias"]


# ---- the transformer encoder layer ------------------------------------------------------------

def encoder_weights(rng, width, ffn):
    """Linear weights stored in x out (the transposed torch.nn.Linear.weight, as the exporter's
    MatMul initializers hold them), U(+-1/sqrt(fan_in)); LayerNorm scales near 1, biases near 0."""
    w = {}
    for name in ("q_proj", "k_proj", "v_proj", "out_proj"):
        w[f"self_attn.{name}.weight"] = uniform(rng, (width, width), 1 / math.sqrt(width))
        w[f"self_attn.{name}.bias"] = uniform(rng, (width,), 1 / math.sqrt(width))
    w["linear1.weight"] = uniform(rng, (width, ffn), 1 / math.sqrt(width))
    w["linear1.bias"] = uniform(rng, (ffn,), 1 / math.sqrt(width))
    w["linear2.weight"] = uniform(rng, (ffn, width), 1 / math.sqrt(ffn))
    w["linear2.bias"] = uniform(rng, (width,), 1 / math.sqrt(ffn))
    for norm in ("norm1", "norm2"):
        w[f"{norm}.weight"] = rng.uniform(0.8, 1.2, width).astype(np.float32)
        w[f"{norm}.bias"] = uniform(rng, (width,), 0.1)
    return w


def encoder_model(w, sequence, width, heads, decomposed):
    g = Graph()
    for name, array in w.items():
        g.weight(name, array)
    head = width // heads
    layer = "/encoder/layer.0"
    attn = f"{layer}/self_attn"
    g.weight("heads_shape", np.array([0, 0, heads, head], dtype=np.int64))  # 0: keep batch and sequence
    g.weight("width_shape", np.array([0, 0, width], dtype=np.int64))
    g.weight("attention_divisor", np.array(math.sqrt(head), dtype=np.float32))
    g.weight("gelu_divisor", np.array(SQRT2, dtype=np.float32))
    g.weight("one", np.array(1, dtype=np.float32))
    g.weight("half", np.array(0.5, dtype=np.float32))
    if decomposed:
        g.weight("two", np.array(2, dtype=np.float32))
        g.weight("epsilon", np.array(LAYER_NORM_EPSILON, dtype=np.float32))

    def linear(scope, x, name):
        return g.add(scope, "Add", [g.add(scope, "MatMul", [x, f"{name}.weight"]), f"{name}.bias"])

    def layer_norm(scope, x, name, output=None):
        if not decomposed:
            return g.add(scope, "LayerNormalization", [x, f"{name}.weight", f"{name}.bias"], output=output,
                         axis=-1, epsilon=float(LAYER_NORM_EPSILON))
        mean = g.add(scope, "ReduceMean", [x], axes=[-1], keepdims=1)
        centred = g.add(scope, "Sub", [x, mean])
        variance = g.add(scope, "ReduceMean", [g.add(scope, "Pow", [centred, "two"])], axes=[-1], keepdims=1)
        std = g.add(scope, "Sqrt", [g.add(scope, "Add", [variance, "epsilon"])])
        scaled = g.add(scope, "Mul", [g.add(scope, "Div", [centred, std]), f"{name}.weight"])
        return g.add(scope, "Add", [scaled, f"{name}.bias"], output=output)

    def split_heads(x):
        return g.add(attn, "Transpose", [g.add(attn, "Reshape", [x, "heads_shape"])], perm=[0, 2, 1, 3])

    q = split_heads(linear(f"{attn}/q_proj", "x", "self_attn.q_proj"))
    k = g.add(attn, "Transpose", [g.add(attn, "Reshape", [linear(f"{attn}/k_proj", "x", "self_attn.k_proj"),
                                                          "heads_shape"])], perm=[0, 2, 3, 1])
    v = split_heads(linear(f"{attn}/v_proj", "x", "self_attn.v_proj"))
    scores = g.add(attn, "Div", [g.add(attn, "MatMul", [q, k]), "attention_divisor"])
    context = g.add(attn, "MatMul", [g.add(attn, "Softmax", [scores], axis=-1), v])
    context = g.add(attn, "Reshape", [g.add(attn, "Transpose", [context], perm=[0, 2, 1, 3]), "width_shape"])
    attended = linear(f"{attn}/out_proj", context, "self_attn.out_proj")
    x1 = layer_norm(f"{layer}/norm1", g.add(layer, "Add", ["x", attended]), "norm1")
    h = linear(f"{layer}/linear1", x1, "linear1")
    act = f"{layer}/activation"
    erf_plus_one = g.add(act, "Add", [g.add(act, "Erf", [g.add(act, "Div", [h, "gelu_divisor"])]), "one"])
    h = g.add(act, "Mul", [g.add(act, "Mul", [h, erf_plus_one]), "half"])
    h = linear(f"{layer}/linear2", h, "linear2")
    layer_norm(f"{layer}/norm2", g.add(layer, "Add", [x1, h]), "norm2", output="y")
    shape = ["batch", sequence, width]
    kind = "LayerNorm decomposed as older exporters write it" if decomposed else "LayerNormalization (opset 17)"
    return g.model("encoder", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                   [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
                   f"one nn.TransformerEncoderLayer ({heads} heads, width {width}, FFN {w['linear1.bias'].size}, "
                   f"gelu, post-norm) as torch.onnx.export writes it at opset 17; {kind}")


def encoder_reference(w, x, heads, layer_norm):
    """The encoder layer in float64, the attention per head; `layer_norm(x, scale, bias)`."""
    f = {k: v.astype(np.float64) for k, v in w.items()}
    x = x.astype(np.float64)
    batch, sequence, width = x.shape
    head = width // heads
    divisor = float(np.float32(math.sqrt(head)))

    def project(name, a):
        return a @ f[f"{name}.weight"] + f[f"{name}.bias"]

    q, k, v = (project(f"self_attn.{n}", x) for n in ("q_proj", "k_proj", "v_proj"))
    context = np.zeros_like(x)
    for b in range(batch):
        for hd in range(heads):
            cols = slice(hd * head, (hd + 1) * head)
            scores = q[b, :, cols] @ k[b, :, cols].T / divisor
            weights = np.exp(scores - scores.max(axis=1, keepdims=True))
            weights /= weights.sum(axis=1, keepdims=True)
            context[b, :, cols] = weights @ v[b, :, cols]
    x1 = layer_norm(x + project("self_attn.out_proj", context), f["norm1.weight"], f["norm1.bias"])
    h = project("linear1", x1)
    h = h * 0.5 * (1 + erf(h / float(SQRT2)))
    return layer_norm(x1 + project("linear2", h), f["norm2.weight"], f["norm2.bias"])


def fused_layer_norm(x, scale, bias):
    """LayerNormalization's definition: (x - mean) / sqrt(variance + epsilon), population variance."""
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + float(LAYER_NORM_EPSILON)) * scale + bias


def decomposed_layer_norm(x, scale, bias):
    """The decomposed graph's steps: ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, Mul, Add."""
    centred = x - x.mean(axis=-1, keepdims=True)
    std = np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + float(LAYER_NORM_EPSILON))
    return centred / std * scale + bias


# ---- evaluating a written graph (ONNX's operator definitions) ---------------------------------

def attributes(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def op_conv(x, w, b, dilations, group, kernel_shape, pads, strides):
    assert dilations == [1, 1] and group == 1 and strides == [1, 1]
    (kh, kw), (top, left, bottom, right) = kernel_shape, pads
    x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    oh, ow = x.shape[2] - kh + 1, x.shape[3] - kw + 1
    columns = np.stack([x[:, :, i:i + oh, j:j + ow] for i in range(kh) for j in range(kw)], axis=2)  # b c k h w
    return np.einsum("bckhw,ock->bohw", columns, w.reshape(w.shape[0], w.shape[1], -1)) + b[None, :, None, None]


def op_max_pool(x, ceil_mode, kernel_shape, pads, strides):
    assert ceil_mode == 0 and pads == [0, 0, 0, 0] and kernel_shape == strides
    kh, kw = kernel_shape
    oh, ow = x.shape[2] // kh, x.shape[3] // kw
    windows = [x[:, :, i:i + oh * kh:kh, j:j + ow * kw:kw] for i in range(kh) for j in range(kw)]
    return np.max(np.stack(windows), axis=0)


def op_batch_norm(x, scale, bias, mean, var, epsilon, momentum):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + epsilon) * scale.reshape(shape) + bias.reshape(shape)


def op_reshape(x, shape):
    shape = [x.shape[i] if s == 0 else int(s) for i, s in enumerate(shape)]
    return x.reshape(shape)


def op_softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def op_layer_norm(x, scale, bias, axis, epsilon):
    assert axis == -1
    d = x - x.mean(axis=-1, keepdims=True)
    return d / np.sqrt((d * d).mean(axis=-1, keepdims=True) + epsilon) * scale + bias


OPERATORS = {
    "Conv": op_conv,
    "BatchNormalization": op_batch_norm,
    "Relu": lambda x: np.maximum(x, 0),
    "MaxPool": op_max_pool,
    "GlobalAveragePool": lambda x: x.mean(axis=(2, 3), keepdims=True),
    "Flatten": lambda x, axis: x.reshape(int(np.prod(x.shape[:axis])), -1),
    "Gemm": lambda a, b, c, alpha, beta, transB: alpha * (a @ (b.T if transB else b)) + beta * c,
    "MatMul": np.matmul,
    "Add": np.add,
    "Sub": np.subtract,
    "Mul": np.multiply,
    "Div": np.divide,
    "Pow": np.power,
    "Sqrt": np.sqrt,
    "Erf": erf,
    "Reshape": op_reshape,
    "Transpose": lambda x, perm: x.transpose(perm),
    "Softmax": op_softmax,
    "ReduceMean": lambda x, axes, keepdims: x.mean(axis=tuple(axes), keepdims=bool(keepdims)),
    "LayerNormalization": op_layer_norm,
}


def evaluate(model, feeds):
    values = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    values = {k: (v.astype(np.float64) if v.dtype == np.float32 else v) for k, v in values.items()}
    values.update({k: v.astype(np.float64) for k, v in feeds.items()})
    for node in model.graph.node:
        (output,) = node.output
        values[output] = OPERATORS[node.op_type](*(values[i] for i in node.input), **attributes(node))
    (out,) = model.graph.output
    return values[out.name]


# ---- writing ----------------------------------------------------------------------------------

def save(folder, name, model, feed, reference):
    onnx.save(model, os.path.join(folder, f"{name}.onnx"))
    np.save(os.path.join(folder, f"{name}_input.npy"), feed)
    np.save(os.path.join(folder, f"{name}_reference.npy"), reference)
    graph_output = evaluate(model, {model.graph.input[0].name: feed})
    difference = np.max(np.abs(graph_output - reference))
    assert graph_output.shape == reference.shape and difference <= 1e-12 * max(1, np.max(np.abs(reference))), (
        name, difference)
    print(f"{name}.onnx: {len(model.graph.node)} nodes, output {reference.shape}; the graph evaluated in NumPy "
          f"is within {difference:.1e} of the reference")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--small", action="store_true", help="the test sizes")
    parser.add_argument("--sequence", type=int)
    parser.add_argument("--width", type=int)
    parser.add_argument("--heads", type=int)
    parser.add_argument("--ffn", type=int)
    parser.add_argument("--channels", help="C1,C2 of the CNN's convolutions")
    a = parser.parse_args()
    sizes = dict(sequence=8, width=16, heads=2, ffn=32, channels="4,8") if a.small else dict(
        sequence=128, width=256, heads=4, ffn=1024, channels="16,32")
    for key in sizes:
        if getattr(a, key) is not None:
            sizes[key] = getattr(a, key)
    c1, c2 = (int(c) for c in str(sizes["channels"]).split(","))
    sequence, width, heads, ffn = sizes["sequence"], sizes["width"], sizes["heads"], sizes["ffn"]
    if width % heads:
        parser.error(f"--width {width} is not a multiple of --heads {heads}")
    os.makedirs(a.folder, exist_ok=True)
    rng = np.random.default_rng(17)

    cnn = cnn_weights(rng, c1, c2)
    image = rng.uniform(0, 1, (BATCH, 1, IMAGE, IMAGE)).astype(np.float32)
    save(a.folder, "cnn", cnn_model(cnn), image, cnn_reference(cnn, image))

    encoder = encoder_weights(rng, width, ffn)
    x = rng.standard_normal((BATCH, sequence, width)).astype(np.float32)
    fused = encoder_reference(encoder, x, heads, fused_layer_norm)
    decomposed = encoder_reference(encoder, x, heads, decomposed_layer_norm)
    assert np.max(np.abs(fused - decomposed)) <= 1e-12, np.max(np.abs(fused - decomposed))
    save(a.folder, "encoder", encoder_model(encoder, sequence, width, heads, False), x, fused)
    save(a.folder, "encoder_decomposed", encoder_model(encoder, sequence, width, heads, True), x, decomposed)


if __name__ == "__main__":
    main()
