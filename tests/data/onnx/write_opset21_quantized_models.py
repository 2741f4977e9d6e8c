#!/usr/bin/python3
"""Writes ONNX models of QuantizeLinear, DequantizeLinear and Cast as opsets 19, 21 and 23 define them
(float8 with saturate; int4, uint4, int16; blocked quantization; float4e2m1), with inputs and references
computed here from ONNX's operator specification (onnx/docs/Operators.md, Changelog.md),
independently of FloatScope: x / scale in float32 (NumPy), float8 rounding in exact rationals
(fractions.Fraction: nearest, ties to even, with Cast-19's tables for out-of-range values),
integer rounding half to even and saturation in Python integers, float8 and int4 codes decoded
from their bit fields, float4e2m1 from the table of its eight magnitudes.

  quantize_float8       QuantizeLinear-19 per tensor to float8e4m3fn, float8e4m3fnuz, float8e5m2 and
                        float8e5m2fnuz, each with saturate 1 and 0 (eight nodes): ties, subnormals,
                        -0, a value that rounds down to max, one past it, +-inf and NaN
  quantize_float8_axis  QuantizeLinear-19 per axis (axis 1) to float8e4m3fn, without a zero point
                        (output_dtype is 21's: the zero point's type says float8)
  dequantize_float8     DequantizeLinear-19 of float8e5m2 codes per axis 0 (NaN and inf codes included)
  cast_float8           Cast-19 from float to each float8 type, saturate 1 and 0, and back to float
  quantize_blocked_int4 QuantizeLinear-21 to int4, blocks of 3 along axis 1 of [3, 7] (the last block
                        one element), negative zero points, saturation at -8 and 7
  quantize_axis_uint4   QuantizeLinear-21 to uint4 per axis 0
  quantize_int16        QuantizeLinear-21 to int16 by output_dtype, no zero point
  dequantize_blocked_int4  DequantizeLinear-21 of int4 blocks of 2 along axis 0 of [5, 3], negative zero points
  qdq_cnn_int4          a QDQ CNN at opset 21: int8 activations (QuantizeLinear / DequantizeLinear),
                        Conv weights int4 in blocks of 4 along the input channels (6: blocks of 4 and
                        2), Relu, MaxPool, Flatten, Gemm weights int4 in blocks of 8 along K
  quantize_float4       QuantizeLinear-23 per tensor to float4e2m1, saturate 1 and 0 (float4 saturates
                        either way): every tie between neighbours, -0, values past 6, +-inf and NaN
  dequantize_float4     DequantizeLinear-23 of float4e2m1 codes, blocks of 2 along axis 1, all 16 codes
  cast_float4           Cast-23 from float to float4e2m1 (saturate 1 and 0) and back, CastLike-23 too
  qdq_mlp_float4        a QDQ MLP at opset 23: the input quantized to float4e2m1 per tensor (output_dtype),
                        MatMul weights float4e2m1 in blocks of 8 and 4 along K, Add, Relu

The float8 and int4 tensors are initializers in raw_data (onnx 1.12's helper predates their types);
nothing here calls onnx.checker, which does not know these definitions. Beside each <name>.onnx:
<name>_input_<i>.npy and <name>_<output>.npy (float64 values for floating outputs, the float8 ones
included; int64 for integer outputs). Seeds fixed.

Usage: write_opset21_quantized_models.py OUT_DIR
"""
import math
import os
import sys
from fractions import Fraction

import numpy as np
from onnx import TensorProto, helper

from model_files import node

if len(sys.argv) != 2:
    sys.exit(__doc__)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(3621)
f32 = np.float32

# TensorProto.DataType numbers of the types onnx 1.12 does not name (onnx.proto3 of ONNX 1.16).
FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ, UINT4, INT4 = 17, 18, 19, 20, 21, 22
FLOAT4E2M1 = 23  # onnx.proto3 of ONNX 1.18


