// MainWindow: the application shell - format sidebar and rounding selector (on the lab's tabs),
// views as tabs (the format lab's and the simulator's), CSV export, undo, view links, presentation
// mode and help.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <functional>
#include <string>
#include <vector>

class QAction;
class QComboBox;
class QDockWidget;
class QTabBar;
class QTabWidget;
class QToolBar;

namespace floatscope::gui {

class BitsView;
class CustomFormatDesigner;
class FormatSidebar;
class FormatsView;
class HardwareView;
class LabState;
class LearnView;
class NumberLineView;
class SimulatorWorkspace;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// With `persistent`, the window state, the chosen and custom formats, the rounding mode and
    /// the value are read from QSettings now and written back on close; without it (screenshots,
    /// tests) the window starts from the defaults and writes nothing.
    explicit MainWindow(bool persistent = true, QWidget* parent = nullptr);

    /// Adds a view as a tab; `name` is what show_view and --view take, `csv` what File > Export
    /// writes while it is shown. The simulator views (GUI part 2) come in through here.
    void add_view(QWidget* view, const QString& title, const QString& name, std::function<std::string()> csv);
    /// Names accepted by show_view: bits, formats, numberline, learn, designer, then the
    /// simulator's stories, runner, results, compare, then added views.
    QStringList view_names() const;
    /// Brings the named view to the front; false if there is no such view.
    bool show_view(const QString& name);
    QString current_view_name() const;

    /// Writes the CSV of the current view to `path` (atomically); throws floatscope::Error.
    void export_current_view(const QString& path) const;

    /// The lab's state and the shown view as a view link (app/gui/lab/view_link.hpp).
    QString view_link() const;
    /// Restores a view link; throws floatscope::Error saying what is wrong, and changes nothing then.
    void open_view_link(const QString& text);

    /// Presentation mode: the text scale 1.6 on, 1 off (app_style.hpp).
    void set_presentation(bool on);
    bool presentation() const;
    /// Whether the format sidebar and the rounding box show (on the lab's tabs only).
    bool lab_controls_shown() const;

    LabState& state() const { return *state_; }
    BitsView* bits_view() const { return bits_; }
    FormatsView* formats_view() const { return formats_; }
    NumberLineView* number_line_view() const { return number_line_; }
    LearnView* learn_view() const { return learn_; }
    CustomFormatDesigner* designer() const { return designer_; }
    FormatSidebar* sidebar() const { return sidebar_; }
    SimulatorWorkspace* workspace() const { return workspace_; }
    HardwareView* hardware_view() const { return hardware_; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void build_menus();
    void export_with_dialog();
    void show_lab_controls_for(int tab);
    void scale_text(double factor);
    void fit_to_text_scale();
    void show_help();
    void show_about();

    bool persistent_ = true;
    LabState* state_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QTabBar* tab_bar_ = nullptr;  ///< the views' tabs, in a toolbar row that the lab's controls do not move
    QComboBox* rounding_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QToolBar* rounding_bar_ = nullptr;
    QAction* presentation_ = nullptr;
    int lab_tabs_ = 0;  ///< the first tabs are the lab's
    FormatSidebar* sidebar_ = nullptr;
    BitsView* bits_ = nullptr;
    FormatsView* formats_ = nullptr;
    NumberLineView* number_line_ = nullptr;
    LearnView* learn_ = nullptr;
    CustomFormatDesigner* designer_ = nullptr;
    SimulatorWorkspace* workspace_ = nullptr;
    HardwareView* hardware_ = nullptr;
    QStringList view_names_;
    std::vector<std::function<std::string()>> exports_;
};

}  // namespace floatscope::gui
