// The main window: wires the lab state to the sidebar, the rounding selector and the view tabs, and
// holds the menus.
#include "app/gui/main_window.hpp"

#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <algorithm>

#include "app/gui/app_style.hpp"
#include "app/gui/hardware/hardware_view.hpp"
#include "app/gui/help_window.hpp"
#include "app/gui/lab/bits_view.hpp"
#include "app/gui/lab/custom_format_designer.hpp"
#include "app/gui/lab/format_sidebar.hpp"
#include "app/gui/lab/formats_view.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "app/gui/lab/learn_view.hpp"
#include "app/gui/lab/number_line_view.hpp"
#include "app/gui/lab/view_link.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

namespace {

constexpr double presentation_scale = 1.6;
constexpr int sidebar_width = 170;  // at text scale 1: fp64's 64 bit cells keep their room at 1024 pixels
constexpr int message_ms = 5000;  // status messages go after this, so that none stays stale

QIcon theme_icon(const char* name) { return QIcon::fromTheme(QString::fromLatin1(name)); }

}  // namespace

MainWindow::MainWindow(bool persistent, QWidget* parent) : QMainWindow(parent), persistent_(persistent) {
    setWindowTitle(QStringLiteral("FloatScope"));
    state_ = new LabState(this);
    if (persistent_) {
        QSettings settings;
        state_->load(settings);
    }

    sidebar_ = new FormatSidebar(*state_, this);
    dock_ = new QDockWidget(QStringLiteral("Formats"), this);
    dock_->setObjectName(QStringLiteral("formats_dock"));
    dock_->setWidget(sidebar_);
    dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock_);
    resizeDocks({dock_}, {sidebar_width}, Qt::Horizontal);

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
    // The views' tabs in a toolbar row of their own across the whole window, above the lab's
    // rounding box and sidebar: those show on the lab's tabs only, and inside the tab widget's
    // own bar their coming and going moved the tabs under the pointer (a click landed on another).
    tab_bar_ = new QTabBar(this);
    tab_bar_->setObjectName(QStringLiteral("view_tabs"));
    tab_bar_->setDocumentMode(true);
    tab_bar_->setExpanding(false);
    tab_bar_->setUsesScrollButtons(true);
    tab_bar_->setDrawBase(false);
    auto* tabs_bar = addToolBar(QStringLiteral("Views"));
    tabs_bar->setObjectName(QStringLiteral("views_toolbar"));
    tabs_bar->setMovable(false);
    tabs_bar->setFloatable(false);
    tabs_bar->toggleViewAction()->setEnabled(false);
    tabs_bar->addWidget(tab_bar_);
    addToolBarBreak();
    rounding_bar_ = addToolBar(QStringLiteral("Rounding"));
    rounding_bar_->setObjectName(QStringLiteral("rounding_toolbar"));
    rounding_bar_->setMovable(false);
    auto* rounding_label = new QLabel(QStringLiteral(" &Rounding "), this);
    rounding_label->setBuddy(rounding_);
    rounding_bar_->addWidget(rounding_label);
    rounding_bar_->addWidget(rounding_);

    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    tabs_->tabBar()->hide();  // tab_bar_ shows the tabs
    setCentralWidget(tabs_);
    connect(tab_bar_, &QTabBar::currentChanged, tabs_, &QTabWidget::setCurrentIndex);
    connect(tabs_, &QTabWidget::currentChanged, tab_bar_, &QTabBar::setCurrentIndex);
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
    lab_tabs_ = tabs_->count();
    workspace_ = new SimulatorWorkspace(*this);
    for (const WorkspaceView& view : workspace_->views()) add_view(view.widget, view.title, view.name, view.csv);
    hardware_ = new HardwareView(tabs_);
    add_view(hardware_, QStringLiteral("&Hardware"), QStringLiteral("hardware"), [this] { return hardware_->csv(); });
    connect(workspace_, &SimulatorWorkspace::view_requested, this, [this](const QString& name) { show_view(name); });
    // Sessions keep the lab as a link without its view: opening one leaves the tab to the workspace.
    workspace_->set_lab_state([this] { return view_link_text(lab_view_link(*state_, "")); },
                              [this](const std::string& link) { apply_view_link(*state_, parse_view_link(link)); });
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::show_lab_controls_for);
    build_menus();
    statusBar()->setSizeGripEnabled(false);

    // Tab order: the format list, the add-format entry, then the views; each view orders its own widgets.
    setTabOrder(sidebar_->list(), sidebar_->name_entry());
    setTabOrder(sidebar_->name_entry(), rounding_);
    setTabOrder(rounding_, tab_bar_);
    setTabOrder(tab_bar_, bits_->value_entry());

    resize(1280, 800);
    if (persistent_) {
        QSettings settings;
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
        show_view(settings.value(QStringLiteral("window/view"), QStringLiteral("bits")).toString());
    }
    show_lab_controls_for(tabs_->currentIndex());
}

