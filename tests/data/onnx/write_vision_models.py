#!/usr/bin/python3
"""Writes one-node ONNX models of the detection and sampling operators, in the modes ONNX's node
tests leave out, with inputs and float64 NumPy reference outputs computed here, independently of
FloatScope, from ONNX's Operators.md and, where it leaves a choice open, onnxruntime's CPU kernels
(RoiAlign's max mode, MaxUnpool's output_shape growth, GridSample's padding of a location):

  nms_center_opset11       NonMaxSuppression-11, center_point_box 1: 2 batches, 2 classes, 7 boxes
                           (one of no area, two of equal scores), max 3 per class, IoU 0.4, score 0.2
  nms_flip_opset11         two boxes whose IoU is 1 / 1.998 (just above the threshold 0.5) in
                           float but 0.5 once 1.998 is rounded to bfloat16's 2: fp32 suppresses the
                           second box, bf16 keeps it (the selection is the node's decision)
  roi_align_max_opset16    RoiAlign-16 mode max, half_pixel, sampling_ratio 0 (adaptive),
                           spatial_scale 0.5, rois partly outside X
  roi_align_opset10        RoiAlign-10 (output_half_pixel: rois of extent under 1 widened to 1),
                           mode avg, sampling_ratio 2, output 3 x 2
  max_unpool_opset11       MaxUnpool-11 of a MaxPool with kernel 3, stride 2, pads 1: without and
                           with an output_shape grown by the kernel size on one axis, by 1 on the other
  grid_sample_opset16      GridSample-16 bicubic with border and with reflection padding, nearest
                           with reflection and align_corners, bilinear with border and align_corners;
                           grid locations reaching 1.7 past the edges

Beside each <name>.onnx: <name>_input_<i>.npy (float32, int64 indices) and <name>_<output>.npy
for each graph output (float64; int64 for selected indices). Seeds are fixed.

Usage: write_vision_models.py OUT_DIR
"""
import math
import sys

import numpy as np
from onnx import TensorProto

from model_files import ModelFiles, node

if len(sys.argv) != 2:
    sys.exit(__doc__)
files = ModelFiles(sys.argv[1], "write_vision_models.py")
model, data = files.model, files.data
rng = np.random.default_rng(3616)
f32 = np.float32
FLOAT, INT64 = TensorProto.FLOAT, TensorProto.INT64


# ---- NonMaxSuppression -----------------------------------------------------------------------------------

def corners(box, center):
    """[(y_low, y_high), (x_low, x_high)] of a box."""
    if center:
        xc, yc, w, h = box
        return [(yc - h / 2, yc + h / 2), (xc - w / 2, xc + w / 2)]
    y1, x1, y2, x2 = box
    return [(min(y1, y2), max(y1, y2)), (min(x1, x2), max(x1, x2))]


def iou(a, b):
    extents = [min(a[i][1], b[i][1]) - max(a[i][0], b[i][0]) for i in range(2)]
    if min(extents) <= 0:
        return 0.0
    inter = extents[0] * extents[1]
    area_a = (a[0][1] - a[0][0]) * (a[1][1] - a[1][0])
    area_b = (b[0][1] - b[0][0]) * (b[1][1] - b[1][0])
    if area_a <= 0 or area_b <= 0:
        return 0.0
    return inter / (area_a + area_b - inter)


def nms(boxes, scores, most, iou_threshold, score_threshold, center):
    selected = []
    for b in range(boxes.shape[0]):
        c_boxes = [corners(box, center) for box in boxes[b].astype(np.float64)]
        for c in range(scores.shape[1]):
            s = scores[b, c].astype(np.float64)
            # Descending score, the lower index first among equals (a stable sort of -score).
            order = [i for i in np.argsort(-s, kind="stable") if s[i] > score_threshold]
            kept = []
            for i in order:
                if len(kept) == most:
                    break
                if all(iou(c_boxes[k], c_boxes[i]) <= iou_threshold for k in kept):
                    kept.append(i)
                    selected.append([b, c, i])
    return np.array(selected, np.int64).reshape(-1, 3)