class Float8:
    """A float8 type by its fields: `mantissa` bits, exponent `bias`, its largest finite value, whether
    it has infinities (e5m2), and whether it is fnuz (one zero, NaN = 0x80)."""

    def __init__(self, code, mantissa, bias, max_finite, infinities, fnuz):
        self.code, self.mantissa, self.bias = code, mantissa, bias
        self.max, self.infinities, self.fnuz = Fraction(max_finite), infinities, fnuz
        self.emin = 1 - bias

    def out_of_range(self, negative, saturate):
        """Cast-19's tables: saturate gives +-max (ONNX's reference and onnxruntime give it for an
        infinity too); without, e5m2 gives +-inf and the others NaN."""
        if saturate:
            return -float(self.max) if negative else float(self.max)
        if self.infinities:
            return -math.inf if negative else math.inf
        return math.nan

    def convert(self, x, saturate=True):
        """The float8 value of float x, as a float."""
        if math.isnan(x):
            return math.nan
        if math.isinf(x):
            return self.out_of_range(x < 0, saturate)
        negative = math.copysign(1.0, x) < 0
        a = abs(Fraction(x))
        if a == 0:
            return 0.0 if (self.fnuz or not negative) else -0.0
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** e > a:
            e -= 1
        ulp = Fraction(2) ** (max(e, self.emin) - self.mantissa)
        r = round(a / ulp) * ulp  # Fraction's round: half to even
        if r > self.max:
            return self.out_of_range(negative, saturate)
        if r == 0:
            return 0.0 if (self.fnuz or not negative) else -0.0
        return -float(r) if negative else float(r)

    def decode(self, code):
        """The value of an 8-bit code."""
        sign = -1.0 if code & 0x80 else 1.0
        exponent_bits = 7 - self.mantissa
        e = (code >> self.mantissa) & ((1 << exponent_bits) - 1)
        m = code & ((1 << self.mantissa) - 1)
        if self.fnuz and code == 0x80:
            return math.nan
        if not self.fnuz:
            if self.infinities and e == (1 << exponent_bits) - 1:
                return sign * math.inf if m == 0 else math.nan
            if not self.infinities and (code & 0x7F) == 0x7F:
                return math.nan
        if e == 0:
            return sign * m * 2.0 ** (self.emin - self.mantissa)
        return sign * (1 + m / 2 ** self.mantissa) * 2.0 ** (e - self.bias)


E4M3FN = Float8(FLOAT8E4M3FN, 3, 7, 448, False, False)
E4M3FNUZ = Float8(FLOAT8E4M3FNUZ, 3, 8, 240, False, True)
E5M2 = Float8(FLOAT8E5M2, 2, 15, 57344, True, False)
E5M2FNUZ = Float8(FLOAT8E5M2FNUZ, 2, 16, 57344, False, True)
FLOAT8 = {"e4m3fn": E4M3FN, "e4m3fnuz": E4M3FNUZ, "e5m2": E5M2, "e5m2fnuz": E5M2FNUZ}


def code_tensor(name, data_type, shape, codes):
    """An initializer of 8-bit codes (float8) or 4-bit ones (int4, uint4, float4e2m1: two to a byte,
    the first in the low nibble) in raw_data."""
    t = TensorProto()
    t.name, t.data_type = name, data_type
    t.dims.extend(shape)
    codes = [int(c) for c in np.asarray(codes).reshape(-1)]
    if data_type in (INT4, UINT4, FLOAT4E2M1):
        nibbles = [c & 0xF for c in codes] + [0] * (len(codes) % 2)
        t.raw_data = bytes(nibbles[i] | nibbles[i + 1] << 4 for i in range(0, len(nibbles), 2))
    else:
        t.raw_data = bytes(codes)
    return t


def float_tensor(name, array):
    array = np.asarray(array, f32)
    return helper.make_tensor(name, TensorProto.FLOAT, list(array.shape), array.reshape(-1).tolist())


def save(name, opset, nodes, inputs, outputs, initializers=()):
    """inputs: [(name, float32 array)]; outputs: [(name, element type, reference array)]."""
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(a.shape)) for n, a in inputs],
        [helper.make_tensor_value_info(n, t, list(np.shape(r))) for n, t, r in outputs], list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=10,
                              producer_name="write_opset21_quantized_models.py")
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())
    for i, (_, array) in enumerate(inputs):
        np.save(os.path.join(out, f"{name}_input_{i}.npy"), array)
    for n, _, reference in outputs:
        np.save(os.path.join(out, f"{name}_{n}.npy"), reference)


def quantize_integer(real, zero_point, low, high):
    """saturate(round_half_even(real) + zero_point), elementwise, in Python integers."""
    return np.array([min(high, max(low, round(Fraction(float(r))) + int(z)))
                     for r, z in zip(np.asarray(real).reshape(-1), np.broadcast_to(zero_point, np.shape(real)).reshape(-1))],
                    np.int64).reshape(np.shape(real))


