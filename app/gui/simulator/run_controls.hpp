// What the Runner and the Advisor show under their start and cancel buttons: which button is
// enabled, the progress bar, and a message line (errors in red).
#pragma once

#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;

namespace floatscope::gui {

/// The colour of an error said in the views: a message, a failed held-out check.
QString error_style_sheet();

/// Start enabled when idle, Cancel while running; a run starting resets the bar and the message.
void show_run_state(QPushButton& start, QPushButton& cancel, QProgressBar& progress, QLabel& message, bool running);
/// The engine's fraction done and what it is doing, on the bar.
void show_run_progress(QProgressBar& progress, double fraction, const QString& what);
/// The line under the buttons: an error in red, anything else in the normal colour.
void show_run_message(QLabel& label, const QString& message, bool error);

}  // namespace floatscope::gui
