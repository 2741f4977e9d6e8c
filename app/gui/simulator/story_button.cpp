// StoryButton: an arrow, the title in bold, the summary wrapped below it; the text scales with the font.
#include "app/gui/simulator/story_button.hpp"

#include <QIcon>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionFocusRect>
#include <algorithm>

namespace floatscope::gui {

namespace {

constexpr int unbounded_height = 1 << 20;

}  // namespace

StoryButton::StoryButton(const QString& title, const QString& summary, QWidget* parent)
    : QAbstractButton(parent), summary_(summary) {
    setText(title);
    setIcon(QIcon::fromTheme(QStringLiteral("go-next"), style()->standardIcon(QStyle::SP_ArrowRight)));
    setCursor(Qt::PointingHandCursor);
    setAttribute(Qt::WA_Hover);  // repaints on entering and leaving: the hover shade
    setAccessibleDescription(summary);
    // Height for the width it gets; a Preferred height may exceed the hint of a narrow button.
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QFont StoryButton::title_font() const {
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    return bold;
}

int StoryButton::margin() const { return fontMetrics().height() / 2; }

int StoryButton::icon_extent() const { return QFontMetrics(title_font()).height(); }

QRect StoryButton::title_rect(int width) const {
    const int left = 2 * margin() + icon_extent();
    const int text_width = std::max(1, width - left - margin());
    const QRect bound =
        QFontMetrics(title_font()).boundingRect(QRect(0, 0, text_width, unbounded_height), Qt::TextWordWrap, text());
    return {left, margin(), text_width, bound.height()};
}

QRect StoryButton::summary_rect(int width) const {
    const QRect title = title_rect(width);
    const QRect bound =
        fontMetrics().boundingRect(QRect(0, 0, title.width(), unbounded_height), Qt::TextWordWrap, summary_);
    return {title.left(), title.bottom() + 1 + margin() / 3, title.width(), bound.height()};
}

int StoryButton::heightForWidth(int width) const { return summary_rect(width).bottom() + 1 + margin(); }

QSize StoryButton::sizeHint() const {
    const int width = fontMetrics().averageCharWidth() * 80;
    return {width, heightForWidth(width)};
}

QSize StoryButton::minimumSizeHint() const {
    // The layouts take the height from heightForWidth; a minimum from a narrow width would be far
    // taller than the button needs at its real width, and make the page scroll for nothing.
    return {fontMetrics().averageCharWidth() * 24, icon_extent() + 2 * margin()};
}

void StoryButton::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const bool hovered = underMouse() || isDown();
    if (hovered) {
        QColor shade = palette().color(QPalette::Highlight);
        shade.setAlpha(isDown() ? 70 : 35);
        painter.fillRect(rect(), shade);
    }
    if (hasFocus()) {
        QStyleOptionFocusRect focus;
        focus.initFrom(this);
        style()->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, &painter, this);
    }
    const int extent = icon_extent();
    icon().paint(&painter, QRect(margin(), margin(), extent, extent));
    painter.setPen(palette().color(QPalette::WindowText));
    painter.setFont(title_font());
    painter.drawText(title_rect(width()), Qt::TextWordWrap, text());
    painter.setFont(font());
    painter.drawText(summary_rect(width()), Qt::TextWordWrap, summary_);
}

}  // namespace floatscope::gui
