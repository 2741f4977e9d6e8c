#!/usr/bin/python3
"""Writes ONNX models of the signal and text operators at opset 17 (TfIdfVectorizer at 9), in the
branches ONNX's own node tests leave out, with inputs and float64 NumPy references computed here from
ONNX's operator specification (onnx/docs/Operators.md), independently of FloatScope: transforms by
numpy.fft, the mel filters by ONNX's formula in float64, n-grams counted by enumerating every start
and skip.

  dft_onesided_padded     DFT of a real signal along axis 1, dft_length 8 > 6 (zero-padded), onesided
  dft_complex_truncated   DFT of a complex signal along axis 2, dft_length 5 < 7 (the first 5 samples)
  dft_inverse_padded      inverse DFT of a complex signal along axis 2, dft_length 9 > 6
  dft17_default_axis      DFT-17 without axis: axis 1 of [2, 5, 3, 1]
  dft20_axis_input        DFT-20 of a real signal along axis 1, given as input 2
  dft20_default_axis      DFT-20 of a complex signal, axis left out (-2: axis 2 of [2, 3, 6, 2])
  stft_complex_window     STFT of a complex batch of 2, a window and frame_length both given,
                          onesided 0
  stft_real_odd           STFT of a real signal, frame_length 9 (odd), no window, onesided (default)
  mel_odd_length          MelWeightMatrix, 6 bands from 100 Hz to 7000 Hz at 16 kHz, dft_length 63
  tfidf_idf_int64         TfIdfVectorizer of int64 rows, mode IDF, 1- to 3-grams with skips up to 1
  tfidf_tfidf_int32       TfIdfVectorizer of one int32 row, mode TFIDF, 2- and 3-grams, skips up to 2
  dft_onesided_complex    (no reference) onesided DFT of a complex signal, which ONNX rules out

Beside each <name>.onnx: <name>_input_<i>.npy (the graph's inputs in order) and <name>_<output>.npy
(float64). Seeds fixed.

Usage: write_signal_models.py OUT_DIR
"""
import itertools
import sys

import numpy as np
from onnx import TensorProto, helper

from model_files import ModelFiles

if len(sys.argv) != 2:
    sys.exit(__doc__)
files = ModelFiles(sys.argv[1], "write_signal_models")
rng = np.random.default_rng(3617)
FLOAT = TensorProto.FLOAT


def elem(array):
    return {np.float32: FLOAT, np.int64: TensorProto.INT64, np.int32: TensorProto.INT32}[array.dtype.type]


def one_node(name, op, inputs, outputs, opset=17, **attributes):
    """inputs: [(name, array)] ('' for an omitted one); outputs: [(name, float64 reference)]. onnx 1.12's
    checker knows opsets to 17 only."""
    node = helper.make_node(op, [n for n, _ in inputs], [n for n, _ in outputs], **attributes)
    given = [(n, a) for n, a in inputs if n]
    files.model(name, opset, [node], [(n, elem(a), list(a.shape)) for n, a in given],
                [(n, FLOAT, list(r.shape)) for n, r in outputs], check=opset <= 17)
    files.data(name, [a for _, a in given], outputs)


def as_complex(x):
    """A signal's trailing dimension (1: real; 2: real, imaginary) as complex128."""
    x = x.astype(np.float64)
    return x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0] + 0j


def as_pairs(z):
    return np.stack([z.real, z.imag], axis=-1)


