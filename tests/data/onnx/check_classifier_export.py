#!/usr/bin/env python3
"""Checks the classifiers train-mlp exported in workload_train_mlp_export_test.cpp, independently of
FloatScope: ONNX's checker (full_check) accepts each model; the graph is what torch.onnx.export
writes for nn.Linear layers at opset 17 (Gemm with transB=1, gelu as Div, Erf, Add, Mul, Mul); and
evaluating it here, node by node in float64 NumPy on the test images scaled as the model's
doc_string says (pixels / 255, as float32), classifies them as well as train-mlp reported under
fp32. FloatScope computed in binary32, so an image whose two largest logits lie within rounding of
each other may go either way: the counts of correct images may differ by at most the number of
such near ties.

Usage: check_classifier_export.py FOLDER   (FOLDER: <name>.fp32.onnx, <name>.accuracy,
                                            test_pixels.u8, test_labels.u8)
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

PIXELS = 784
MODELS = ("relu", "gelu", "tanh")
erf = np.vectorize(math.erf)


def attributes(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def gemm(a, b, c, alpha=1.0, beta=1.0, transA=0, transB=0):
    a = a.T if transA else a
    b = b.T if transB else b
    return alpha * (a @ b) + beta * c


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


OPERATORS = {
    "Gemm": gemm,
    "Relu": lambda x: np.maximum(x, 0),
    "Tanh": np.tanh,
    "Div": lambda a, b: a / b,
    "Mul": lambda a, b: a * b,
    "Add": lambda a, b: a + b,
    "Erf": erf,
    "Softmax": softmax,
}


def evaluate(graph, feeds):
    """The graph's outputs in float64, every node by the ONNX operator definitions above."""
    values = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in graph.initializer}
    values.update(feeds)
    for node in graph.node:
        (output,) = node.output
        values[output] = OPERATORS[node.op_type](*(values[i] for i in node.input), **attributes(node))
    return {o.name: values[o.name] for o in graph.output}


def check_structure(name, model):
    onnx.checker.check_model(model, full_check=True)
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 17)]
    assert "divided by 255" in model.doc_string, model.doc_string
    g = model.graph
    (image,) = g.input
    dims = [d.dim_param or d.dim_value for d in image.type.tensor_type.shape.dim]
    assert image.name == "image" and dims == ["batch", PIXELS], (image.name, dims)
    assert image.type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    assert [o.name for o in g.output] == ["logits", "probabilities"]
    for t in g.initializer:
        assert t.data_type == onnx.TensorProto.FLOAT, t.name
    ops = [n.op_type for n in g.node]
    activation = {"relu": ["Relu"], "tanh": ["Tanh"], "gelu": ["Div", "Erf", "Add", "Mul", "Mul"]}[name]
    gemms = ops.count("Gemm")
    assert ops == (["Gemm"] + activation) * (gemms - 1) + ["Gemm", "Softmax"], ops
    inputs = PIXELS  # each weight stored out x in, as torch.nn.Linear holds it
    for n in g.node:
        if n.op_type == "Gemm":
            assert attributes(n) == {"transB": 1}, attributes(n)
            weight = next(t for t in g.initializer if t.name == n.input[1])
            assert weight.dims[1] == inputs, (n.name, weight.dims)
            inputs = weight.dims[0]
    assert inputs == 10
    if name == "gelu":
        constants = {t.name: float(numpy_helper.to_array(t)) for t in g.initializer if t.name.startswith("gelu.")}
        assert constants == {"gelu.sqrt2": float(np.float32(math.sqrt(2))), "gelu.one": 1.0, "gelu.half": 0.5}


def main(folder):
    pixels = np.fromfile(os.path.join(folder, "test_pixels.u8"), dtype=np.uint8).reshape(-1, PIXELS)
    labels = np.fromfile(os.path.join(folder, "test_labels.u8"), dtype=np.uint8)
    assert len(labels) == len(pixels) > 0
    image = (pixels.astype(np.float32) / np.float32(255)).astype(np.float64)
    for name in MODELS:
        model = onnx.load(os.path.join(folder, f"{name}.fp32.onnx"))
        check_structure(name, model)
        with open(os.path.join(folder, f"{name}.accuracy")) as f:
            reported = float(f.read())
        out = evaluate(model.graph, {"image": image})
        logits, probabilities = out["logits"], out["probabilities"]
        assert np.allclose(probabilities.sum(axis=1), 1, rtol=0, atol=1e-12)
        assert np.array_equal(probabilities.argmax(axis=1), logits.argmax(axis=1))
        correct = int((logits.argmax(axis=1) == labels).sum())
        top2 = np.sort(logits, axis=1)[:, -2:]
        near_ties = int((top2[:, 1] - top2[:, 0] <= 1e-5 * (1 + np.abs(top2[:, 1]))).sum())
        reported_correct = round(reported * len(labels))
        print(f"{name}: {correct}/{len(labels)} correct here, {reported_correct} as train-mlp reported, "
              f"{near_ties} near ties")
        assert abs(correct - reported_correct) <= near_ties, (name, correct, reported_correct, near_ties)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
