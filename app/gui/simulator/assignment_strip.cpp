// The strip: cells as wide as the widget allows, unit names inside (elided), the legend beneath.
#include "app/gui/simulator/assignment_strip.hpp"

#include <QEvent>
#include <QPainter>
#include <algorithm>

#include "plots/plot_chart_view.hpp"

namespace floatscope::gui {

namespace {

// Heights in lines of the widget's font, so that presentation mode's larger text fits.
int cell_height(const QFontMetrics& font) { return 2 * font.height(); }
int legend_height(const QFontMetrics& font) { return font.height() + 6; }

/// Black or white, whichever reads better on `background` (the palette has light and dark hues).
QColor text_on(QColor background) { return background.lightnessF() > 0.6 ? Qt::black : Qt::white; }

}  // namespace

AssignmentStrip::AssignmentStrip(plots::SeriesColours& colours, QWidget* parent) : QWidget(parent), colours_(colours) {
    setObjectName(QStringLiteral("assignment_strip"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void AssignmentStrip::set_assignment(std::vector<UnitSetting> settings) {
    settings_ = std::move(settings);
    shown_ = true;
    QStringList tip;
    for (const UnitSetting& s : settings_)
        tip << QStringLiteral("%1: %2").arg(QString::fromStdString(s.unit), QString::fromStdString(s.setting));
    setToolTip(tip.join('\n'));
    update();
}

std::vector<std::string> AssignmentStrip::legend() const {
    std::vector<std::string> entries;
    for (const UnitSetting& s : settings_)
        if (std::find(entries.begin(), entries.end(), s.setting) == entries.end()) entries.push_back(s.setting);
    return entries;
}

QSize AssignmentStrip::sizeHint() const { return {400, cell_height(fontMetrics()) + legend_height(fontMetrics()) + 4}; }
QSize AssignmentStrip::minimumSizeHint() const { return {100, sizeHint().height()}; }

void AssignmentStrip::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) updateGeometry();
    QWidget::changeEvent(event);
}

void AssignmentStrip::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    if (!shown_) return;
    if (settings_.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, QStringLiteral("No recommendation: nothing met the target."));
        return;
    }
    const double cell = static_cast<double>(width() - 1) / static_cast<double>(settings_.size());
    for (std::size_t i = 0; i < settings_.size(); ++i) {
        const QRectF box(static_cast<double>(i) * cell, 0, cell, cell_height(fontMetrics()));
        const QColor colour = plots::series_colour(colours_.position(settings_[i].setting));
        painter.fillRect(box, colour);
        painter.setPen(palette().color(QPalette::Window));
        painter.drawRect(box);
        painter.setPen(text_on(colour));
        const QString name = QString::fromStdString(settings_[i].unit);
        painter.drawText(box.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                         painter.fontMetrics().elidedText(name, Qt::ElideMiddle, static_cast<int>(cell) - 4));
    }
    // The legend: a swatch and the setting's name for each, in a row.
    int x = 0;
    const int y = cell_height(fontMetrics()) + 4;
    const int line = fontMetrics().height();
    painter.setPen(palette().color(QPalette::WindowText));
    for (const std::string& entry : legend()) {
        const QString text = QString::fromStdString(entry);
        painter.fillRect(QRect(x, y + 2, line - 4, line - 4), plots::series_colour(colours_.position(entry)));
        painter.drawText(QRect(x + line, y, width(), line), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += line + painter.fontMetrics().horizontalAdvance(text) + line;
    }
}

}  // namespace floatscope::gui
