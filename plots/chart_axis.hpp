// The Qt Charts axes of a plot model's axes: log, categorical (named ticks) and value axes, with
// ticks people read easily; and the range an axis shows.
#pragma once

#include <QAbstractAxis>
#include <QCategoryAxis>
#include <QStringList>

#include "plots/axis_fit.hpp"
#include "plots/plot_model.hpp"

namespace floatscope::plots {

/// The chart axis for `axis` over `range`. `integer_positions`: ticks at whole, evenly spaced numbers
/// (region indices, log2 bins); `most_power_labels`: the labels a log axis shows at most (a
/// horizontal axis has room for fewer). The caller owns the axis (a chart takes it with addAxis).
QAbstractAxis* make_axis(const Axis& axis, AxisRange range, bool integer_positions, double most_power_labels);

/// The labels of an axis's ticks on a category axis: a long name of named ticks keeps its end (the
/// whole name is in the tooltips), a repeated one gets its position.
QStringList category_labels(const Axis& axis);

/// Makes every `every`-th of `axis`'s ticks within `range` a category of `category_axis`, labelled
/// (the ticks between have none): an upright label needs its category to be a line of text wide,
/// and Qt draws the label of a narrower one as "..." (33 ONNX nodes on a plot 600 pixels wide).
void label_every(QCategoryAxis& category_axis, const Axis& axis, AxisRange range, int every);

/// The visible range's ends of a value or log axis.
double axis_min(QAbstractAxis* axis);
double axis_max(QAbstractAxis* axis);

}  // namespace floatscope::plots