def signal(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


# DFT: X[k] = sum_n x[n] exp(-2 pi i k n / N) (numpy.fft.fft with n = dft_length pads or cuts);
# the inverse divides by N.
x = signal(2, 6, 3, 1)
one_node("dft_onesided_padded", "DFT", [("x", x), ("dft_length", np.array(8, np.int64))],
         [("y", as_pairs(np.fft.fft(as_complex(x), n=8, axis=1)[:, :5]))], axis=1, onesided=1)
x = signal(2, 3, 7, 2)
one_node("dft_complex_truncated", "DFT", [("x", x), ("dft_length", np.array(5, np.int64))],
         [("y", as_pairs(np.fft.fft(as_complex(x), n=5, axis=2)))], axis=2)
x = signal(1, 2, 6, 2)
one_node("dft_inverse_padded", "DFT", [("x", x), ("dft_length", np.array(9, np.int64))],
         [("y", as_pairs(np.fft.ifft(as_complex(x), n=9, axis=2)))], axis=2, inverse=1)
# DFT-17's axis left out is 1 (not DFT-20's -2, axis 2 here).
x = signal(2, 5, 3, 1)
one_node("dft17_default_axis", "DFT", [("x", x)], [("y", as_pairs(np.fft.fft(as_complex(x), axis=1)))])
# DFT-20: axis is input 2 (a scalar), -2 (the last before the components) when left out.
x = signal(2, 5, 3, 1)
one_node("dft20_axis_input", "DFT", [("x", x), ("", None), ("axis", np.array(1, np.int64))],
         [("y", as_pairs(np.fft.fft(as_complex(x), axis=1)))], opset=20)
x = signal(2, 3, 6, 2)
one_node("dft20_default_axis", "DFT", [("x", x)], [("y", as_pairs(np.fft.fft(as_complex(x), axis=2)))], opset=20)
x = signal(1, 4, 2)
one_node("dft_onesided_complex", "DFT", [("x", x)], [("y", np.zeros((1, 3, 2)))], onesided=1)


# STFT: frame f holds samples f * step .. f * step + frame_length - 1, times the window.
def stft(x, step, frame_length, window, onesided):
    z = as_complex(x)
    frames = (z.shape[1] - frame_length) // step + 1
    framed = np.stack([z[:, f * step:f * step + frame_length] for f in range(frames)], axis=1)
    spectra = np.fft.fft(framed * window.astype(np.float64), axis=2)
    return as_pairs(spectra[:, :, :frame_length // 2 + 1] if onesided else spectra)


x = signal(2, 40, 2)
window = rng.uniform(0, 1, 12).astype(np.float32)
step, length = np.array(5, np.int64), np.array(12, np.int64)
one_node("stft_complex_window", "STFT", [("signal", x), ("frame_step", step), ("window", window),
                                         ("frame_length", length)],
         [("output", stft(x, 5, 12, window, False))], onesided=0)
x = signal(1, 33, 1)
step, length = np.array(4, np.int64), np.array(9, np.int64)
one_node("stft_real_odd", "STFT", [("signal", x), ("frame_step", step), ("", None), ("frame_length", length)],
         [("output", stft(x, 4, 9, np.ones(9), True))])


# MelWeightMatrix: num_mel_bins + 2 edges spaced by (mel(upper) - mel(lower)) / (num_mel_bins + 2)
# on mel(f) = 2595 log10(1 + f / 700), in bins floor((dft_length + 1) hz / sample_rate); band i rises
# linearly from edge i to 1 at edge i + 1 and falls to 0 at edge i + 2.
def mel_weight_matrix(bands, dft_length, sample_rate, lower, upper):
    def mel(f):
        return 2595 * np.log10(1 + f / 700)

    step = (mel(upper) - mel(lower)) / (bands + 2)
    hertz = 700 * (10 ** ((mel(lower) + step * np.arange(bands + 2)) / 2595) - 1)
    positions = (dft_length + 1) * hertz / sample_rate
    # Far from a bin's boundary: float32 arithmetic puts each edge in the same bin.
    assert np.all(np.abs(positions - np.round(positions)) > 1e-3)
    edges = np.floor(positions).astype(int)
    w = np.zeros((dft_length // 2 + 1, bands))
    for i in range(bands):
        low, center, high = edges[i:i + 3]
        if center == low:
            w[center, i] = 1
        for j in range(low, center + 1 if center > low else low):
            w[j, i] = (j - low) / (center - low)
        for j in range(center, high):
            w[j, i] = (high - j) / (high - center)
    return w


inputs = [("num_mel_bins", np.array(6, np.int32)), ("dft_length", np.array(63, np.int32)),
          ("sample_rate", np.array(16000, np.int32)), ("lower_edge_hertz", np.array(100, np.float32)),
          ("upper_edge_hertz", np.array(7000, np.float32))]
one_node("mel_odd_length", "MelWeightMatrix", inputs,
         [("output", mel_weight_matrix(6, 63, 16000, 100.0, 7000.0))])


# TfIdfVectorizer: the n-grams of a row with skip s are x[i], x[i + s + 1], ..., each start i and
# skip 0 .. max_skip_count (a 1-gram once per position); Y[ngram_indexes[g]] counts pool n-gram g.
def tfidf(rows, pool_ngrams, indexes, weights, mode, min_n, max_n, max_skip):
    y = np.zeros((len(rows), max(indexes) + 1))
    for r, row in enumerate(rows):
        found = []
        for n in range(min_n, max_n + 1):
            for skip in range(max_skip + 1 if n > 1 else 1):
                for i in range(len(row) - (n - 1) * (skip + 1)):
                    found.append(tuple(row[i:i + (n - 1) * (skip + 1) + 1:skip + 1]))
        for g, gram in enumerate(pool_ngrams):
            count = found.count(tuple(gram))
            scale = np.float64(np.float32(weights[g]))
            y[r, indexes[g]] = {"TF": count, "IDF": min(count, 1) * scale, "TFIDF": count * scale}[mode]
    return y


def tfidf_model(name, x, grams_by_n, mode, min_n, max_n, max_skip):
    pool = [token for n in sorted(grams_by_n) for gram in grams_by_n[n] for token in gram]
    counts = list(itertools.accumulate([0] + [len(grams_by_n[n]) * n for n in sorted(grams_by_n)][:-1]))
    grams = [gram for n in sorted(grams_by_n) for gram in grams_by_n[n]]
    indexes = list(rng.permutation(len(grams)))
    weights = list(rng.uniform(0.5, 3, len(grams)))
    y = tfidf(x.reshape(-1, x.shape[-1]).tolist(), grams, indexes, weights, mode, min_n, max_n, max_skip)
    one_node(name, "TfIdfVectorizer", [("X", x)], [("Y", y.reshape(x.shape[:-1] + (y.shape[1],)))], opset=9,
             mode=mode, min_gram_length=min_n, max_gram_length=max_n, max_skip_count=max_skip,
             ngram_counts=counts, ngram_indexes=[int(i) for i in indexes], pool_int64s=pool, weights=weights)


tokens = rng.integers(1, 5, (2, 8)).astype(np.int64)
tfidf_model("tfidf_idf_int64", tokens, {1: [[1], [3]], 2: [[1, 2], [2, 2], [4, 1]], 3: [[1, 2, 3], [2, 4, 1]]},
            "IDF", 1, 3, 1)
tokens = rng.integers(1, 4, 14).astype(np.int32)
tfidf_model("tfidf_tfidf_int32", tokens, {1: [[2]], 2: [[1, 3], [3, 3], [2, 1]], 3: [[1, 1, 2], [3, 2, 1]]},
            "TFIDF", 2, 3, 2)
