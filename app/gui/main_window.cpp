// The main window: tabs of views, with its geometry kept between sessions.
#include "app/gui/main_window.hpp"

#include <QCloseEvent>
#include <QHeaderView>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>

#include "app/gui/formats_table_model.hpp"

namespace floatscope::gui {

namespace {

QTableView* make_formats_view(QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(new FormatsTableModel(view));
    view->setAlternatingRowColors(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->resizeColumnsToContents();
    return view;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("FloatScope"));
    tabs_ = new QTabWidget(this);
    tabs_->addTab(make_formats_view(tabs_), QStringLiteral("Formats"));
    view_names_ << QStringLiteral("formats");
    setCentralWidget(tabs_);
    resize(1400, 800);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
}

QStringList MainWindow::view_names() const { return view_names_; }

bool MainWindow::show_view(const QString& name) {
    const int index = static_cast<int>(view_names_.indexOf(name));
    if (index < 0) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    QMainWindow::closeEvent(event);
}

}  // namespace floatscope::gui
