// The buttons, bar and message line of a view that starts runs.
#include "app/gui/simulator/run_controls.hpp"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace floatscope::gui {

QString error_style_sheet() { return QStringLiteral("color: #b00020"); }

void show_run_state(QPushButton& start, QPushButton& cancel, QProgressBar& progress, QLabel& message, bool running) {
    start.setEnabled(!running);
    cancel.setEnabled(running);
    if (running) {
        progress.setValue(0);
        progress.setFormat(QStringLiteral("starting"));
        show_run_message(message, {}, false);
    }
}

void show_run_progress(QProgressBar& progress, double fraction, const QString& what) {
    progress.setValue(static_cast<int>(fraction * progress.maximum()));
    progress.setFormat(QStringLiteral("%p% ") + what);
}

void show_run_message(QLabel& label, const QString& message, bool error) {
    label.setStyleSheet(error ? error_style_sheet() : QString());
    label.setText(message);
}

}  // namespace floatscope::gui
