#!/usr/bin/python3
"""Writes tests/data/tensor-cores/b200_block_scaled.txt: the frozen B200 result words that sf-tensor
publishes for Blackwell's tcgen05.mma (github.com/sf-tensor/tcgen05, tcgen05_model/validation.py),
with the operands their seeds draw, as lines `floatscope-cli dot` reads:

    NAME PRESET: A_1 ... A_K ; B_1 ... B_K ; C ; SA_1 ... ; SB_1 ... ; D

A and B binary32 hex patterns of the element values, C and D binary32 hex patterns, SA and SB the
hex codes of the scale format (UE8M0, or UE4M3 for NVFP4), one per scale block of K.

The operands are drawn here again with Python's random.Random from the seeds and in the order of
draws that validation.py states (each vector: K element codes of A, K of B, C's 32 bits with an
all-ones exponent cleared, then the scale codes); D is the word the B200 returned, as published.
Only the words whose instruction a preset models are kept (the fp16, bf16, tf32, integer and sparse
words are left out)."""

import random
import struct
import sys

ONE_E8M0 = 0x7F


def f32_hex(value):
    return "%08x" % struct.unpack("<I", struct.pack("<f", value))[0]


def minifloat(code, exponent_bits, mantissa_bits, bias, nan_codes=(), infinity=False):
    """The value of a sign / exponent / mantissa code."""
    sign = -1.0 if code >> (exponent_bits + mantissa_bits) & 1 else 1.0
    exponent = code >> mantissa_bits & ((1 << exponent_bits) - 1)
    mantissa = code & ((1 << mantissa_bits) - 1)
    magnitude_code = code & ((1 << (exponent_bits + mantissa_bits)) - 1)
    if magnitude_code in nan_codes:
        return float("nan")
    if infinity and exponent == (1 << exponent_bits) - 1:
        return sign * float("inf") if mantissa == 0 else float("nan")
    if exponent == 0:
        return sign * mantissa * 2.0 ** (1 - bias - mantissa_bits)
    return sign * (1 + mantissa / 2.0**mantissa_bits) * 2.0 ** (exponent - bias)


ELEMENTS = {
    "e4m3": lambda c: minifloat(c, 4, 3, 7, nan_codes=(0x7F,)),
    "e5m2": lambda c: minifloat(c, 5, 2, 15, infinity=True),
    "e2m3": lambda c: minifloat(c, 2, 3, 1),
    "e3m2": lambda c: minifloat(c, 3, 2, 3),
    "e2m1": lambda c: minifloat(c, 2, 1, 1),
}
PRESETS = {
    "e4m3": "nvidia_b200_mxfp8",
    "e5m2": "nvidia_b200_mxfp8_e5m2",
    "e2m3": "nvidia_b200_mxfp6_e2m3",
    "e3m2": "nvidia_b200_mxfp6_e3m2",
    "e2m1": "nvidia_b200_mxf8f6f4_e2m1",
}


def finite_f32(rng):
    bits = rng.getrandbits(32)
    if bits & 0x7F800000 == 0x7F800000:
        bits &= 0x807FFFFF
    return bits


def line(name, preset, element, a, b, c_bits, scale_a, scale_b, d_bits):
    value = ELEMENTS[element]
    fields = [
        " ".join(f32_hex(value(x)) for x in a),
        " ".join(f32_hex(value(x)) for x in b),
        "%08x" % c_bits,
        " ".join("%02x" % s for s in scale_a),
        " ".join("%02x" % s for s in scale_b),
        "%08x" % d_bits,
    ]
    return "%s %s: %s" % (name, preset, " ; ".join(fields))


def unscaled_words():
    """kind::f8f6f4 (no scales): the mxf8f6f4 window with unit scales."""
    specs = (
        ("e4m3", 104, lambda r: r.randrange(0x7F), (0xEC63D12A, 0x452AF963)),
        ("e5m2", 300, lambda r: r.randrange(0x7C), (0x4D92B09A, 0x4C9C1102)),
        ("e2m3", 301, lambda r: r.randrange(0x40), (0xC29DD800, 0x449D14C1)),
        ("e3m2", 302, lambda r: r.randrange(0x40), (0x52C9EC63, 0xC33B7700)),
        ("e2m1", 303, lambda r: r.randrange(0x10), (0xC1FE0000, 0xDC3B62A3)),
    )
    for element, seed, draw, words in specs:
        rng = random.Random(seed)
        for index, word in enumerate(words):
            a = [draw(rng) for _ in range(32)]
            b = [draw(rng) for _ in range(32)]
            c = finite_f32(rng)
            yield line("f8f6f4-%s-%d" % (element, index), PRESETS[element], element, a, b, c, [ONE_E8M0],
                       [ONE_E8M0], word)