def nms_model(name, boxes, scores, most, iou_threshold, score_threshold, center):
    model(name, 11, [node("NonMaxSuppression", ["boxes", "scores", "most", "iou", "score"], ["selected"],
                          center_point_box=center)],
          [("boxes", FLOAT, list(boxes.shape)), ("scores", FLOAT, list(scores.shape)), ("most", INT64, [1]),
           ("iou", FLOAT, [1]), ("score", FLOAT, [1])], [("selected", INT64, [None, 3])])
    inputs = [boxes, scores, np.array([most], np.int64), np.array([iou_threshold], f32),
              np.array([score_threshold], f32)]
    reference = nms(boxes, scores, most, float(f32(iou_threshold)), float(f32(score_threshold)), center)
    data(name, inputs, [("selected", reference)])
    return reference


centres = rng.uniform(0, 1.5, (2, 7, 2))
sizes = rng.uniform(0.8, 2, (2, 7, 2))
boxes = np.concatenate([centres, sizes], axis=2).astype(f32)
boxes[0, 3, 2] = 0  # no area: never suppressed, never suppresses
scores = rng.uniform(0, 1, (2, 2, 7)).astype(f32)
scores[1, 0, 2] = scores[1, 0, 5] = 0.875  # equal scores: box 2 first
selected = nms_model("nms_center_opset11", boxes, scores, 3, 0.4, 0.2, 1)
assert selected.tolist() != nms(boxes, scores, 3, 1.0, float(f32(0.2)), 1).tolist()  # some box suppressed
assert [1, 0, 2] in selected.tolist() and [1, 0, 5] in selected.tolist()

flip_boxes = np.array([[[0, 0, 1, 1], [0, 0, 1, 1.998]]], f32)
selected = nms_model("nms_flip_opset11", flip_boxes, np.array([[[0.9, 0.8]]], f32), 2, 0.5, 0.0, 0)
assert selected.tolist() == [[0, 0, 0]], selected


# ---- RoiAlign ----------------------------------------------------------------------------------------------

def bilinear_corners(plane, y, x):
    """The four weighted corners (w1 x1, ..., w4 x4) of a sample at (y, x), as onnxruntime takes them."""
    height, width = plane.shape
    if y < -1 or y > height or x < -1 or x > width:
        return [0.0] * 4
    y, x = max(y, 0.0), max(x, 0.0)
    y_low, x_low = int(math.floor(y)), int(math.floor(x))
    if y_low >= height - 1:
        y_low = y_high = height - 1
        y = float(y_low)
    else:
        y_high = y_low + 1
    if x_low >= width - 1:
        x_low = x_high = width - 1
        x = float(x_low)
    else:
        x_high = x_low + 1
    ly, lx = y - y_low, x - x_low
    hy, hx = 1 - ly, 1 - lx
    return [hy * hx * plane[y_low, x_low], hy * lx * plane[y_low, x_high], ly * hx * plane[y_high, x_low],
            ly * lx * plane[y_high, x_high]]


def roi_align(x, rois, batch, out_h, out_w, ratio, scale, mode, half_pixel):
    x, rois = x.astype(np.float64), rois.astype(np.float64)
    y = np.zeros((rois.shape[0], x.shape[1], out_h, out_w))
    offset = 0.5 if half_pixel else 0.0
    for r, (x1, y1, x2, y2) in enumerate(rois):
        start_w, start_h = x1 * scale - offset, y1 * scale - offset
        roi_w, roi_h = x2 * scale - offset - start_w, y2 * scale - offset - start_h
        if not half_pixel:
            roi_w, roi_h = max(roi_w, 1.0), max(roi_h, 1.0)
        bin_h, bin_w = roi_h / out_h, roi_w / out_w
        grid_h = ratio if ratio > 0 else max(0, math.ceil(roi_h / out_h))
        grid_w = ratio if ratio > 0 else max(0, math.ceil(roi_w / out_w))
        count = max(grid_h * grid_w, 1)
        for c in range(x.shape[1]):
            plane = x[batch[r], c]
            for ph in range(out_h):
                for pw in range(out_w):
                    samples = []
                    for iy in range(grid_h):
                        for ix in range(grid_w):
                            sy = start_h + ph * bin_h + (iy + 0.5) * bin_h / grid_h
                            sx = start_w + pw * bin_w + (ix + 0.5) * bin_w / grid_w
                            samples.append(bilinear_corners(plane, sy, sx))
                    if mode == "avg":
                        y[r, c, ph, pw] = sum(sum(s) for s in samples) / count
                    else:
                        y[r, c, ph, pw] = max(max(s) for s in samples) if samples else 0.0
    return y


