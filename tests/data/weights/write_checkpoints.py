#!/usr/bin/env python3
"""Writes small checkpoints for the weight readers' tests, independently of FloatScope: the
safetensors layout of github.com/huggingface/safetensors (README, "Format") and GGUF v3 of
ggml/docs/gguf.md, with ggml's block quantizers (ggml-quants.c, quantize_row_*_ref) redone in NumPy.
Beside each checkpoint, expected/<tensor>.f64 holds the values a reader must decode, as raw
little-endian binary64, computed here from the stored codes by the formats' definitions.

Usage: write_checkpoints.py OUT_DIR            the test checkpoints (a second)
       write_checkpoints.py --model FILE N     one safetensors model of about N parameters
"""
import json
import math
import os
import struct
import sys

import numpy as np


def save_expected(folder, name, values):
    os.makedirs(os.path.join(folder, "expected"), exist_ok=True)
    np.asarray(values, dtype="<f8").tofile(os.path.join(folder, "expected", name + ".f64"))


# ---- safetensors -------------------------------------------------------------------------------

def write_safetensors(path, tensors, metadata=None):
    """tensors: list of (name, dtype, shape, raw bytes), laid out in that order."""
    header = {}
    if metadata:
        header["__metadata__"] = metadata
    offset = 0
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)  # the reference writer pads the header to 8 bytes with spaces
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, _, _, raw in tensors:
            f.write(raw)


def minifloat_value(code, exponent_bits, mantissa_bits, kind):
    """Value of a sign-exponent-mantissa code. kind: 'ieee' (inf and NaNs at the top exponent),
    'fn' (NaN only at all ones, no inf: OCP E4M3), 'finite' (neither: FP4 E2M1)."""
    bias = (1 << (exponent_bits - 1)) - 1
    sign = -1.0 if code >> (exponent_bits + mantissa_bits) & 1 else 1.0
    e = (code >> mantissa_bits) & ((1 << exponent_bits) - 1)
    m = code & ((1 << mantissa_bits) - 1)
    top = (1 << exponent_bits) - 1
    if kind == "ieee" and e == top:
        return sign * math.inf if m == 0 else math.nan
    if kind == "fn" and e == top and m == (1 << mantissa_bits) - 1:
        return math.nan
    if e == 0:
        return sign * math.ldexp(m, 1 - bias - mantissa_bits)
    return sign * math.ldexp((1 << mantissa_bits) | m, e - bias - mantissa_bits)


