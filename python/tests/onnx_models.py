"""Small ONNX models for the tests, written with ONNX's own onnx.helper (independently of FloatScope)."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(graph, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return str(path)


def two_step(path, bias, first_op, first_name, graph_name):
    """P = X <first_op> W, Y = P + B (elementwise, B an initializer), and Z = Identity(K) for an int64 input K."""
    graph = helper.make_graph(
        [helper.make_node(first_op, ["X", "W"], ["P"], name=first_name),
         helper.make_node("Add", ["P", "B"], ["Y"], name="add"),
         helper.make_node("Identity", ["K"], ["Z"], name="identity")],
        graph_name,
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["batch", 3]),
         helper.make_tensor_value_info("W", TensorProto.FLOAT, ["batch", 3]),
         helper.make_tensor_value_info("K", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["batch", 3]),
         helper.make_tensor_value_info("P", TensorProto.FLOAT, ["batch", 3]),
         helper.make_tensor_value_info("Z", TensorProto.INT64, [2])],
        [numpy_helper.from_array(np.asarray(bias, dtype=np.float32), "B")])
    return save(graph, path)


def mul_add(path, bias):
    """Y = X * W + B, P = X * W, Z = K."""
    return two_step(path, bias, "Mul", "mul", "mul_add")


def add_only(path, bias):
    """Y = X + W + B with the inputs of mul_add (P = X + W): another model for a sweep's grid."""
    return two_step(path, bias, "Add", "add_xw", "add_only")


def cast_to_double(path, elem):
    """D = Cast(U, to=double) of an integer input U of element type `elem`, and V = Identity(U)."""
    graph = helper.make_graph(
        [helper.make_node("Cast", ["U"], ["D"], name="cast", to=TensorProto.DOUBLE),
         helper.make_node("Identity", ["U"], ["V"], name="identity")],
        "cast_to_double", [helper.make_tensor_value_info("U", elem, [3])],
        [helper.make_tensor_value_info("D", TensorProto.DOUBLE, [3]), helper.make_tensor_value_info("V", elem, [3])])
    return save(graph, path)


def rounded(x, name):
    """x (float64) rounded once to fp16 or fp32 by NumPy's own casts (correctly rounded, nearest-even; beyond
    the range, inf)."""
    with np.errstate(over="ignore"):
        return x.astype({"fp16": np.float16, "fp32": np.float32}[name]).astype(np.float64)


def reference_outputs(kind, x, w, bias, name):
    """The graph's Y and P under a uniform `name` policy, in NumPy float64: inputs and initializers stored
    in the format, each node's exact result (a product or sum of two fp16/fp32 values is exact in float64)
    rounded once to it."""
    xs, ws, bs = rounded(x, name), rounded(w, name), rounded(np.asarray(bias, dtype=np.float64), name)
    p = rounded(xs * ws if kind == "mul_add" else xs + ws, name)
    return rounded(p + bs, name), p


def normwise_rel_error(values, truth):
    return float(np.linalg.norm(values - truth) / np.linalg.norm(truth))