def roi_align_model(name, opset, x, rois, batch, out_h, out_w, ratio, scale, mode, half_pixel, **attributes):
    model(name, opset, [node("RoiAlign", ["x", "rois", "batch"], ["y"], output_height=out_h, output_width=out_w,
                             sampling_ratio=ratio, spatial_scale=scale, mode=mode, **attributes)],
          [("x", FLOAT, list(x.shape)), ("rois", FLOAT, list(rois.shape)), ("batch", INT64, list(batch.shape))],
          [("y", FLOAT, [rois.shape[0], x.shape[1], out_h, out_w])])
    data(name, [x, rois, batch],
         [("y", roi_align(x, rois, batch, out_h, out_w, ratio, float(f32(scale)), mode, half_pixel))])


x = rng.standard_normal((2, 3, 6, 7)).astype(f32)
rois = np.array([[1.2, 0.5, 9.7, 8.1], [-3.0, -2.5, 4.4, 3.0], [6.0, 5.5, 16.0, 14.0]], f32)
roi_align_model("roi_align_max_opset16", 16, x, rois, np.array([1, 0, 1], np.int64), 2, 3, 0, 0.5, "max", True,
                coordinate_transformation_mode="half_pixel")
rois = np.array([[0.5, 1.25, 4.75, 5.5], [2.1, 2.0, 2.6, 2.4]], f32)  # the second under 1 x 1
roi_align_model("roi_align_opset10", 10, x, rois, np.array([0, 1], np.int64), 3, 2, 2, 1.0, "avg", False)


# ---- MaxUnpool ---------------------------------------------------------------------------------------------

def max_pool_indices(x, kernel, stride, pad):
    """MaxPool's values and flat indices (into x) of a 2-D pooling with equal pads on every side."""
    n, c, h, w = x.shape
    out_h, out_w = (h + 2 * pad - kernel) // stride + 1, (w + 2 * pad - kernel) // stride + 1
    values, indices = np.zeros((n, c, out_h, out_w), x.dtype), np.zeros((n, c, out_h, out_w), np.int64)
    for i in range(n):
        for j in range(c):
            for oy in range(out_h):
                for ox in range(out_w):
                    best = None
                    for ky in range(kernel):
                        for kx in range(kernel):
                            yy, xx = oy * stride - pad + ky, ox * stride - pad + kx
                            if 0 <= yy < h and 0 <= xx < w and (best is None or x[i, j, yy, xx] > x[i, j, best[0], best[1]]):
                                best = (yy, xx)
                    values[i, j, oy, ox] = x[i, j, best[0], best[1]]
                    indices[i, j, oy, ox] = ((i * c + j) * h + best[0]) * w + best[1]
    return values, indices


def max_unpool(values, indices, unpooled_shape, output_shape, kernel):
    unpooled = np.zeros(int(np.prod(unpooled_shape)))
    unpooled[indices.ravel()] = values.ravel()
    unpooled = unpooled.reshape(unpooled_shape)
    # Each spatial axis grown at its end, or by 1 at its beginning where it grows by the kernel size.
    pads = [(0, 0), (0, 0)]
    for d in (2, 3):
        more = output_shape[d] - unpooled_shape[d]
        pads.append((1, more - 1) if more == kernel else (0, more))
    return np.pad(unpooled, pads)