def dtype_tensors(rng):
    """One tensor per safetensors dtype, with the values each code stands for."""
    out = []
    x = rng.standard_normal((3, 5))
    out.append(("f64", "F64", (3, 5), x.astype("<f8").tobytes(), x.ravel()))
    x = rng.standard_normal((4, 6)).astype(np.float32)
    out.append(("f32", "F32", (4, 6), x.astype("<f4").tobytes(), x.astype(np.float64).ravel()))
    codes = rng.integers(0, 1 << 16, size=(2, 3, 8), dtype=np.uint16)
    codes[0, 0, :4] = [0x7C00, 0xFC00, 0x0001, 0x8000]  # inf, -inf, smallest subnormal, -0
    out.append(("f16", "F16", codes.shape, codes.astype("<u2").tobytes(),
                [minifloat_value(int(c), 5, 10, "ieee") for c in codes.ravel()]))
    codes = rng.integers(0, 1 << 16, size=(5, 4), dtype=np.uint16)
    bf16 = (codes.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    out.append(("bf16", "BF16", codes.shape, codes.astype("<u2").tobytes(), bf16.ravel()))
    codes = np.arange(256, dtype=np.uint8).reshape(16, 16)
    out.append(("i8", "I8", codes.shape, codes.tobytes(), codes.view(np.int8).astype(np.float64).ravel()))
    out.append(("u8", "U8", codes.shape, codes.tobytes(), codes.astype(np.float64).ravel()))
    out.append(("f8_e4m3", "F8_E4M3", codes.shape, codes.tobytes(),
                [minifloat_value(int(c), 4, 3, "fn") for c in codes.ravel()]))
    out.append(("f8_e5m2", "F8_E5M2", codes.shape, codes.tobytes(),
                [minifloat_value(int(c), 5, 2, "ieee") for c in codes.ravel()]))
    # E8M0 (OCP MX): 2^(e - 127), 0xFF NaN.
    out.append(("f8_e8m0", "F8_E8M0", codes.shape, codes.tobytes(),
                [math.nan if c == 255 else math.ldexp(1.0, int(c) - 127) for c in codes.ravel()]))
    # F4: two E2M1 codes a byte, the first element in the low nibble.
    nibbles = rng.integers(0, 16, size=(4, 8), dtype=np.uint8)
    flat = nibbles.ravel()
    packed = (flat[0::2] | (flat[1::2] << 4)).astype(np.uint8)
    out.append(("f4", "F4", nibbles.shape, packed.tobytes(),
                [minifloat_value(int(c), 2, 1, "finite") for c in flat]))
    return out


def write_safetensors_cases(folder, rng):
    tensors = dtype_tensors(rng)
    write_safetensors(os.path.join(folder, "dtypes.safetensors"), [t[:4] for t in tensors],
                      {"format": "pt", "writer": "write_checkpoints.py"})
    for name, _, _, _, values in tensors:
        save_expected(folder, "dtypes." + name, values)
    # A sharded model: two shards and their index.
    sharded = os.path.join(folder, "sharded")
    os.makedirs(sharded, exist_ok=True)
    weight_map = {}
    for shard, names in (("model-00001-of-00002.safetensors", ["embed.weight", "layers.0.weight"]),
                         ("model-00002-of-00002.safetensors", ["layers.1.weight", "norm.weight"])):
        part = []
        for name in names:
            shape = (8,) if name == "norm.weight" else (4, 8)
            x = rng.standard_normal(shape).astype(np.float32)
            part.append((name, "F32", shape, x.astype("<f4").tobytes()))
            save_expected(sharded, name, x.astype(np.float64).ravel())
            weight_map[name] = shard
        write_safetensors(os.path.join(sharded, shard), part)
    with open(os.path.join(sharded, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": 4 * (3 * 32 + 8)}, "weight_map": weight_map}, f)


# ---- GGUF and ggml's blocks --------------------------------------------------------------------

GGML = {"F32": 0, "F16": 1, "Q4_0": 2, "Q4_1": 3, "Q5_0": 6, "Q5_1": 7, "Q8_0": 8, "BF16": 30, "MXFP4": 39}
E2M1 = [0, 0.5, 1, 1.5, 2, 3, 4, 6, 0, -0.5, -1, -1.5, -2, -3, -4, -6]


def f16(v):
    return np.float16(np.float32(v))


def half_bytes(h):
    return np.array([h], dtype="<f2").tobytes()


def quantize_block(kind, x):
    """One block of 32 float32 values in ggml's layout; returns (bytes, exact dequantized values)."""
    x = x.astype(np.float32)
    if kind == "Q8_0":
        amax = np.float32(np.max(np.abs(x)))
        d = np.float32(amax / np.float32(127))
        inv = np.float32(1) / d if d else np.float32(0)
        q = np.round(x * inv).astype(np.int8)  # roundf: ties away; rare, and any code is a valid block
        dh = f16(d)
        return half_bytes(dh) + q.tobytes(), [float(dh) * int(v) for v in q]
    if kind in ("Q4_0", "Q5_0"):
        bits = 4 if kind == "Q4_0" else 5
        i = int(np.argmax(np.abs(x)))
        d = np.float32(x[i] / np.float32(-(1 << (bits - 1))))
        inv = np.float32(1) / d if d else np.float32(0)
        top = (1 << bits) - 1
        q = [min(top, int(np.float32(v * inv) + np.float32((1 << (bits - 1)) + 0.5))) for v in x]
        dh = f16(d)
        values = [float(dh) * (c - (1 << (bits - 1))) for c in q]
    else:  # Q4_1, Q5_1
        bits = 4 if kind == "Q4_1" else 5
        lo, hi = np.float32(np.min(x)), np.float32(np.max(x))
        d = np.float32((hi - lo) / np.float32((1 << bits) - 1))
        inv = np.float32(1) / d if d else np.float32(0)
        q = [min((1 << bits) - 1, int(np.float32((v - lo) * inv) + np.float32(0.5))) for v in x]
        dh, mh = f16(d), f16(lo)
        values = [float(dh) * c + float(mh) for c in q]
    qs = bytes((q[j] & 0xF) | ((q[j + 16] & 0xF) << 4) for j in range(16))
    head = half_bytes(dh) + (half_bytes(mh) if kind in ("Q4_1", "Q5_1") else b"")
    if bits == 5:
        qh = 0
        for j in range(16):
            qh |= ((q[j] >> 4) & 1) << j
            qh |= ((q[j + 16] >> 4) & 1) << (j + 16)
        head += struct.pack("<I", qh)
    return head + qs, values


def quantize_mxfp4_block(x):
    """ggml's MXFP4: shared exponent e = floor(log2 amax) - 2 + 127 (amax > 0), elements the E2M1
    values nearest x / 2^(e - 127)."""
    amax = float(np.max(np.abs(x)))
    e = (math.floor(math.log2(amax)) - 2 + 127) if amax > 0 else 0
    scale = math.ldexp(1.0, e - 127)
    q = [min(range(16), key=lambda c: abs(E2M1[c] - v / scale)) for v in x]
    qs = bytes(q[j] | (q[j + 16] << 4) for j in range(16))
    return bytes([e]) + qs, [E2M1[c] * scale for c in q]


def gguf_string(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def gguf_kv(key, type_id, payload):
    return gguf_string(key) + struct.pack("<I", type_id) + payload


def write_gguf_cases(folder, rng, alignment=64):
    shapes = {"F32": (3, 32), "F16": (2, 64), "BF16": (2, 32), "Q8_0": (4, 64), "Q4_0": (4, 64),
              "Q4_1": (3, 96), "Q5_0": (4, 64), "Q5_1": (2, 64), "MXFP4": (4, 64)}
    infos, blobs = [], []
    for kind, shape in shapes.items():
        # Heavy-ish tails and an offset, so that Q4_1's minimum is not zero.
        x = (rng.standard_t(4, size=shape) + (0.3 if kind.endswith("_1") else 0)).astype(np.float32)
        flat = x.ravel()
        if kind == "F32":
            raw, values = flat.astype("<f4").tobytes(), flat.astype(np.float64)
        elif kind == "F16":
            h = flat.astype(np.float16)
            raw, values = h.astype("<f2").tobytes(), h.astype(np.float64)
        elif kind == "BF16":
            b = (flat.view(np.uint32) >> 16).astype("<u2")  # truncation: any bf16 code is valid
            raw, values = b.tobytes(), (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        else:
            raw, values = b"", []
            for k in range(0, flat.size, 32):
                block, v = (quantize_mxfp4_block(flat[k:k + 32]) if kind == "MXFP4"
                            else quantize_block(kind, flat[k:k + 32]))
                raw += block
                values += v
        name = "blk." + kind.lower() + ".weight"
        infos.append((name, list(reversed(shape)), GGML[kind]))  # ne[0] is the fastest dimension
        blobs.append(raw)
        save_expected(folder, "gguf." + name, values)
    kvs = [gguf_kv("general.architecture", 8, gguf_string("llama")),
           gguf_kv("general.alignment", 4, struct.pack("<I", alignment)),
           gguf_kv("llama.block_count", 4, struct.pack("<I", 2)),
           gguf_kv("general.file_type", 10, struct.pack("<Q", 7)),
           gguf_kv("tokenizer.ggml.scores", 9, struct.pack("<IQ", 6, 3) + struct.pack("<3f", 0.5, -1.0, 2.0)),
           gguf_kv("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, 2) + gguf_string("<s>") + gguf_string("</s>")),
           gguf_kv("general.quantized", 7, b"\x01")]
    header = b"GGUF" + struct.pack("<IQQ", 3, len(infos), len(kvs)) + b"".join(kvs)
    offset = 0
    offsets = []
    for (name, ne, type_id), raw in zip(infos, blobs):
        offsets.append(offset)
        header += gguf_string(name) + struct.pack("<I", len(ne)) + struct.pack("<%dQ" % len(ne), *ne)
        header += struct.pack("<IQ", type_id, offset)
        offset += len(raw) + (-len(raw) % alignment)
    with open(os.path.join(folder, "blocks.gguf"), "wb") as f:
        f.write(header + b"\0" * (-len(header) % alignment))
        for raw in blobs:
            f.write(raw + b"\0" * (-len(raw) % alignment))


# ---- a Hugging Face Llama model and its llama.cpp conversion ------------------------------------

def llama_permute(w, n_head):
    """convert_hf_to_gguf.py's LlamaModel.permute (q_proj with num_attention_heads, k_proj with
    num_key_value_heads): rows as (n_head, 2, head_dim / 2), the last two axes swapped."""
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def write_gguf_file(path, tensors, kvs, alignment=32):
    """tensors: list of (name, row-major shape, ggml type id, raw bytes); kvs: encoded key-value pairs."""
    header = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs)
    offset = 0
    for name, shape, type_id, raw in tensors:
        ne = list(reversed(shape))  # ne[0] is the fastest dimension
        header += gguf_string(name) + struct.pack("<I", len(ne)) + struct.pack("<%dQ" % len(ne), *ne)
        header += struct.pack("<IQ", type_id, offset)
        offset += len(raw) + (-len(raw) % alignment)
    with open(path, "wb") as f:
        f.write(header + b"\0" * (-len(header) % alignment))
        for _, _, _, raw in tensors:
            f.write(raw + b"\0" * (-len(raw) % alignment))


LLAMA_LAYER = [("self_attn.q_proj", "attn_q"), ("self_attn.k_proj", "attn_k"), ("self_attn.v_proj", "attn_v"),
               ("self_attn.o_proj", "attn_output"), ("mlp.gate_proj", "ffn_gate"), ("mlp.up_proj", "ffn_up"),
               ("mlp.down_proj", "ffn_down"), ("input_layernorm", "attn_norm"),
               ("post_attention_layernorm", "ffn_norm")]


def write_llama_cases(folder, rng):
    """llama/model.safetensors: a Llama-like model (2 layers, hidden 64, 4 heads, 2 KV heads) in F32
    with Hugging Face's names; llama/model-f32.gguf: it as llama.cpp's converter writes it (gguf-py's
    names, llama.* metadata, Q and K rows permuted), every tensor F32 but blk.1.attn_q.weight, Q8_0
    (its dequantized values, in Hugging Face's row order, in expected/). model-no-kv-heads.gguf lacks
    llama.attention.head_count_kv; model-bad-shape.gguf stores blk.0.ffn_down.weight transposed."""
    hidden, heads, kv_heads, ffn, vocab, layers = 64, 4, 2, 128, 32, 2
    kv = hidden // heads * kv_heads
    shapes = {"embed_tokens": (vocab, hidden), "self_attn.q_proj": (hidden, hidden),
              "self_attn.k_proj": (kv, hidden), "self_attn.v_proj": (kv, hidden),
              "self_attn.o_proj": (hidden, hidden), "mlp.gate_proj": (ffn, hidden), "mlp.up_proj": (ffn, hidden),
              "mlp.down_proj": (hidden, ffn), "input_layernorm": (hidden,), "post_attention_layernorm": (hidden,),
              "norm": (hidden,), "lm_head": (vocab, hidden)}
    hf, gguf = [], []  # (name, shape, float32 values)
    def add(hf_name, gguf_name, shape, permute_heads=0):
        x = rng.standard_normal(shape).astype(np.float32)
        hf.append((hf_name, shape, x))
        gguf.append((gguf_name, shape, llama_permute(x, permute_heads) if permute_heads else x))
    add("model.embed_tokens.weight", "token_embd.weight", shapes["embed_tokens"])
    for i in range(layers):
        for hf_part, gguf_part in LLAMA_LAYER:
            heads_of = {"attn_q": heads, "attn_k": kv_heads}.get(gguf_part, 0)
            add("model.layers.%d.%s.weight" % (i, hf_part), "blk.%d.%s.weight" % (i, gguf_part), shapes[hf_part],
                heads_of)
    add("model.norm.weight", "output_norm.weight", shapes["norm"])
    add("lm_head.weight", "output.weight", shapes["lm_head"])
    out = os.path.join(folder, "llama")
    os.makedirs(out, exist_ok=True)
    write_safetensors(os.path.join(out, "model.safetensors"),
                      [(n, "F32", shape, x.astype("<f4").tobytes()) for n, shape, x in hf], {"format": "pt"})
    quantized = "blk.1.attn_q.weight"
    def encode(name, shape, x):
        if name != quantized:
            return (name, shape, GGML["F32"], x.astype("<f4").tobytes())
        raw, values = b"", []
        for k in range(0, x.size, 32):
            block, v = quantize_block("Q8_0", x.ravel()[k:k + 32])
            raw += block
            values += v
        # Back to Hugging Face's row order: the inverse of the permutation.
        dequantized = np.array(values).reshape(shape).reshape(heads, shape[0] // heads // 2, 2, shape[1])
        save_expected(out, "q8_0." + quantized, dequantized.swapaxes(1, 2).reshape(shape).ravel())
        return (name, shape, GGML["Q8_0"], raw)
    tensors = [encode(n, shape, x) for n, shape, x in gguf]
    def u32(key, v):
        return gguf_kv(key, 4, struct.pack("<I", v))
    kvs = [gguf_kv("general.architecture", 8, gguf_string("llama")), u32("llama.block_count", layers),
           u32("llama.embedding_length", hidden), u32("llama.feed_forward_length", ffn),
           u32("llama.attention.head_count", heads), u32("llama.attention.head_count_kv", kv_heads)]
    write_gguf_file(os.path.join(out, "model-f32.gguf"), tensors, kvs)
    write_gguf_file(os.path.join(out, "model-no-kv-heads.gguf"), tensors, kvs[:-1])
    transposed = [(n, tuple(reversed(shape)) if n == "blk.0.ffn_down.weight" else shape, t, raw)
                  for n, shape, t, raw in tensors]
    write_gguf_file(os.path.join(out, "model-bad-shape.gguf"), transposed, kvs)


# ---- a large model for the speed check ---------------------------------------------------------

def write_model(path, parameters, rng):
    """A transformer-like safetensors model of about `parameters` values in BF16 (Student-t weights with
    4 degrees of freedom, scaled like a trained model's; a few output channels 20x larger)."""
    width = 768
    tensors = [("embed_tokens.weight", (32000, width))]
    layer = [("self_attn.q_proj.weight", (width, width)), ("self_attn.k_proj.weight", (width, width)),
             ("self_attn.v_proj.weight", (width, width)), ("self_attn.o_proj.weight", (width, width)),
             ("mlp.up_proj.weight", (4 * width, width)), ("mlp.down_proj.weight", (width, 4 * width)),
             ("input_layernorm.weight", (width,))]
    per_layer = sum(int(np.prod(s)) for _, s in layer)
    layers = max(1, (parameters - 32000 * width) // per_layer)
    tensors += [("layers.%d.%s" % (i, n), s) for i in range(layers) for n, s in layer]
    header, offset = {}, 0
    for name, shape in tensors:
        size = 2 * int(np.prod(shape))
        header[name] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for name, shape in tensors:
            if len(shape) == 1:
                x = np.ones(shape, dtype=np.float32)
            else:
                x = (rng.standard_t(4, size=shape) * (0.5 / math.sqrt(shape[-1]))).astype(np.float32)
                for row in rng.choice(shape[0], size=max(1, shape[0] // 256), replace=False):
                    x[row] *= 20
            f.write((x.view(np.uint32) >> 16).astype("<u2").tobytes())


def main():
    rng = np.random.default_rng(21)
    if len(sys.argv) == 4 and sys.argv[1] == "--model":
        write_model(sys.argv[2], int(float(sys.argv[3])), rng)
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    write_safetensors_cases(folder, rng)
    write_gguf_cases(folder, rng)
    write_llama_cases(folder, rng)


if __name__ == "__main__":
    main()