def float8_of(fmt, values, saturate=True):
    return np.array([fmt.convert(float(v), saturate) for v in np.asarray(values).reshape(-1)]).reshape(np.shape(values))


# ---- quantize_float8: QuantizeLinear-19, per tensor, every float8 type, saturate 1 and 0 ----------------

# The quotients x / 0.5: ties between float8 neighbours (1.0625, 1.1875), subnormals of e4m3fn (2^-7,
# 2^-10, the tie 2^-11 to 0), 464 (e4m3fn's tie to its max 448), 470 and 500 (past it), 247 and 249
# (about e4m3fnuz's 240 and its tie 248), 60000 and 61440 (e5m2's tie to 2^16, past 57344).
quotients = [0.0, -0.0, 1.0, 1.0625, 1.1875, -3.3, 0.0078125, 0.0009765625, 0.00048828125, 2e-9, 440.0,
             464.0, 470.0, 500.0, 240.0, 247.0, 249.0, 57344.0, 60000.0, 61440.0, 1e6, -1e6, np.inf, -np.inf, np.nan]
x = np.array(quotients, f32) * f32(0.5)
scale = f32(0.5)
quotient = x / scale  # float32, as ONNX's reference divides
nodes, outputs, initializers = [], [], [float_tensor("scale", scale)]
for label, fmt in FLOAT8.items():
    initializers.append(code_tensor(f"zp_{label}", fmt.code, [], [0]))
    for saturate in (1, 0):
        y = f"y_{label}_{'sat' if saturate else 'nosat'}"
        nodes.append(node("QuantizeLinear", ["x", "scale", f"zp_{label}"], [y], saturate=saturate))
        outputs.append((y, fmt.code, float8_of(fmt, quotient, saturate)))
save("quantize_float8", 19, nodes, [("x", x)], outputs, initializers)

# ---- quantize_float8_axis: per axis 1, zero point omitted, output_dtype float8e4m3fn (21) ------------------

x = (rng.standard_normal((2, 3, 4)) * 100).astype(f32)
x[0, 0, 0], x[1, 2, 3] = 1e5, -1e5  # past max: saturated
scale = np.array([0.25, 1.0, 3.0], f32)
save("quantize_float8_axis", 21,
     [node("QuantizeLinear", ["x", "scale"], ["y"], axis=1, output_dtype=FLOAT8E4M3FN)], [("x", x)],
     [("y", FLOAT8E4M3FN, float8_of(E4M3FN, x / scale.reshape(1, 3, 1)))], [float_tensor("scale", scale)])

# ---- dequantize_float8: DequantizeLinear-19 of e5m2 codes per axis 0 ---------------------------------------

codes = rng.integers(0, 256, (3, 5))
codes[0, :3] = [0x7C, 0xFC, 0x7F]  # +inf, -inf, NaN
scale = np.array([2.0, 0.125, 1.5], f32)
y = np.array([[E5M2.decode(int(c)) for c in row] for row in codes]) * scale.astype(np.float64).reshape(3, 1)
save("dequantize_float8", 19, [node("DequantizeLinear", ["x", "scale"], ["y"], axis=0)], [],
     [("y", TensorProto.FLOAT, y)], [code_tensor("x", FLOAT8E5M2, [3, 5], codes), float_tensor("scale", scale)])

# ---- cast_float8: Cast-19 to each float8 type with saturate 1 and 0, and back to float --------------------

x = np.array([0.3, -0.0, 3.0e-3, 300.0, 465.0, 1000.0, 70000.0, -70000.0, np.inf, -np.inf, np.nan, 1.0e-7], f32)
nodes, outputs = [], []
for label, fmt in FLOAT8.items():
    for saturate in (1, 0):
        y = f"y_{label}_{'sat' if saturate else 'nosat'}"
        nodes += [node("Cast", ["x"], [y + "_f8"], to=fmt.code, saturate=saturate),
                  node("Cast", [y + "_f8"], [y], to=TensorProto.FLOAT)]
        outputs.append((y, TensorProto.FLOAT, float8_of(fmt, x, saturate)))
save("cast_float8", 19, nodes, [("x", x)], outputs)

# ---- quantize_blocked_int4: QuantizeLinear-21, blocks of 3 along axis 1 of [3, 7] -------------------------