x = rng.standard_normal((1, 2, 7, 5)).astype(f32)
values, indices = max_pool_indices(x, 3, 2, 1)  # [1, 2, 4, 3], unpooled (4-1)*2 - 2 + 3 = 7 by (3-1)*2 - 2 + 3 = 5
unpooled_shape = (1, 2, 7, 5)
for name, output_shape in (("max_unpool_opset11", None), ("max_unpool_shape_opset11", (1, 2, 10, 6))):
    inputs = ["values", "indices"] + (["shape"] if output_shape else [])
    declared = [("values", FLOAT, list(values.shape)), ("indices", INT64, list(indices.shape))]
    model(name, 11, [node("MaxUnpool", inputs, ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])],
          declared + ([("shape", INT64, [4])] if output_shape else []), [("y", FLOAT, [1, 2, None, None])])
    data(name, [values, indices] + ([np.array(output_shape, np.int64)] if output_shape else []),
         [("y", max_unpool(values.astype(np.float64), indices, unpooled_shape, output_shape or unpooled_shape, 3))])


# ---- GridSample --------------------------------------------------------------------------------------------

def reflect(v, low, high):
    span = high - low
    if low <= v <= high:
        return v
    past = low - v if v < low else v - high
    flips = math.floor(past / span)
    rest = past - flips * span
    toward_high = (flips % 2 == 0) == (v < low)
    return low + rest if toward_high else high - rest


def cubic(t, a=-0.75):
    t = abs(t)
    if t <= 1:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    if t < 2:
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return 0.0


def grid_sample(x, grid, mode, padding, align):
    x, grid = x.astype(np.float64), grid.astype(np.float64)
    n, c, h, w = x.shape
    lengths = (w, h)
    bounds = [(0.0, length - 1.0) if align else (-0.5, length - 0.5) for length in lengths]

    def read(plane, row, column):
        if 0 <= row < h and 0 <= column < w:
            return plane[row, column]
        if padding == "zeros":
            return 0.0
        if padding == "reflection":
            column = int(reflect(column, *bounds[0]))
            row = int(reflect(row, *bounds[1]))
        return plane[min(max(row, 0), h - 1), min(max(column, 0), w - 1)]

    y = np.zeros((n, c, grid.shape[1], grid.shape[2]))
    for b in range(n):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                coords = []
                for axis in range(2):
                    g, length = grid[b, i, j, axis], lengths[axis]
                    v = (g + 1) / 2 * (length - 1) if align else ((g + 1) * length - 1) / 2
                    coords.append(float(np.rint(v)) if mode == "nearest" else v)
                if any(not bounds[a][0] <= coords[a] <= bounds[a][1] for a in range(2)):
                    for a in range(2):
                        if padding == "border":
                            coords[a] = min(max(coords[a], 0.0), lengths[a] - 1.0)
                        elif padding == "reflection":
                            coords[a] = reflect(coords[a], *bounds[a])
                cx, cy = coords
                for ch in range(c):
                    plane = x[b, ch]
                    if mode == "nearest":
                        y[b, ch, i, j] = read(plane, int(cy), int(cx))
                        continue
                    x0, y0 = math.floor(cx), math.floor(cy)
                    taps = range(0, 2) if mode == "bilinear" else range(-1, 3)
                    kernel = (lambda t: max(0.0, 1 - abs(t))) if mode == "bilinear" else cubic
                    y[b, ch, i, j] = sum(kernel(cy - (y0 + p)) * kernel(cx - (x0 + q)) * read(plane, y0 + p, x0 + q)
                                         for p in taps for q in taps)
    return y


x = rng.standard_normal((2, 2, 4, 5)).astype(f32)
grid = rng.uniform(-1.7, 1.7, (2, 3, 4, 2)).astype(f32)
grid[0, 0, 0] = [0.05, -1.6]  # x inside, y outside: border clamps both
variants = [("bicubic_border", "bicubic", "border", 0), ("bicubic_reflection", "bicubic", "reflection", 0),
            ("nearest_reflection", "nearest", "reflection", 1), ("bilinear_border", "bilinear", "border", 1)]
model("grid_sample_opset16", 16,
      [node("GridSample", ["x", "grid"], [name], mode=mode, padding_mode=padding, align_corners=align)
       for name, mode, padding, align in variants],
      [("x", FLOAT, [2, 2, 4, 5]), ("grid", FLOAT, [2, 3, 4, 2])],
      [(name, FLOAT, [2, 2, 3, 4]) for name, _, _, _ in variants])
data("grid_sample_opset16", [x, grid],
     [(name, grid_sample(x, grid, mode, padding, align)) for name, mode, padding, align in variants])
