#!/usr/bin/env python3
"""Reads back the model tests/emulation/workloads/onnx/model_writer_test.cpp writes (every_kind.onnx)
with ONNX's own Python package: the checker (full_check: schemas and shape inference) must accept
it, and its fields, initializers (decoded by onnx.numpy_helper) and attributes must be those the
test put in, value for value.

Usage: check_written_model.py FOLDER
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper


def main(folder):
    path = os.path.join(folder, "every_kind.onnx")
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)

    assert model.ir_version == 8, model.ir_version
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 17)], model.opset_import
    assert model.producer_name == "floatscope"
    assert model.doc_string == "every attribute kind and element type"
    g = model.graph
    assert g.name == "every_kind"

    def dims(value_info):
        shape = value_info.type.tensor_type.shape
        return [d.dim_param if d.HasField("dim_param") else (d.dim_value if d.HasField("dim_value") else None)
                for d in shape.dim]

    float_type = onnx.TensorProto.FLOAT
    assert [(v.name, v.type.tensor_type.elem_type, dims(v)) for v in g.input] == [("x", float_type, ["batch", 3])]
    assert [(v.name, v.type.tensor_type.elem_type, dims(v)) for v in g.output] == [
        ("y", float_type, ["batch", 2]), ("padded", float_type, [2, None]), ("scaled", float_type, ["batch", 2])]

    expected = {
        "w": np.array([[1, -2, 0.5], [0.25, 3, 0.1]], dtype=np.float32),
        "b": np.array([0.5, -0.5], dtype=np.float32),
        "scalar": np.array(2.5, dtype=np.float32),
        "pads": np.array([0, 1, 0, 1], dtype=np.int64),
        "d": np.array([0.1, -1e300], dtype=np.float64),
        "h": np.array([1.5, -65504, 1], dtype=np.float16),
        "bf": np.array([-2, 3.125, 1], dtype=np.float32),  # numpy_helper widens bfloat16 to float32
        "i8": np.array([-128, 127], dtype=np.int8),
        "u8": np.array([0, 255], dtype=np.uint8),
        "i32": np.array([-2147483648, 7], dtype=np.int32),
        "i64": np.array([-2, 9007199254740993], dtype=np.int64),
        "flags": np.array([True, False, True], dtype=np.bool_),
    }
    data_types = {"h": onnx.TensorProto.FLOAT16, "bf": onnx.TensorProto.BFLOAT16}
    found = {t.name: t for t in g.initializer}
    assert sorted(found) == sorted(expected), sorted(found)
    for name, want in expected.items():
        t = found[name]
        assert t.HasField("raw_data"), name
        if name in data_types:
            assert t.data_type == data_types[name], (name, t.data_type)
        got = numpy_helper.to_array(t)
        assert got.dtype == want.dtype and got.shape == want.shape, (name, got.dtype, got.shape)
        assert np.array_equal(got, want), (name, got, want)

    nodes = [(n.name, n.op_type, list(n.input), list(n.output),
              {a.name: helper.get_attribute_value(a) for a in n.attribute}) for n in g.node]
    value = nodes[4][4].pop("value")
    assert value.data_type == onnx.TensorProto.DOUBLE
    assert np.array_equal(numpy_helper.to_array(value), np.array([0.25, -4], dtype=np.float64))
    assert nodes == [
        ("/Gemm", "Gemm", ["x", "w", "b"], ["h0"], {"alpha": 0.5, "transB": 1}),
        ("/LeakyRelu", "LeakyRelu", ["h0"], ["y"], {"alpha": 0.125}),
        ("/Transpose", "Transpose", ["y"], ["yt"], {"perm": [1, 0]}),
        ("/Pad", "Pad", ["yt", "pads"], ["padded"], {"mode": b"edge"}),
        ("/Constant", "Constant", [], ["c"], {}),
        ("/Constant_1", "Constant", [], ["offsets"], {"value_floats": [1.5, -0.75]}),
        ("/Constant_2", "Constant", [], ["labels"], {"value_strings": [b"a", b"bc"]}),
        ("/Cast", "Cast", ["c"], ["c_float"], {"to": 1}),
        ("/Add", "Add", ["y", "offsets"], ["shifted"], {}),
        ("/Mul", "Mul", ["shifted", "c_float"], ["scaled"], {}),
    ], nodes
    print(f"{path}: accepted by onnx {onnx.__version__}'s checker; fields, initializers and attributes as written")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
