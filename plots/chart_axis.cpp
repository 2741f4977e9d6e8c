// The Qt Charts axes of a plot model's axes.
#include "plots/chart_axis.hpp"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QLogValueAxis>
#include <QValueAxis>

namespace floatscope::plots {
namespace {

// More category labels than this overlap at the usual plot width; the axis then shows numbers
// and the tooltips the labels.
constexpr std::size_t max_tick_labels = 16;
// Upright (-90 degrees) labels are a line of text apart: about 40 fit a plot 600 pixels wide.
constexpr std::size_t max_upright_labels = 40;

QString text(const std::string& s) { return QString::fromStdString(s); }

/// 1, 2 or 5 times a power of ten, at least `step`: tick intervals people read easily.
double nice_step(double step) {
    const double power = std::pow(10.0, std::floor(std::log10(step)));
    for (const double factor : {1.0, 2.0, 5.0})
        if (factor * power >= step) return factor * power;
    return 10 * power;
}

}  // namespace

QAbstractAxis* make_axis(const Axis& axis, AxisRange range, bool integer_positions, double most_power_labels) {
    if (axis.scale == AxisScale::Log) {
        auto* log_axis = new QLogValueAxis;
        // A label at every power of the base, but not more than fit: over more powers (n = 1 ..
        // 8192 on a base-2 x axis) the labels go to every 2nd, 3rd ... power, or Qt elides them all.
        const double all_powers = std::log(range.max / range.min) / std::log(axis.log_base);
        const double step = std::max(1.0, std::ceil(all_powers / most_power_labels));
        log_axis->setBase(std::pow(axis.log_base, step));
        log_axis->setLabelFormat("%g");
        // A shade beyond the powers at the ends: Qt labels the powers from ceil(log(min) / log(base)),
        // and log(0.001) / log(10) = -2.9999999999999996 left 0.001 unlabelled (a one-decade axis
        // then showed a single number).
        constexpr double shade = 1e-9;
        log_axis->setRange(range.min * (1 - shade), range.max * (1 + shade));
        // Minor ticks at 2..9 times each power (Qt: -1) help over a few decades and clutter more.
        const double powers = all_powers / step;
        log_axis->setMinorTickCount(powers <= 6 ? -1 : 0);
        log_axis->setTitleText(text(axis.label));
        return log_axis;
    }
    // Names standing upright fit more of them (an ONNX graph's nodes).
    const std::size_t most_labels = axis.named_ticks ? max_upright_labels : max_tick_labels;
    if ((axis.categorical || axis.named_ticks) && !axis.ticks.empty() && axis.ticks.size() <= most_labels) {
        auto* category_axis = new QCategoryAxis;
        category_axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        // A label each in its own category; Qt elides a label wider than its category, and at
        // -45 degrees still cut "layer 1: h = h * 0.5 + 1": names too long to sit side by side
        // stand upright, where Qt gives them their whole length.
        const QStringList labels = category_labels(axis);
        qsizetype longest = 0;
        for (const QString& label : labels) longest = std::max(longest, label.size());
        label_every(*category_axis, axis, range, 1);
        category_axis->setRange(range.min, range.max);
        category_axis->setTitleText(text(axis.label));
        constexpr qsizetype characters_per_category = 100;  // of a plot about 1000 pixels wide
        if (longest * static_cast<qsizetype>(axis.ticks.size()) > characters_per_category ||
            axis.ticks.size() > max_tick_labels)
            category_axis->setLabelsAngle(-90);
        return category_axis;
    }
    auto* value_axis = new QValueAxis;
    value_axis->setRange(range.min, range.max);
    value_axis->setLabelFormat("%g");
    if (!axis.range && !integer_positions) value_axis->applyNiceNumbers();  // ticks at 0.2, 0.4, not 0.301875
    if (integer_positions) {
        // Region indices and log2 bins are whole numbers: ticks at whole, evenly spaced numbers.
        value_axis->setTickType(QValueAxis::TicksDynamic);
        value_axis->setTickAnchor(0);
        value_axis->setTickInterval(nice_step(std::max(1.0, (range.max - range.min) / 10)));
    }
    value_axis->setTitleText(text(axis.label));
    return value_axis;
}

double axis_min(QAbstractAxis* axis) {
    if (auto* log_axis = qobject_cast<QLogValueAxis*>(axis)) return log_axis->min();
    return static_cast<QValueAxis*>(axis)->min();
}
double axis_max(QAbstractAxis* axis) {
    if (auto* log_axis = qobject_cast<QLogValueAxis*>(axis)) return log_axis->max();
    return static_cast<QValueAxis*>(axis)->max();
}

QStringList category_labels(const Axis& axis) {
    QStringList labels;
    for (const AxisTick& tick : axis.ticks) {
        QString label = text(tick.label);
        // Upright names take the plot's height: a long ONNX path keeps its end, the node's own
        // name and op ("…/self_attn/MatMul (MatMul)"), the whole name in the tooltips.
        constexpr qsizetype longest_name = 26;
        if (axis.named_ticks && label.size() > longest_name) label = QChar(0x2026) + label.right(longest_name - 1);
        // Qt takes a label once: a repeated one (two unnamed Relu nodes) gets its position.
        if (labels.contains(label)) label += QStringLiteral(" [%1]").arg(tick.value);
        labels << label;
    }
    return labels;
}

void label_every(QCategoryAxis& category_axis, const Axis& axis, AxisRange range, int every) {
    for (const QString& label : category_axis.categoriesLabels()) category_axis.remove(label);
    const QStringList labels = category_labels(axis);
    for (std::size_t i = 0; i < axis.ticks.size(); i += static_cast<std::size_t>(every)) {
        const double value = axis.ticks[i].value;
        if (value >= range.min && value <= range.max) category_axis.append(labels[static_cast<qsizetype>(i)], value);
    }
}

}  // namespace floatscope::plots