void MainWindow::show_lab_controls_for(int tab) {
    // The sidebar and the rounding box steer the lab; on the simulator's tabs they would do nothing.
    const bool lab = tab >= 0 && tab < lab_tabs_;
    dock_->setVisible(lab);
    rounding_bar_->setVisible(lab);
}

bool MainWindow::lab_controls_shown() const { return !dock_->isHidden() && !rounding_bar_->isHidden(); }

QString MainWindow::view_link() const {
    return QString::fromStdString(view_link_text(lab_view_link(*state_, current_view_name().toStdString())));
}

void MainWindow::open_view_link(const QString& text) {
    const ViewLink link = parse_view_link(text.toStdString());
    if (!link.view.empty() && !view_names_.contains(QString::fromStdString(link.view)))
        throw Error("cannot open the view link: unknown view '" + link.view +
                    "'; valid views: " + view_names_.join(", ").toStdString());
    apply_view_link(*state_, link);
    if (!link.view.empty()) show_view(QString::fromStdString(link.view));
}

void MainWindow::set_presentation(bool on) {
    set_text_scale(on ? presentation_scale : 1.0);
    presentation_->setChecked(on);
    fit_to_text_scale();
}

void MainWindow::fit_to_text_scale() {
    // The dock keeps its width when the font grows, so that long format names would be cut: it
    // follows the text scale, after the relayout the font change posts, which would undo it.
    QTimer::singleShot(
        0, this, [this] { resizeDocks({dock_}, {static_cast<int>(sidebar_width * text_scale())}, Qt::Horizontal); });
}

bool MainWindow::presentation() const { return text_scale() > 1.0; }

void MainWindow::scale_text(double factor) {
    set_text_scale(std::clamp(text_scale() * factor, 0.7, 3.0));
    presentation_->setChecked(text_scale() > 1.0);
    fit_to_text_scale();
}

void MainWindow::show_help() {
    auto* help = findChild<HelpWindow*>();
    if (help == nullptr) help = new HelpWindow(this);
    help->show();
    help->raise();
}

