#!/usr/bin/env python3
"""Khattak and Mikaitis's tensor-core data (../shared/testdata/tensor-cores) as `dot` lines.

Writes one line per instruction, `A_1 ... A_K ; B_1 ... B_K ; C ; D`: A and B as the data give them
(binary32 hex patterns), C and D as hex patterns of the output format. The first three fields are
what `floatscope-cli dot` reads; D is what the GPU returned.

The measurement's conventions (the data's README): for fp16 output, C was converted to fp16 with
round to nearest even before the instruction; the H100 and H200 FP8 fp32 outputs come from wgmma with
D initialised to zero, so C is 0 there. Every other set holds C (the FP8 fp16 outputs and the Ada
and B200 FP8 fp32 outputs come from mma.sync with C).
"""
import argparse
import gzip
import struct
import sys


def lines(path):
    with gzip.open(path, "rt") as f:
        return [line.strip() for line in f if line.strip()]


def fp16_hex_of_binary32(bits):
    """The fp16 pattern of the binary32 pattern's value, rounded to nearest even (struct's 'e')."""
    value = struct.unpack(">f", struct.pack(">I", bits))[0]
    return "%04X" % struct.unpack(">H", struct.pack(">e", value))[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="the data's folder (../shared/testdata/tensor-cores)")
    parser.add_argument("gpu", help="V100, A100, A2, Ada, H100, H200, B200")
    parser.add_argument("input", help="fp16, bf16, tf32, E4M3, E5M2")
    parser.add_argument("output", choices=["fp32", "fp16"])
    parser.add_argument("--every", type=int, default=1, help="keep every N-th line (for a subset)")
    args = parser.parse_args()
    folder = f"{args.data}/{args.gpu}/{args.input}"
    a = lines(f"{folder}/a_{args.gpu}_{args.input}.txt.gz")
    b = lines(f"{folder}/b_{args.gpu}_{args.input}.txt.gz")
    c = [int(x, 2) for x in lines(f"{folder}/c_{args.gpu}_fp32.txt.gz")]
    d = [int(x, 2) for x in lines(f"{folder}/d_{args.gpu}_{args.output}.txt.gz")]
    if not len(a) == len(b) == len(c) == len(d):
        sys.exit(f"{folder}: {len(a)} A, {len(b)} B, {len(c)} C and {len(d)} D lines; they must match")
    wgmma_without_c = args.input.startswith("E") and args.gpu in ("H100", "H200") and args.output == "fp32"
    for i in range(0, len(a), args.every):
        if args.output == "fp16":
            addend, result = fp16_hex_of_binary32(c[i]), fp16_hex_of_binary32(d[i])
        else:
            addend, result = "%08X" % (0 if wgmma_without_c else c[i]), "%08X" % d[i]
        print(f"{a[i].upper()} ; {b[i].upper()} ; {addend} ; {result}")


if __name__ == "__main__":
    main()
