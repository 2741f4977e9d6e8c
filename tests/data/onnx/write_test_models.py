#!/usr/bin/python3
"""Writes the ONNX models and tensor files the model reader's tests read (model_reader_test.cpp),
with ONNX's own onnx.helper and numpy_helper, independently of FloatScope's writer:
  mlp.onnx, shuffled.onnx, attributes.onnx, types.onnx   models that read
  external.onnx + external.bin, external_*.onnx           external data, good and bad
  linked/{inside,outside,cache/snapshot}/model.onnx       external data through symbolic links:
      to a file of the folder, out of it, and a Hugging Face cache's snapshot of links into blobs
  broken/*.onnx                                           models the reader refuses
  tensors/NAME.pb, NAME.npy, NAME.txt                     tensors as TensorProto and .npy, and
      their values as text (repr: exact decimal) for the test to compare with
  npy/NAME.npy                                            .npy files of every dtype numpy writes
usage: write_test_models.py OUT_DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = sys.argv[1]
for sub in ("", "broken", "tensors", "npy"):
    os.makedirs(os.path.join(out, sub), exist_ok=True)


def model(nodes, inputs, outputs, initializers=(), opset=17, value_info=(), extra_opsets=()):
    graph = helper.make_graph(nodes, "test", inputs, outputs, list(initializers), value_info=list(value_info))
    imports = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    return helper.make_model(graph, opset_imports=imports, producer_name="write_test_models", producer_version="1")


def save(m, name):
    with open(os.path.join(out, name), "wb") as f:
        f.write(m.SerializeToString())


def raw(name, data_type, dims, array):
    """A TensorProto with the array's bytes (numpy: little-endian here) as raw_data, unchecked."""
    return TensorProto(name=name, data_type=data_type, dims=dims, raw_data=np.ascontiguousarray(array).tobytes())


def typed(name, data_type, dims, field, values):
    t = TensorProto(name=name, data_type=data_type, dims=dims)
    getattr(t, field).extend(values)
    return t


x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])
W = numpy_helper.from_array(np.array([[1, 2], [3, 4], [5, 6]], np.float32), "W")
b = numpy_helper.from_array(np.array([0.5, -100], np.float32), "b")

# A tiny MLP: y = relu(x W + b). W is also listed as a graph input (as IR 3 models list every
# initializer); the Relu has no name.
mlp_nodes = [helper.make_node("MatMul", ["x", "W"], ["h"], name="matmul"),
             helper.make_node("Add", ["h", "b"], ["z"], name="add"),
             helper.make_node("Relu", ["z"], ["y"])]
save(model(mlp_nodes, [x, helper.make_tensor_value_info("W", TensorProto.FLOAT, [3, 2])], [y], [W, b],
           value_info=[helper.make_tensor_value_info("h", TensorProto.FLOAT, ["batch", 2])]), "mlp.onnx")
# Out of order, with a Neg that depends on x only: sorted, it comes first, as in the model.
save(model([helper.make_node("Relu", ["z"], ["y"], name="relu"), helper.make_node("Neg", ["x"], ["n"], name="neg"),
            mlp_nodes[0], mlp_nodes[1]], [x], [y, helper.make_tensor_value_info("n", TensorProto.FLOAT, ["batch", 3])],
           [W, b]), "shuffled.onnx")

# Every attribute kind, a Constant with a float16 tensor, a node of another domain.
body = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "body", [x], [y])
custom = helper.make_node("Custom", ["x"], ["c"], name="custom", domain="com.example", f=1.5, i=-7, s="abc",
                          floats=[0.25, -1.0], ints=[1, 2, 3], strings=["a", "bc"], g=body)
constant = helper.make_node("Constant", [], ["k"], name="constant",
                            value=numpy_helper.from_array(np.array([1.5, -65504], np.float16)))
save(model([custom, constant], [x], [helper.make_tensor_value_info("c", TensorProto.FLOAT, None),
                                     helper.make_tensor_value_info("k", TensorProto.FLOAT16, [2])],
           extra_opsets=[("com.example", 1)]), "attributes.onnx")