x = (rng.standard_normal((3, 7)) * 4).astype(f32)
x[0, 0], x[1, 6], x[2, 3] = 1e3, -1e3, 0.75  # saturation both ways; 0.75 / 0.5 = 1.5, a tie
scale = np.array([[0.5, 1.0, 0.25], [2.0, 0.5, 0.125], [0.5, 1.5, 1.0]], f32)
zp = np.array([[-3, 0, 2], [-8, 7, -1], [1, -2, 0]])
expand = lambda a: np.repeat(a, 3, axis=1)[:, :7]  # noqa: E731 (each block's parameter over its elements)
save("quantize_blocked_int4", 21,
     [node("QuantizeLinear", ["x", "scale", "zp"], ["y"], axis=1, block_size=3)], [("x", x)],
     [("y", INT4, quantize_integer(x / expand(scale), expand(zp), -8, 7))],
     [float_tensor("scale", scale), code_tensor("zp", INT4, [3, 3], zp)])

# ---- quantize_axis_uint4: QuantizeLinear-21 per axis 0 to uint4 --------------------------------------------

x = (rng.standard_normal((3, 4)) * 6).astype(f32)
scale = np.array([0.5, 1.0, 2.0], f32)
zp = np.array([8, 0, 15])
save("quantize_axis_uint4", 21, [node("QuantizeLinear", ["x", "scale", "zp"], ["y"], axis=0)], [("x", x)],
     [("y", UINT4, quantize_integer(x / scale.reshape(3, 1), zp.reshape(3, 1), 0, 15))],
     [float_tensor("scale", scale), code_tensor("zp", UINT4, [3], zp)])

# ---- quantize_int16: QuantizeLinear-21 by output_dtype, no zero point -------------------------------------

x = np.array([-1e6, -2.5, -0.5, 0.5, 1.5, 12345.6, 1e6], f32)
scale = f32(0.25)
save("quantize_int16", 21, [node("QuantizeLinear", ["x", "scale"], ["y"], output_dtype=TensorProto.INT16)],
     [("x", x)], [("y", TensorProto.INT16, quantize_integer(x / scale, 0, -32768, 32767))],
     [float_tensor("scale", scale)])

# ---- dequantize_blocked_int4: DequantizeLinear-21, blocks of 2 along axis 0 of [5, 3] ----------------------

q = rng.integers(-8, 8, (5, 3))
scale = np.array([[0.5, 0.25, 2.0], [1.0, 0.125, 0.75], [3.0, 0.5, 1.0]], f32)
zp = np.array([[-8, 0, 3], [-1, -4, 7], [2, -2, 0]])
rows = lambda a: np.repeat(a, 2, axis=0)[:5]  # noqa: E731
y = (q - rows(zp)).astype(np.float64) * rows(scale).astype(np.float64)
save("dequantize_blocked_int4", 21, [node("DequantizeLinear", ["x", "scale", "zp"], ["y"], axis=0, block_size=2)],
     [], [("y", TensorProto.FLOAT, y)],
     [code_tensor("x", INT4, [5, 3], q), float_tensor("scale", scale), code_tensor("zp", INT4, [3, 3], zp)])

# ---- qdq_cnn_int4: a QDQ CNN at opset 21 with blocked int4 weights ----------------------------------------

f64 = np.float64
x = rng.standard_normal((2, 6, 6, 6)).astype(f32)
w_q = rng.integers(-8, 8, (4, 6, 3, 3))
w_scale = (rng.uniform(0.02, 0.06, (4, 2, 3, 3))).astype(f32)  # blocks of 4 along axis 1: channels 0-3, 4-5
g_q = rng.integers(-8, 8, (4 * 2 * 2, 5))
g_scale = rng.uniform(0.05, 0.1, (2, 5)).astype(f32)  # blocks of 8 along axis 0 (K = 16)
s_in, s_act = f32(0.03), f32(0.02)
bias = np.array([0.05, -0.02, 0.1, 0.0], f32)
nodes = [
    node("QuantizeLinear", ["x", "s_in", "z8"], ["x_q"]),
    node("DequantizeLinear", ["x_q", "s_in", "z8"], ["x_dq"]),
    node("DequantizeLinear", ["w_q", "w_scale"], ["w"], axis=1, block_size=4),
    node("Conv", ["x_dq", "w", "bias"], ["conv"], pads=[1, 1, 1, 1]),
    node("Relu", ["conv"], ["relu"]),
    node("QuantizeLinear", ["relu", "s_act", "z8"], ["relu_q"]),
    node("DequantizeLinear", ["relu_q", "s_act", "z8"], ["relu_dq"]),
    node("MaxPool", ["relu_dq"], ["pool"], kernel_shape=[3, 3], strides=[3, 3]),
    node("Flatten", ["pool"], ["flat"]),
    node("DequantizeLinear", ["g_q", "g_scale"], ["g"], axis=0, block_size=8),
    node("Gemm", ["flat", "g"], ["y"]),
]
initializers = [float_tensor("s_in", s_in), float_tensor("s_act", s_act), float_tensor("bias", bias),
                helper.make_tensor("z8", TensorProto.INT8, [], [0]),
                code_tensor("w_q", INT4, [4, 6, 3, 3], w_q), float_tensor("w_scale", w_scale),
                code_tensor("g_q", INT4, [16, 5], g_q), float_tensor("g_scale", g_scale)]
