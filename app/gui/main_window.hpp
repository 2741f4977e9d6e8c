// MainWindow: the application shell; each view is a tab that can be shown by name.
#pragma once

#include <QMainWindow>
#include <QStringList>

class QTabWidget;

namespace floatscope::gui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// Names accepted by show_view ("formats", ...).
    QStringList view_names() const;
    /// Brings the named view to the front; false if there is no such view.
    bool show_view(const QString& name);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    QTabWidget* tabs_ = nullptr;
    QStringList view_names_;
};

}  // namespace floatscope::gui