def edge_words():
    """Single-product kind::f8f6f4 words: zero with -0 C, the smallest subnormal, NaN, infinity."""
    for element, one, subnormal_result, nan, infinity in (("e4m3", 0x38, 0x3B000000, 0x7F, None),
                                                           ("e5m2", 0x3C, 0x37800000, 0x7F, 0x7C)):
        preset = PRESETS[element]

        def case(name, a0, b0, c, word):
            return line("%s-%s" % (element, name), preset, element, [a0] + [0] * 31, [b0] + [0] * 31, c,
                        [ONE_E8M0], [ONE_E8M0], word)

        yield case("negative-zero", 0, 0, 0x80000000, 0)
        yield case("minimum-subnormal", 0x01, one, 0, subnormal_result)
        yield case("nan", nan, one, 0, 0x7FFFFFFF)
        if infinity is not None:
            yield case("infinity", infinity, one, 0, 0x7F800000)
            yield case("infinity-times-zero", infinity, 0, 0, 0x7FFFFFFF)


def block_scaled_words():
    rng = random.Random(910)
    a = [rng.randrange(16) for _ in range(32)]
    b = [rng.randrange(16) for _ in range(32)]
    scale_a = rng.randrange(115, 140)
    scale_b = rng.randrange(115, 140)
    yield line("mxf8f6f4-e2m1", "nvidia_b200_mxf8f6f4_e2m1", "e2m1", a, b, 0, [scale_a], [scale_b], 0x3F094000)
    yield line("mxf8f6f4-scale-nan", "nvidia_b200_mxf8f6f4_e2m1", "e2m1", [1] * 32, [1] * 32, 0, [0xFF],
               [ONE_E8M0], 0x7FFFFFFF)

    # UE8M0 scale_vec::2X (a scale per 32 k): kind::mxf4, and the same scaling through kind::mxf4nvf4;
    # scale_vec::4X (a scale per 16 k, kind::mxf4nvf4 only).
    for name, preset, seed, scales, word in (("mxf4-2x", "nvidia_b200_mxfp4", 920, 2, 0x46BA8000),
                                             ("mxf4nvf4-2x", "nvidia_b200_mxfp4", 921, 2, 0x40580000),
                                             ("mxf4nvf4-4x", "nvidia_b200_mxfp4_4x", 922, 4, 0xC6A88896)):
        rng = random.Random(seed)
        a = [rng.randrange(16) for _ in range(64)]
        b = [rng.randrange(16) for _ in range(64)]
        scale_a = [rng.randrange(115, 140) for _ in range(scales)]
        scale_b = [rng.randrange(115, 140) for _ in range(scales)]
        yield line(name, preset, "e2m1", a, b, 0, scale_a, scale_b, word)

    rng = random.Random(700)
    for index, word in enumerate((0x4429730B, 0xC30545D3)):
        a = [rng.randrange(16) for _ in range(64)]
        b = [rng.randrange(16) for _ in range(64)]
        c = finite_f32(rng)
        scale_a = [rng.randrange(0x77) for _ in range(4)]
        scale_b = [rng.randrange(0x77) for _ in range(4)]
        yield line("nvfp4-%d" % index, "nvidia_b200_nvfp4", "e2m1", a, b, c, scale_a, scale_b, word)
    yield line("nvfp4-scale-nan", "nvidia_b200_nvfp4", "e2m1", [1] * 64, [1] * 64, 0, [0x7F, 0x38, 0x38, 0x38],
               [0x38] * 4, 0x7FFFFFFF)
    carry_a = bytes.fromhex("0e 0e 0b 06 00 08 0f 09 0a 0b 03 09 0f 07 0e 00 "
                            "02 06 01 05 0a 08 06 04 07 0c 06 0b 01 0c 06 0d "
                            "0b 0b 08 06 0c 08 0c 05 00 04 01 0f 01 06 0f 05 "
                            "02 04 06 05 0a 07 0b 07 00 01 0a 0d 0b 0f 0e 07")
    carry_b = bytes.fromhex("06 0c 0b 02 08 09 0b 04 03 0d 02 09 09 0c 01 08 "
                            "07 02 06 03 0d 02 09 0a 05 09 0f 05 0a 08 06 00 "
                            "08 0d 0d 02 0c 0c 05 02 08 03 04 0f 0f 01 01 0a "
                            "0b 0a 05 0b 0f 03 0b 0e 0a 05 07 01 01 07 08 0a")
    yield line("nvfp4-k4-product-carry", "nvidia_b200_nvfp4", "e2m1", list(carry_a), list(carry_b), 0x094E5986,
               [0x09, 0x7C, 0x6D, 0x44], [0x07, 0x78, 0x26, 0x79], 0x49FCAFB7)


def main():
    out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
    for words in (unscaled_words(), edge_words(), block_scaled_words()):
        for text in words:
            print(text, file=out)


if __name__ == "__main__":
    main()
