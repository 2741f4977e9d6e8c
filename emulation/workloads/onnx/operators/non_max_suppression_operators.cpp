// ONNX's NonMaxSuppression (10, 11: the same definition): per batch and class, the boxes in order
// of descending score, each kept unless it overlaps a kept one by more than iou_threshold, at most
// max_output_boxes_per_class of them. The overlaps (intersection over union) are the node's
// arithmetic and the comparisons with the thresholds are made on values of the compute format, so
// that a policy may select otherwise than the truth: graph_evaluation.cpp reports the selection as
// the node's decisions. Where the specification leaves it open, as onnxruntime: scores above the
// threshold (strictly), equal scores in box order, boxes of no area or no overlap never suppressed;
// a NaN score is never selected.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

/// A box's extent along its two axes, as lower and upper corners.
template <class Number>
struct Corners {
    std::array<Number, 2> low, high;
};

/// The box's corners from its four values: [y1, x1, y2, x2] with the corners in either order
/// (center_point_box 0), or [x_center, y_center, width, height] (1).
template <class Numerics>
Corners<typename Numerics::Number> corners_of(const Numerics& n, const typename Numerics::Number* box,
                                              bool center_point) {
    Corners<typename Numerics::Number> c;
    for (std::size_t axis = 0; axis < 2; ++axis) {
        if (center_point) {
            const auto half = n.div(box[axis + 2], n.from_double(2));
            c.low[axis] = n.sub(box[axis], half);
            c.high[axis] = n.add(box[axis], half);
            continue;
        }
        const auto a = n.operand(box[axis]), b = n.operand(box[axis + 2]);
        const bool ordered = !n.less(b, a);
        c.low[axis] = ordered ? a : b;
        c.high[axis] = ordered ? b : a;
    }
    return c;
}

/// Whether the intersection over union of boxes a and b exceeds `threshold`.
template <class Numerics>
bool overlaps_beyond(const Numerics& n, const Corners<typename Numerics::Number>& a,
                     const Corners<typename Numerics::Number>& b, const typename Numerics::Number& threshold) {
    using Number = typename Numerics::Number;
    const Number zero = n.from_double(0);
    std::array<Number, 2> extent;
    for (std::size_t axis = 0; axis < 2; ++axis) {
        const Number low = n.less(a.low[axis], b.low[axis]) ? b.low[axis] : a.low[axis];
        const Number high = n.less(a.high[axis], b.high[axis]) ? a.high[axis] : b.high[axis];
        if (!n.less(low, high)) return false;  // no overlap along this axis
        extent[axis] = n.sub(high, low);
    }
    const Number intersection = n.mul(extent[0], extent[1]);
    const Number area_a = n.mul(n.sub(a.high[0], a.low[0]), n.sub(a.high[1], a.low[1]));
    const Number area_b = n.mul(n.sub(b.high[0], b.low[0]), n.sub(b.high[1], b.low[1]));
    const Number union_area = n.sub(n.add(area_a, area_b), intersection);
    if (!n.less(zero, intersection) || !n.less(zero, area_a) || !n.less(zero, area_b) || !n.less(zero, union_area))
        return false;
    return n.less(n.operand(threshold), n.div(intersection, union_area));
}

/// The one value of optional input `index` (a scalar or a list of one), or nullptr where it is omitted.
template <class Number>
const Tensor<Number>* single_value(const Tensor<Number>* t, std::size_t index, const Node& node) {
    if (t && t->size() != 1)
        throw Error(fmt::format("{}: input {} has shape {}; one value is required", node.describe(), index,
                                describe(t->shape)));
    return t;
}

template <class Numerics>
Outputs<Numerics> non_max_suppression(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const auto& n = call.numerics;
    node.check_attributes({"center_point_box"});
    const std::int64_t center_point_box = node.int_attribute("center_point_box", 0);
    if (center_point_box != 0 && center_point_box != 1)
        throw Error(
            fmt::format("{}: center_point_box is {}; 0 ([y1, x1, y2, x2]) or 1 ([x_center, y_center, width, "
                        "height]) is required",
                        node.describe(), center_point_box));
    const auto &boxes = call.input(0), &scores = call.input(1);
    require_floating(boxes, 0, node);
    require_floating(scores, 1, node);
    if (boxes.shape.size() != 3 || boxes.shape[2] != 4)
        throw Error(fmt::format("{}: boxes has shape {}; [batches, boxes, 4] is required", node.describe(),
                                describe(boxes.shape)));
    if (scores.shape.size() != 3 || scores.shape[0] != boxes.shape[0] || scores.shape[2] != boxes.shape[1])
        throw Error(fmt::format("{}: scores has shape {}; [{}, classes, {}] is required by boxes of shape {}",
                                node.describe(), describe(scores.shape), boxes.shape[0], boxes.shape[1],
                                describe(boxes.shape)));
    const Tensor<Number>* limit = single_value(call.optional_input(2), 2, node);
    const std::int64_t most = limit ? std::max<std::int64_t>(integer_list(*limit, 2, node).front(), 0) : 0;
    const Tensor<Number>* iou = single_value(call.optional_input(3), 3, node);
    const Tensor<Number>* score_floor = single_value(call.optional_input(4), 4, node);
    if (iou) require_floating(*iou, 3, node);
    if (score_floor) require_floating(*score_floor, 4, node);
    const Number iou_threshold = iou ? iou->numbers.front() : n.from_double(0);

    const auto batches = static_cast<std::size_t>(boxes.shape[0]), classes = static_cast<std::size_t>(scores.shape[1]),
               count = static_cast<std::size_t>(boxes.shape[1]);
    std::vector<std::int64_t> selected;
    std::vector<Corners<Number>> corners(count);
    std::vector<std::size_t> order, kept;
    for (std::size_t b = 0; b < batches; ++b) {
        for (std::size_t i = 0; i < count; ++i)
            corners[i] = corners_of(n, &boxes.numbers[(b * count + i) * 4], center_point_box == 1);
        for (std::size_t c = 0; c < classes; ++c) {
            const Number* score = &scores.numbers[(b * classes + c) * count];
            order.clear();
            for (std::size_t i = 0; i < count; ++i)
                if (!n.is_nan(score[i]) &&
                    (!score_floor || n.less(n.operand(score_floor->numbers.front()), n.operand(score[i]))))
                    order.push_back(i);
            std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
                return n.less(n.operand(score[j]), n.operand(score[i]));
            });
            kept.clear();
            for (std::size_t i : order) {
                if (static_cast<std::int64_t>(kept.size()) >= most) break;
                const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](std::size_t k) {
                    return overlaps_beyond(n, corners[k], corners[i], iou_threshold);
                });
                if (suppressed) continue;
                kept.push_back(i);
                selected.insert(selected.end(), {static_cast<std::int64_t>(b), static_cast<std::int64_t>(c),
                                                 static_cast<std::int64_t>(i)});
            }
        }
    }
    const auto rows = static_cast<std::int64_t>(selected.size() / 3);
    return {integer_tensor<Number>(ElementType::Int64, {rows, 3}, std::move(selected))};
}

}  // namespace

void add_non_max_suppression_operators(OperatorTable& table) {
    table.add("NonMaxSuppression", [](const auto& call) { return non_max_suppression(call); });
}

}  // namespace floatscope::emu::onnx