void MainWindow::show_about() {
    QMessageBox::about(
        this, QStringLiteral("About FloatScope"),
        QStringLiteral("<p><b>FloatScope</b>: number formats, bit-exact, checked against MPFR.</p><pre>%1</pre>")
            .arg(library_versions().toHtmlEscaped()));
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
    quit->setIcon(theme_icon("application-exit"));
    export_action->setIcon(theme_icon("document-save-as"));

    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    QAction* undo = state_->undo_stack()->createUndoAction(this, QStringLiteral("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(theme_icon("edit-undo"));
    QAction* redo = state_->undo_stack()->createRedoAction(this, QStringLiteral("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
    redo->setIcon(theme_icon("edit-redo"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* copy_link = edit->addAction(QStringLiteral("&Copy view link"), this, [this] {
        QGuiApplication::clipboard()->setText(view_link());
        statusBar()->showMessage(QStringLiteral("View link copied: paste it with Edit > Open view link or pass it "
                                                "as --state"),
                                 message_ms);
    });
    copy_link->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    copy_link->setIcon(theme_icon("edit-copy"));
    QAction* open_link = edit->addAction(QStringLiteral("&Open view link from the clipboard"), this, [this] {
        try {
            open_view_link(QGuiApplication::clipboard()->text());
            statusBar()->showMessage(QStringLiteral("View link opened"), message_ms);
        } catch (const Error& e) {
            QMessageBox::warning(this, QStringLiteral("View link"), QString::fromStdString(e.what()));
        }
    });
    open_link->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    open_link->setIcon(theme_icon("edit-paste"));

    QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
    QAction* value = view->addAction(QStringLiteral("Enter a &value"), this, [this] {
        show_view(QStringLiteral("bits"));
        bits_->value_entry()->setFocus();
        bits_->value_entry()->selectAll();
    });
    value->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    QAction* formats = view->addAction(QStringLiteral("Choose &formats"), this, [this] {
        if (!lab_controls_shown()) show_view(QStringLiteral("bits"));
        sidebar_->list()->setFocus();
    });
    formats->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    QAction* rounding = view->addAction(QStringLiteral("&Rounding mode"), this, [this] {
        if (!lab_controls_shown()) show_view(QStringLiteral("bits"));
        rounding_->setFocus();
    });
    rounding->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    view->addSeparator();
    presentation_ =
        view->addAction(QStringLiteral("&Presentation mode"), this, [this](bool on) { set_presentation(on); });
    presentation_->setCheckable(true);
    presentation_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    presentation_->setToolTip(QStringLiteral("Larger text, bit cells and plots, for a projector"));
    QAction* larger = view->addAction(QStringLiteral("&Larger text"), this, [this] { scale_text(1.15); });
    larger->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence::ZoomIn});
    larger->setIcon(theme_icon("zoom-in"));
    QAction* smaller = view->addAction(QStringLiteral("&Smaller text"), this, [this] { scale_text(1 / 1.15); });
    smaller->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence::ZoomOut});
    smaller->setIcon(theme_icon("zoom-out"));
    QAction* normal = view->addAction(QStringLiteral("&Normal size"), this, [this] { set_presentation(false); });
    normal->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    normal->setIcon(theme_icon("zoom-original"));
    view->addSeparator();
    for (int i = 0; i < tabs_->count() && i < 9; ++i) {
        QAction* tab = view->addAction(tabs_->tabText(i).remove('&'), this, [this, i] { tabs_->setCurrentIndex(i); });
        tab->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }

    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    QAction* guide = help->addAction(QStringLiteral("&User guide"), this, &MainWindow::show_help);
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setIcon(theme_icon("help-contents"));
    QAction* about = help->addAction(QStringLiteral("&About FloatScope"), this, &MainWindow::show_about);
    about->setIcon(theme_icon("help-about"));
}

void MainWindow::add_view(QWidget* view, const QString& title, const QString& name, std::function<std::string()> csv) {
    tabs_->addTab(view, title);
    tab_bar_->addTab(title);
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
        statusBar()->showMessage(QStringLiteral("Exported %1").arg(path), message_ms);
    } catch (const Error& e) {
        QMessageBox::warning(this, QStringLiteral("Export failed"), QString::fromStdString(e.what()));
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (persistent_) {
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        // A Formats dock squeezed by a view that asked for more width than the screen had is not
        // kept that way: it is saved at least as wide as the text scale's format names need.
        const int needed = static_cast<int>(sidebar_width * text_scale());
        if (!dock_->isHidden() && !dock_->isFloating() && dock_->width() < needed)
            resizeDocks({dock_}, {needed}, Qt::Horizontal);
        settings.setValue(QStringLiteral("window/state"), saveState());
        settings.setValue(QStringLiteral("window/view"), current_view_name());
        state_->save(settings);
    }
    QMainWindow::closeEvent(event);
}

}  // namespace floatscope::gui