# Initializers of every element type, each as raw_data and in its typed field.
f16 = np.array([1, -2, 65504, 2.0**-24, 1023 * 2.0**-24, -0.0, np.inf, -np.inf, np.nan], np.float16)
bf16_values = np.array([1, -2, 2.0**-133, (2 - 2.0**-7) * 2.0**127, 2.0**-126, np.inf, np.nan, -0.0], np.float32)
bf16_bits = (bf16_values.view(np.uint32) >> 16).astype(np.uint16)
f32 = np.array([0.1, 1e-45, 3.4028235e38], np.float32)
f64 = np.array([0.1, -1e300, 5e-324, np.inf], np.float64)
i64 = np.array([2**62, -2**63, 2**63 - 1, -1], np.int64)
i32 = np.array([-2**31, 2**31 - 1, 0], np.int32)
i8 = np.array([-128, 127, -1], np.int8)
u8 = np.array([0, 255, 7], np.uint8)
i16 = np.array([-32768, 32767, -1], np.int16)
u16 = np.array([0, 65535, 7], np.uint16)
booleans = np.array([True, False, True])
types = [
    raw("float16_raw", TensorProto.FLOAT16, [3, 3], f16), typed("float16_typed", TensorProto.FLOAT16, [3, 3],
                                                                "int32_data", f16.view(np.uint16).tolist()),
    raw("bfloat16_raw", TensorProto.BFLOAT16, [8], bf16_bits),
    typed("bfloat16_typed", TensorProto.BFLOAT16, [8], "int32_data", bf16_bits.tolist()),
    raw("float_raw", TensorProto.FLOAT, [3], f32), typed("float_typed", TensorProto.FLOAT, [3], "float_data", f32),
    raw("double_raw", TensorProto.DOUBLE, [2, 2], f64),
    typed("double_typed", TensorProto.DOUBLE, [2, 2], "double_data", f64),
    raw("int64_raw", TensorProto.INT64, [4], i64), typed("int64_typed", TensorProto.INT64, [4], "int64_data", i64),
    raw("int32_raw", TensorProto.INT32, [3], i32), typed("int32_typed", TensorProto.INT32, [3], "int32_data", i32),
    raw("int8_raw", TensorProto.INT8, [3], i8), typed("int8_typed", TensorProto.INT8, [3], "int32_data", i8.tolist()),
    raw("uint8_raw", TensorProto.UINT8, [3], u8), typed("uint8_typed", TensorProto.UINT8, [3], "int32_data", u8.tolist()),
    raw("int16_raw", TensorProto.INT16, [3], i16),
    typed("int16_typed", TensorProto.INT16, [3], "int32_data", i16.tolist()),
    raw("uint16_raw", TensorProto.UINT16, [3], u16),
    typed("uint16_typed", TensorProto.UINT16, [3], "int32_data", u16.tolist()),
    raw("bool_raw", TensorProto.BOOL, [3], booleans),
    typed("bool_typed", TensorProto.BOOL, [3], "int32_data", booleans.astype(int).tolist()),
    numpy_helper.from_array(np.array(2.5, np.float32), "scalar"),
    numpy_helper.from_array(np.zeros((0, 3), np.float32), "empty"),
]
save(model([helper.make_node("Identity", ["x"], ["y"], name="identity")], [x], [y], types), "types.onnx")

# The narrow types of ONNX 1.14 to 1.18 (data types 17 to 24, which onnx 1.12 does not name), from
# their codes: float8 one byte per element (raw_data) or per int32 (int32_data); int4, uint4 and
# float4e2m1 two per byte, the first in the low nibble, an odd count leaving the last high nibble.
narrow = [  # name, data type, codes (the bytes raw_data holds)
    ("float8e4m3fn", 17, [0x00, 0x01, 0x38, 0x7E, 0x7F, 0x80, 0xFE]),
    ("float8e4m3fnuz", 18, [0x00, 0x01, 0x40, 0x7F, 0x80, 0xFF]),
    ("float8e5m2", 19, [0x3C, 0x7B, 0x7C, 0xFC, 0x7E, 0x01]),
    ("float8e5m2fnuz", 20, [0x40, 0x7F, 0x80, 0x01]),
    ("float8e8m0", 24, [0x7F, 0x00, 0xFE, 0xFF]),
]
packed = [  # name, data type, element count, packed bytes
    ("float4e2m1", 23, 5, [0x71, 0x8F, 0x03]),  # codes 1, 7, F, 8, 3
    ("int4", 22, 5, [0x78, 0x0F, 0x09]),  # nibbles 8, 7, F, 0, 9
    ("uint4", 21, 3, [0x0F, 0x0A]),  # nibbles F, 0, A
]
narrow_initializers = []
for name, data_type, codes in narrow:
    narrow_initializers += [raw(name + "_raw", data_type, [len(codes)], np.array(codes, np.uint8)),
                            typed(name + "_typed", data_type, [len(codes)], "int32_data", codes)]
