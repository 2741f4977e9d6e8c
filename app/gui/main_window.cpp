// The main window: wires the lab state to the sidebar, the rounding selector and the view tabs.
#include "app/gui/main_window.hpp"

#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>
#include <QToolBar>

#include "app/gui/hardware/hardware_view.hpp"
#include "app/gui/lab/bits_view.hpp"
#include "app/gui/lab/custom_format_designer.hpp"
#include "app/gui/lab/format_sidebar.hpp"
#include "app/gui/lab/formats_view.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "app/gui/lab/learn_view.hpp"
#include "app/gui/lab/number_line_view.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

MainWindow::MainWindow(bool persistent, QWidget* parent) : QMainWindow(parent), persistent_(persistent) {
    setWindowTitle(QStringLiteral("FloatScope"));
    state_ = new LabState(this);
    if (persistent_) {
        QSettings settings;
        state_->load(settings);
    }

    sidebar_ = new FormatSidebar(*state_, this);
    auto* dock = new QDockWidget(QStringLiteral("Formats"), this);
    dock->setObjectName(QStringLiteral("formats_dock"));
    dock->setWidget(sidebar_);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {170}, Qt::Horizontal);  // leaves fp64's 64 bit cells room at 1280 pixels

    rounding_ = new QComboBox(this);
    rounding_->setObjectName(QStringLiteral("rounding"));
    for (core::RoundingMode mode : core::all_rounding_modes)
        rounding_->addItem(QString::fromLatin1(core::to_string(mode)));
    rounding_->setCurrentText(QString::fromLatin1(core::to_string(state_->rounding_mode())));
    rounding_->setToolTip(
        QStringLiteral("rne: nearest, ties to even; rna: ties away; rtz: toward zero; rup/rdn: "
                       "toward +/-inf; rto: to odd; sr, sr-equal: stochastic (fixed seed)"));
    connect(rounding_, &QComboBox::currentTextChanged, this,
            [this](const QString& name) { state_->set_rounding_mode(core::parse_rounding_mode(name.toStdString())); });
    auto* toolbar = addToolBar(QStringLiteral("Rounding"));
    toolbar->setObjectName(QStringLiteral("rounding_toolbar"));
    toolbar->setMovable(false);
    auto* rounding_label = new QLabel(QStringLiteral(" &Rounding "), this);
    rounding_label->setBuddy(rounding_);
    toolbar->addWidget(rounding_label);
    toolbar->addWidget(rounding_);

    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    setCentralWidget(tabs_);
    bits_ = new BitsView(*state_, tabs_);
    formats_ = new FormatsView(*state_, tabs_);
    number_line_ = new NumberLineView(*state_, tabs_);
    learn_ = new LearnView(tabs_);
    designer_ = new CustomFormatDesigner(*state_, tabs_);
    add_view(bits_, QStringLiteral("&Bits"), QStringLiteral("bits"), [this] { return bits_->csv(); });
    add_view(formats_, QStringLiteral("&Formats table"), QStringLiteral("formats"), [this] { return formats_->csv(); });
    add_view(number_line_, QStringLiteral("&Number line"), QStringLiteral("numberline"),
             [this] { return number_line_->csv(); });
    add_view(learn_, QStringLiteral("&Learn"), QStringLiteral("learn"), [this] { return learn_->csv(); });
    add_view(designer_, QStringLiteral("Custom format &designer"), QStringLiteral("designer"),
             [this] { return designer_->csv(); });
    workspace_ = new SimulatorWorkspace(*this);
    for (const WorkspaceView& view : workspace_->views()) add_view(view.widget, view.title, view.name, view.csv);
    hardware_ = new HardwareView(tabs_);
    add_view(hardware_, QStringLiteral("&Hardware"), QStringLiteral("hardware"), [this] { return hardware_->csv(); });
    connect(workspace_, &SimulatorWorkspace::view_requested, this, [this](const QString& name) { show_view(name); });
    build_menus();

    // Tab order: the format list, the add-format entry, then the views; each view orders its own widgets.
    setTabOrder(sidebar_->list(), sidebar_->name_entry());
    setTabOrder(sidebar_->name_entry(), rounding_);
    setTabOrder(rounding_, tabs_);
    setTabOrder(tabs_, bits_->value_entry());

    resize(1280, 800);
    if (persistent_) {
        QSettings settings;
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
        show_view(settings.value(QStringLiteral("window/view"), QStringLiteral("bits")).toString());
    }
}

void MainWindow::build_menus() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    QAction* export_action =
        file->addAction(QStringLiteral("&Export current view as CSV..."), this, &MainWindow::export_with_dialog);
    export_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    workspace_->add_file_actions(*file);
    file->addSeparator();
    QAction* quit = file->addAction(QStringLiteral("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    QAction* value = view->addAction(QStringLiteral("Enter a &value"), this, [this] {
        show_view(QStringLiteral("bits"));
        bits_->value_entry()->setFocus();
        bits_->value_entry()->selectAll();
    });
    value->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    QAction* formats =
        view->addAction(QStringLiteral("Choose &formats"), this, [this] { sidebar_->list()->setFocus(); });
    formats->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    QAction* rounding = view->addAction(QStringLiteral("&Rounding mode"), this, [this] { rounding_->setFocus(); });
    rounding->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    view->addSeparator();
    for (int i = 0; i < tabs_->count() && i < 9; ++i) {
        QAction* tab = view->addAction(tabs_->tabText(i).remove('&'), this, [this, i] { tabs_->setCurrentIndex(i); });
        tab->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
}

void MainWindow::add_view(QWidget* view, const QString& title, const QString& name, std::function<std::string()> csv) {
    tabs_->addTab(view, title);
    view_names_ << name;
    exports_.push_back(std::move(csv));
}

QStringList MainWindow::view_names() const { return view_names_; }

bool MainWindow::show_view(const QString& name) {
    const int index = static_cast<int>(view_names_.indexOf(name));
    if (index < 0) return false;
    tabs_->setCurrentIndex(index);
    return true;
}

QString MainWindow::current_view_name() const { return view_names_.value(tabs_->currentIndex()); }

void MainWindow::export_current_view(const QString& path) const {
    const int index = tabs_->currentIndex();
    if (index < 0) throw Error("no view to export");
    core::write_file_atomically(path.toStdString(), exports_[static_cast<std::size_t>(index)]());
}

void MainWindow::export_with_dialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, QStringLiteral("Export %1 as CSV").arg(current_view_name()),
                                     current_view_name() + QStringLiteral(".csv"), QStringLiteral("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    try {
        export_current_view(path);
    } catch (const Error& e) {
        QMessageBox::warning(this, QStringLiteral("Export failed"), QString::fromStdString(e.what()));
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (persistent_) {
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
        settings.setValue(QStringLiteral("window/view"), current_view_name());
        state_->save(settings);
    }
    QMainWindow::closeEvent(event);
}

}  // namespace floatscope::gui
