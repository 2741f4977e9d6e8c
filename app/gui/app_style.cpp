// Palettes chosen for legibility on screens and projectors: dark text on near-white, or light text
// on slate, one blue accent for selection and links.
#include "app/gui/app_style.hpp"

#include <QApplication>
#include <QFont>
#include <QPainter>
#include <QPalette>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <QStyleHints>
#include <QWidget>

namespace floatscope::gui {

namespace {

double base_point_size = 10.5;
double scale_now = 1.0;

/// The colours a palette is made of; the roles that share a colour take it from one entry.
struct Scheme {
    QColor window, text, base, alternate_base, placeholder, button, highlight, tooltip_base, link, mid, disabled;
};

const Scheme light_scheme{QColor(0xF5, 0xF6, 0xF8), QColor(0x1F, 0x23, 0x28), Qt::white,
                          QColor(0xEE, 0xF1, 0xF5), QColor(0x6E, 0x77, 0x81), QColor(0xEA, 0xED, 0xF1),
                          QColor(0x1F, 0x6F, 0xEB), QColor(0xFF, 0xFD, 0xE7), QColor(0x0A, 0x58, 0xCA),
                          QColor(0xC9, 0xCE, 0xD6), QColor(0x9A, 0xA1, 0xA9)};
const Scheme dark_scheme{QColor(0x22, 0x27, 0x2E), QColor(0xE6, 0xE9, 0xED), QColor(0x1A, 0x1E, 0x24),
                         QColor(0x2A, 0x30, 0x38), QColor(0x8B, 0x94, 0x9E), QColor(0x2D, 0x33, 0x3B),
                         QColor(0x38, 0x8B, 0xFD), QColor(0x2D, 0x33, 0x3B), QColor(0x58, 0xA6, 0xFF),
                         QColor(0x44, 0x4C, 0x56), QColor(0x6E, 0x76, 0x81)};

QPalette palette_of(const Scheme& c) {
    QPalette p;
    p.setColor(QPalette::Window, c.window);
    p.setColor(QPalette::Base, c.base);
    p.setColor(QPalette::AlternateBase, c.alternate_base);
    p.setColor(QPalette::Button, c.button);
    p.setColor(QPalette::ToolTipBase, c.tooltip_base);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText})
        p.setColor(role, c.text);
    p.setColor(QPalette::PlaceholderText, c.placeholder);
    p.setColor(QPalette::Highlight, c.highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, c.link);
    p.setColor(QPalette::Mid, c.mid);
    for (QPalette::ColorRole role : {QPalette::Text, QPalette::ButtonText, QPalette::WindowText})
        p.setColor(QPalette::Disabled, role, c.disabled);
    return p;
}

bool system_prefers_dark() {
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    if (QGuiApplication::styleHints()->colorScheme() != Qt::ColorScheme::Unknown)
        return QGuiApplication::styleHints()->colorScheme() == Qt::ColorScheme::Dark;
#endif
    // Qt 6.4 (Debian 12) has no colour scheme hint: the platform theme's window colour tells.
    return QGuiApplication::palette().color(QPalette::Window).lightness() < 128;
}

bool dark_now = false;

/// Fusion frames a check box in the window colour darkened: on the dark palette that is near black
/// on a near-black field, and an unchecked box vanishes (in item views too). There the frame is
/// drawn again in the palette's placeholder grey.
class CheckFrameStyle : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;
    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget) const override {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        if (!dark_now || (element != PE_IndicatorCheckBox && element != PE_IndicatorItemViewItemCheck)) return;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(QPen(option->palette.color(QPalette::PlaceholderText), 1.0));
        painter->setBrush(Qt::NoBrush);
        // Fusion's indicator is a 1 px frame just inside option->rect: draw over it, on pixel centres.
        painter->drawRect(QRectF(option->rect).adjusted(0.5, 0.5, -1.5, -1.5));
        painter->restore();
    }
};

}  // namespace

void apply_app_style(QApplication& app, PaletteChoice choice) {
    // The system's preference is read before Fusion's palette replaces the platform's.
    dark_now = choice == PaletteChoice::System ? system_prefers_dark() : choice == PaletteChoice::Dark;
    QApplication::setStyle(new CheckFrameStyle(QStyleFactory::create(QStringLiteral("Fusion"))));
    QApplication::setPalette(palette_of(dark_now ? dark_scheme : light_scheme));
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    QObject::connect(QGuiApplication::styleHints(), &QStyleHints::colorSchemeChanged, &app, [choice](Qt::ColorScheme) {
        if (choice != PaletteChoice::System) return;
        dark_now = system_prefers_dark();
        QApplication::setPalette(palette_of(dark_now ? dark_scheme : light_scheme));
    });
#else
    (void)app;
#endif
    QFont font = QApplication::font();
    font.setPointSizeF(base_point_size);
    QApplication::setFont(font);
    scale_now = 1.0;
}

void set_text_scale(double scale) {
    if (scale_now == 1.0) base_point_size = QApplication::font().pointSizeF();  // whatever the start was
    scale_now = scale;
    QFont font = QApplication::font();
    font.setPointSizeF(base_point_size * scale);
    QApplication::setFont(font);
}

double text_scale() { return scale_now; }

void set_text_tone(QWidget& widget, TextTone tone) {
    QPalette palette = widget.palette();
    switch (tone) {
        case TextTone::Plain:
            palette.setColor(QPalette::WindowText, QApplication::palette().color(QPalette::WindowText));
            break;
        case TextTone::Error:
            palette.setColor(QPalette::WindowText, dark_now ? QColor(0xFF, 0x7B, 0x72) : QColor(0xB0, 0x00, 0x20));
            break;
        case TextTone::Good:
            palette.setColor(QPalette::WindowText, dark_now ? QColor(0x56, 0xD3, 0x64) : QColor(0x1B, 0x5E, 0x20));
            break;
    }
    widget.setPalette(palette);
}

bool dark_palette() { return dark_now; }

}  // namespace floatscope::gui