for name, data_type, count, data in packed:
    narrow_initializers += [raw(name + "_raw", data_type, [count], np.array(data, np.uint8)),
                            typed(name + "_typed", data_type, [count], "int32_data", data)]
save(model([helper.make_node("Identity", ["x"], ["y"], name="identity")], [x], [y], narrow_initializers),
     "narrow_types.onnx")

# External data, as onnx.save writes it: both tensors in one file at their offsets.
external = model(mlp_nodes, [x], [y], [W, b])
if os.path.exists(os.path.join(out, "external.bin")):
    os.remove(os.path.join(out, "external.bin"))  # onnx.save_model appends to an existing file
onnx.save_model(external, os.path.join(out, "external.onnx"), save_as_external_data=True,
                all_tensors_to_one_file=True, location="external.bin", size_threshold=0)
with open(os.path.join(out, "short.bin"), "wb") as f:
    f.write(b"\0" * 8)


def external_model(name, location, extra=()):
    t = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[3, 2], data_location=TensorProto.EXTERNAL)
    for key, value in [("location", location)] + list(extra):
        entry = t.external_data.add()
        entry.key, entry.value = key, value
    save(model(mlp_nodes, [x], [y], [t, b]), name)


external_model("external_escape.onnx", "../external.bin")
external_model("external_absolute.onnx", os.path.abspath(os.path.join(out, "external.bin")))
external_model("external_missing.onnx", "missing.bin")
external_model("external_short.onnx", "short.bin")
external_model("external_past_end.onnx", "external.bin", [("offset", "16")])


def fresh_folder(*parts):
    folder = os.path.join(out, "linked", *parts)
    if os.path.lexists(folder):
        import shutil
        shutil.rmtree(folder)
    os.makedirs(folder)
    return folder


# External data through symbolic links. external.onnx names "external.bin"; here that name is a
# link. Inside: to data/weights.bin in the model's folder (read). Outside: to ../secret.bin, a
# file of the right size beside the folder, as an archive's `weights.bin -> /etc/passwd` would
# be (refused). The cache: snapshot/model.onnx and snapshot/external.bin both link into blobs/,
# the folder the model itself leads to (read).
with open(os.path.join(out, "external.onnx"), "rb") as f:
    external_bytes = f.read()
with open(os.path.join(out, "external.bin"), "rb") as f:
    external_data = f.read()
inside = fresh_folder("inside")
os.makedirs(os.path.join(inside, "data"))
with open(os.path.join(inside, "data", "weights.bin"), "wb") as f:
    f.write(external_data)
with open(os.path.join(inside, "model.onnx"), "wb") as f:
    f.write(external_bytes)
os.symlink(os.path.join("data", "weights.bin"), os.path.join(inside, "external.bin"))
outside = fresh_folder("outside")
with open(os.path.join(out, "linked", "secret.bin"), "wb") as f:
    f.write(external_data)
with open(os.path.join(outside, "model.onnx"), "wb") as f:
    f.write(external_bytes)
os.symlink(os.path.join("..", "secret.bin"), os.path.join(outside, "external.bin"))
fresh_folder("cache")
blobs, snapshot = fresh_folder("cache", "blobs"), fresh_folder("cache", "snapshot")
with open(os.path.join(blobs, "0a1b"), "wb") as f:
    f.write(external_bytes)
with open(os.path.join(blobs, "2c3d"), "wb") as f:
    f.write(external_data)
os.symlink(os.path.join("..", "blobs", "0a1b"), os.path.join(snapshot, "model.onnx"))
os.symlink(os.path.join("..", "blobs", "2c3d"), os.path.join(snapshot, "external.bin"))

# Models the reader refuses.
with open(os.path.join(out, "mlp.onnx"), "rb") as f:
    mlp_bytes = f.read()
