// Help > User guide: docs/gui.md (compiled in as a resource, so that the guide and the docs are one
// text) in a browser window; Help > About: the versions of FloatScope and its libraries.
#pragma once

#include <QDialog>

class QTextBrowser;

namespace floatscope::gui {

class HelpWindow : public QDialog {
    Q_OBJECT
public:
    explicit HelpWindow(QWidget* parent = nullptr);
    QTextBrowser* browser() const { return browser_; }

private:
    QTextBrowser* browser_ = nullptr;
};

/// FloatScope's version, then Qt (built with and running), MPFR, GMP, Boost, Eigen, fmt, CLI11 and
/// nlohmann-json, from their version macros, one per line.
QString library_versions();

}  // namespace floatscope::gui