x_dq = quantize_integer(x / s_in, 0, -128, 127).astype(f64) * f64(s_in)
w = w_q.astype(f64) * np.repeat(w_scale, 4, axis=1)[:, :6].astype(f64)
xp = np.pad(x_dq, ((0, 0), (0, 0), (1, 1), (1, 1)))
conv = np.zeros((2, 4, 6, 6))
for i in range(6):
    for j in range(6):
        conv[:, :, i, j] = np.einsum("nchw,mchw->nm", xp[:, :, i:i + 3, j:j + 3], w)
conv += bias.astype(f64).reshape(1, 4, 1, 1)
relu = np.maximum(conv, 0)
# QuantizeLinear divides in the type of its input, float: relu rounded to float32 first.
relu_dq = quantize_integer(relu.astype(f32) / s_act, 0, -128, 127).astype(f64) * f64(s_act)
pool = relu_dq.reshape(2, 4, 2, 3, 2, 3).max(axis=(3, 5))
g = g_q.astype(f64) * np.repeat(g_scale, 8, axis=0).astype(f64)
save("qdq_cnn_int4", 21, nodes, [("x", x)], [("y", TensorProto.FLOAT, pool.reshape(2, 16) @ g)], initializers)


# ---- float4e2m1 (opset 23) ----------------------------------------------------------------------------------

# float4e2m1's magnitudes by code (sign bit 3): ONNX's float4.md table (1 sign, 2 exponent bits with bias 1,
# 1 mantissa bit, no inf or NaN). Rounding to nearest, ties to the even code (mantissa bit 0).
E2M1 = [Fraction(v) for v in ("0", "1/2", "1", "3/2", "2", "3", "4", "6")]


def float4_code(x):
    """The float4e2m1 code of float x, as Cast-23 converts: rne, saturated at +-6 (inf too), NaN to +6."""
    if math.isnan(x):
        return 0x7
    sign = 0x8 if math.copysign(1.0, x) < 0 else 0x0
    if math.isinf(x):
        return sign | 0x7
    a = abs(Fraction(x))
    best = min(range(8), key=lambda c: (abs(E2M1[c] - a), c % 2))  # nearest, then the even code
    return sign | best


def float4_value(code):
    v = float(E2M1[code & 0x7])
    return -v if code & 0x8 else v


def float4_of(values):
    return np.array([float4_value(float4_code(float(v))) for v in np.asarray(values).reshape(-1)]).reshape(np.shape(values))


# ---- quantize_float4: QuantizeLinear-23 per tensor, saturate 1 and 0 ---------------------------------------

# The quotients x / 0.25: each tie between neighbours (0.25 to 0, 0.75 to 1, 1.25 to 1, 1.75 to 2, 2.5 to 2,
# 3.5 to 4, 5 to 4), values beside them, -0, a tiny negative (to -0), past 6, +-inf and NaN.
quotients = [0.0, -0.0, 0.25, 0.26, 0.75, 1.25, 1.3, 1.75, 2.5, 2.6, 3.5, 5.0, 5.1, -5.0, -0.74, -1e-3,
             6.0, 7.0, 1e6, -1e6, np.inf, -np.inf, np.nan]
x = np.array(quotients, f32) * f32(0.25)
scale = f32(0.25)
quotient = x / scale
nodes = [node("QuantizeLinear", ["x", "scale", "zp"], [f"y_{label}"], saturate=saturate)
         for label, saturate in (("sat", 1), ("nosat", 0))]
