// The application's look: Fusion with a designed light or dark palette, 10.5 pt type, and a text
// scale for presentation mode.
#pragma once

class QApplication;
class QWidget;

namespace floatscope::gui {

enum class PaletteChoice { System, Light, Dark };

/// Fusion, a palette, and the base font. PaletteChoice::System matches the system's colour scheme
/// (QStyleHints::colorScheme from Qt 6.5; before it, the lightness of the platform's own window
/// colour); Light and Dark force one (--palette, for screenshots and for checking both).
void apply_app_style(QApplication& app, PaletteChoice choice = PaletteChoice::System);

/// How a label's text reads: as the palette's text, as an error (red), or as a passed check (green),
/// in shades that stay readable on both palettes. A palette colour, not a style sheet, so that the
/// widget keeps following the application font (presentation mode).
enum class TextTone { Plain, Error, Good };
void set_text_tone(QWidget& widget, TextTone tone);

/// Scales the application font against the base font apply_app_style set (1 = normal): every
/// widget that draws with its font grows with it, bit cells and plots included.
void set_text_scale(double scale);
double text_scale();

/// Whether the palette in use is the dark one.
bool dark_palette();

}  // namespace floatscope::gui
