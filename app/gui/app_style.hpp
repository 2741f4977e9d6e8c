// The application's look: Fusion with a designed light or dark palette, 10.5 pt type, and a text
// scale for presentation mode.
#pragma once

class QApplication;

namespace floatscope::gui {

/// Fusion, the palette that matches the system's colour scheme (QStyleHints::colorScheme from Qt
/// 6.5; before it, the lightness of the platform's own window colour), and the base font.
void apply_app_style(QApplication& app);

/// Scales the application font against the base font apply_app_style set (1 = normal): every
/// widget that draws with its font grows with it, bit cells and plots included.
void set_text_scale(double scale);
double text_scale();

/// Whether the palette in use is the dark one.
bool dark_palette();

}  // namespace floatscope::gui