with open(os.path.join(out, "broken", "truncated.onnx"), "wb") as f:
    f.write(mlp_bytes[:len(mlp_bytes) // 2])
a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [3])
save(model([helper.make_node("Add", ["x", "c"], ["a"], name="add"), helper.make_node("Relu", ["a"], ["c"], name="relu")],
           [x], [a]), "broken/cycle.onnx")
save(model([helper.make_node("Add", ["x", "ghost"], ["a"], name="add")], [x], [a]), "broken/missing_value.onnx")
save(model([helper.make_node("Identity", ["x"], ["y"])], [x], [y],
           [helper.make_tensor("names", TensorProto.STRING, [2], [b"a", b"b"])]), "broken/string_initializer.onnx")
save(model([helper.make_node("Identity", ["x"], ["y"])], [x], [y],
           [raw("words", TensorProto.COMPLEX64, [2], np.array([1, 2], np.complex64))]), "broken/complex_initializer.onnx")
# Opsets FloatScope does not evaluate (7 to 23) read, for onnx-info; check_evaluable refuses them.
save(model(mlp_nodes, [x], [y], [W, b], opset=6), "broken/opset6.onnx")
save(model(mlp_nodes, [x], [y], [W, b], opset=24), "broken/opset24.onnx")
save(model(mlp_nodes, [x], [y], [W, b], opset=9), "opset9_mlp.onnx")
# Operators FloatScope does not evaluate, some inside subgraphs (If's branches, a Loop's body
# nested in one), some twice: MaxRoiPool-1 twice, RandomUniformLike-1 in both branches and in the body,
# a custom op. If and Loop, which it evaluates, are not listed; their subgraphs read x3 and c of the
# outer scope.
v = helper.make_tensor_value_info
# RandomUniformLike draws from a generator: FloatScope will not evaluate it.
random_like = lambda name, out: helper.make_node("RandomUniformLike", ["x3"], [out], name=name)
loop_body = helper.make_graph([helper.make_node("Relu", ["x3"], ["t"], name="relu_in_loop"),
                               random_like("random_in_loop", "h_loop"),
                               helper.make_node("Identity", ["cond_in"], ["cond_out"], name="cond")],
                              "loop_body", [v("i", TensorProto.INT64, []), v("cond_in", TensorProto.BOOL, [])],
                              [v("cond_out", TensorProto.BOOL, [])])
then_branch = helper.make_graph([random_like("random_then", "h_then"),
                                 helper.make_node("Loop", ["", "c"], [], name="loop", body=loop_body)],
                                "then_branch", [], [v("h_then", TensorProto.FLOAT, None)])
else_branch = helper.make_graph([random_like("random_else", "h_else")], "else_branch", [],
                                [v("h_else", TensorProto.FLOAT, None)])
save(model([helper.make_node("MaxRoiPool", ["x", "rois"], ["u1"], name="pool1", pooled_shape=[1, 1]),
            helper.make_node("MaxRoiPool", ["u1", "rois"], ["u2"], name="pool2", pooled_shape=[1, 1]),
            helper.make_node("Relu", ["u2"], ["r"], name="relu"),
            helper.make_node("Greater", ["x", "x"], ["cs"], name="compare"),
            helper.make_node("ReduceMin", ["cs"], ["c"], name="all", keepdims=0),
            helper.make_node("Unsqueeze", ["x"], ["x3"], name="unsqueeze", axes=[0]),
            helper.make_node("If", ["c"], ["h"], name="if", then_branch=then_branch, else_branch=else_branch),
            helper.make_node("Custom", ["r"], ["k"], name="custom", domain="com.example")],
           [x, v("rois", TensorProto.FLOAT, [1, 5])], [v("h", TensorProto.FLOAT, None), v("k", TensorProto.FLOAT, None)],
           opset=9, extra_opsets=[("com.example", 1)]), "unsupported_operators.onnx")
# A Loop carrying a sequence (SequenceEmpty, SequenceInsert in its body; ConcatFromSequence after it):
# the sequence-typed values of its body read, and the model evaluates.
seq = helper.make_tensor_sequence_value_info
loop_body = helper.make_graph([helper.make_node("Identity", ["cond_in"], ["cond_out"], name="cond"),
                               helper.make_node("SequenceInsert", ["s_in", "x"], ["s_out"], name="insert")],
                              "loop_body", [v("i", TensorProto.INT64, []), v("cond_in", TensorProto.BOOL, []),
                                            seq("s_in", TensorProto.FLOAT, None)],
                              [v("cond_out", TensorProto.BOOL, []), seq("s_out", TensorProto.FLOAT, None)])
save(model([helper.make_node("SequenceEmpty", [], ["s0"], name="empty", dtype=TensorProto.FLOAT),
            helper.make_node("Loop", ["trips", "", "s0"], ["s"], name="loop", body=loop_body),
            helper.make_node("ConcatFromSequence", ["s"], ["y"], name="concat", axis=0)],
           [x], [v("y", TensorProto.FLOAT, None)], [numpy_helper.from_array(np.array(3, np.int64), "trips")]),
     "loop_sequence.onnx")
# And is defined as in opset 7 up to opset 17.
p = helper.make_tensor_value_info("p", TensorProto.BOOL, [2])
q = helper.make_tensor_value_info("q", TensorProto.BOOL, [2])
save(model([helper.make_node("And", ["p", "q"], ["r"], name="and")], [p, q],
           [helper.make_tensor_value_info("r", TensorProto.BOOL, [2])], opset=7), "opset7_and.onnx")
no_default = helper.make_model(helper.make_graph(mlp_nodes, "test", [x], [y], [W, b]),
                               opset_imports=[helper.make_opsetid("com.microsoft", 1)])
save(no_default, "broken/no_default_opset.onnx")
save(model(mlp_nodes, [x], [y], [raw("W", TensorProto.FLOAT, [3, 2], np.zeros(5, np.float32)), b]),
     "broken/size_mismatch.onnx")
# 2^31 x 2^31 floats claimed, with no data: the memory check refuses it before anything is allocated.
save(model(mlp_nodes, [x], [y], [TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[2**31, 2**31]), b]),
     "broken/huge.onnx")