save("quantize_float4", 23, nodes, [("x", x)],
     [(f"y_{label}", FLOAT4E2M1, float4_of(quotient)) for label in ("sat", "nosat")],
     [float_tensor("scale", scale), code_tensor("zp", FLOAT4E2M1, [], [0])])

# ---- dequantize_float4: DequantizeLinear-23 of all 16 codes, blocks of 2 along axis 1 ----------------------

codes = np.arange(16).reshape(2, 8)
scale = np.array([[0.5, 2.0, 0.125, 3.0], [1.0, 0.25, 1.5, 4.0]], f32)
y = np.array([[float4_value(int(c)) for c in row] for row in codes]) * np.repeat(scale, 2, axis=1).astype(np.float64)
save("dequantize_float4", 23, [node("DequantizeLinear", ["x", "scale"], ["y"], axis=1, block_size=2)], [],
     [("y", TensorProto.FLOAT, y)], [code_tensor("x", FLOAT4E2M1, [2, 8], codes), float_tensor("scale", scale)])

# ---- cast_float4: Cast-23 to float4e2m1 (saturate 1 and 0) and back; CastLike-23 ---------------------------

x = np.array([0.3, -0.0, 0.2, 0.25, 2.9, -4.5, 5.0, 5.5, 100.0, -100.0, np.inf, -np.inf, np.nan, 1e-7], f32)
nodes, outputs = [], []
for label, saturate in (("sat", 1), ("nosat", 0)):
    nodes += [node("Cast", ["x"], [f"f4_{label}"], to=FLOAT4E2M1, saturate=saturate),
              node("Cast", [f"f4_{label}"], [f"y_{label}"], to=TensorProto.FLOAT)]
    outputs.append((f"y_{label}", TensorProto.FLOAT, float4_of(x)))
nodes.append(node("CastLike", ["x", "like"], ["y_like"]))
outputs.append(("y_like", FLOAT4E2M1, float4_of(x)))
save("cast_float4", 23, nodes, [("x", x)], outputs, [code_tensor("like", FLOAT4E2M1, [1], [0])])

# ---- qdq_mlp_float4: a QDQ MLP at opset 23 with float4e2m1 input and blocked float4e2m1 weights -------------

f64 = np.float64
x = rng.standard_normal((4, 16)).astype(f32)
s_in = f32(0.5)
w1_q = rng.integers(0, 16, (16, 8))
w1_scale = rng.uniform(0.05, 0.2, (2, 8)).astype(f32)  # blocks of 8 along axis 0 (K = 16)
b1 = rng.uniform(-0.5, 0.5, 8).astype(f32)
w2_q = rng.integers(0, 16, (8, 3))
w2_scale = rng.uniform(0.05, 0.2, (2, 3)).astype(f32)  # blocks of 4 along axis 0 (K = 8)
nodes = [
    node("QuantizeLinear", ["x", "s_in"], ["x_q"], output_dtype=FLOAT4E2M1),
    node("DequantizeLinear", ["x_q", "s_in"], ["x_dq"]),
    node("DequantizeLinear", ["w1_q", "w1_scale"], ["w1"], axis=0, block_size=8),
    node("MatMul", ["x_dq", "w1"], ["h"]),
    node("Add", ["h", "b1"], ["h_b"]),
    node("Relu", ["h_b"], ["relu"]),
    node("DequantizeLinear", ["w2_q", "w2_scale"], ["w2"], axis=0, block_size=4),
    node("MatMul", ["relu", "w2"], ["y"]),
]
initializers = [float_tensor("s_in", s_in), float_tensor("b1", b1),
                code_tensor("w1_q", FLOAT4E2M1, [16, 8], w1_q), float_tensor("w1_scale", w1_scale),
                code_tensor("w2_q", FLOAT4E2M1, [8, 3], w2_q), float_tensor("w2_scale", w2_scale)]
decode = np.vectorize(lambda c: float4_value(int(c)))
x_dq = float4_of(x / s_in) * f64(s_in)  # the quotient in float32, as QuantizeLinear divides in x's type
w1 = decode(w1_q) * np.repeat(w1_scale, 8, axis=0).astype(f64)
w2 = decode(w2_q) * np.repeat(w2_scale, 4, axis=0).astype(f64)
relu = np.maximum(x_dq @ w1 + b1.astype(f64), 0)
save("qdq_mlp_float4", 23, nodes, [("x", x)], [("y", TensorProto.FLOAT, relu @ w2)], initializers)