# Tensor files: TensorProto .pb (numpy_helper.from_array, as ONNX's node tests write them), .npy
# (numpy.save) and the values as text, one per line.
def tensor_files(name, array):
    with open(os.path.join(out, "tensors", name + ".pb"), "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())
    np.save(os.path.join(out, "tensors", name + ".npy"), array)
    with open(os.path.join(out, "tensors", name + ".txt"), "w") as f:
        values = array.astype(np.float64) if array.dtype.kind == "f" else array.astype(np.int64)
        f.write("".join(repr(float(v)) + "\n" if array.dtype.kind == "f" else f"{int(v)}\n" for v in values.flat))


rng = np.random.default_rng(7)
tensor_files("float32_3d", rng.standard_normal((2, 3, 4)).astype(np.float32))
tensor_files("float16_specials", f16)
tensor_files("float64_scalar", np.array(-1.25e-310))
tensor_files("int64_vector", i64)
tensor_files("int32_matrix", np.array([[1, -2], [2**31 - 1, -2**31]], np.int32))
tensor_files("bool_matrix", np.array([[True, False], [False, True]]))
tensor_files("uint8_vector", u8)
tensor_files("int8_vector", i8)

# .npy files numpy writes that the reader refuses.
np.save(os.path.join(out, "npy", "fortran.npy"), np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
np.save(os.path.join(out, "npy", "big_endian.npy"), np.arange(3, dtype=">f4"))
np.save(os.path.join(out, "npy", "complex64.npy"), np.arange(3, dtype=np.complex64))
# A uint64 past 2^63 - 1, the largest FloatScope holds.
np.save(os.path.join(out, "npy", "uint64_past_int64.npy"), np.array([1, 2**63], np.uint64))
# .npy files of the 16-bit integer types and of uint32 and uint64, which it reads.
np.save(os.path.join(out, "npy", "uint32.npy"), np.array([0, 2**32 - 1, 7], np.uint32))
np.save(os.path.join(out, "npy", "uint64.npy"), np.array([0, 2**63 - 1, 7], np.uint64))
np.save(os.path.join(out, "npy", "int16.npy"), np.array([-32768, 32767, -1], np.int16))
np.save(os.path.join(out, "npy", "uint16.npy"), np.array([0, 65535, 7], np.uint16))
