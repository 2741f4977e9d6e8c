// SimulatorWorkspace: the simulator's views in the main window, the session, and the runs behind them.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <functional>
#include <string>
#include <vector>

#include "app/gui/simulator/run_estimate.hpp"
#include "app/gui/simulator/simulation_session.hpp"

class QMenu;
class QWidget;

namespace floatscope::gui {

class AdvisorView;
class CompareView;
class ResultsView;
class RunWorker;
class RunnerView;
class StoriesView;

/// One of the workspace's views, for the window to show as a tab (MainWindow::add_view's arguments).
struct WorkspaceView {
    QWidget* widget;
    QString title;
    QString name;
    std::function<std::string()> csv;
};

/// `path` with ".suffix" added when its file name has no extension of its own (a session typed as
/// "lecture" is saved as lecture.json); unchanged otherwise, and when empty.
QString with_default_suffix(const QString& path, const QString& suffix);

/// Makes the views stories, runner, results, compare and advisor (for the window to add) and wires
/// them (the advisor's Open in Runner puts a policy in the runner): the runner
/// starts a run on the worker thread, a finished run joins the session and shows in Results and
/// Compare, errors and cancellation are said in the runner (never a dialog, never a crash).
class SimulatorWorkspace : public QObject {
    Q_OBJECT
public:
    /// The views are children of `window`, which also parents the workspace's file dialogs.
    explicit SimulatorWorkspace(QWidget& window);

    /// The views in tab order; the window adds each and shows one when view_requested says so.
    std::vector<WorkspaceView> views() const;

    /// File menu entries: export the run as CSV / JSON, save and open a session.
    void add_file_actions(QMenu& file);

    /// Starts the runner's setup; false (the reason shown in the runner) for a bad setup or while a
    /// run is in progress.
    bool start_run();
    void cancel_run();
    bool running() const;
    /// Puts a story's setup in the runner and starts it; when it finishes, Results shows its plot.
    bool run_story(const QString& name);
    /// run_story, then waits (in a local event loop) until the run is over; returns the error
    /// message, empty on success (--screenshot --story).
    QString run_story_and_wait(const QString& name);
    /// start_run on the runner's setup, then waits the same way (--screenshot --run).
    QString run_and_wait();

    /// What start_run calls before a run estimated (run_estimate.hpp) to take more than
    /// long_run_seconds, with the estimate and its text; the run starts only when it returns true.
    /// By default a dialog asks; the *_and_wait calls (asked for outright) do not ask.
    void set_long_run_confirmation(std::function<bool(double seconds, const QString& text)> confirm);

    /// The session as it would be saved: the runner's setup, the finished runs and the lab's state.
    Session session() const;
    /// How sessions keep the format lab's state (the main window's view links): `read` when
    /// saving; `apply` when opening, before anything else changes (it throws floatscope::Error).
    void set_lab_state(std::function<std::string()> read, std::function<void(const std::string&)> apply);
    /// The run shown in Results; nullptr when there is none.
    const FinishedRun* current_run() const;
    /// Seconds from starting the last run until its result was on screen (plots and table built).
    double last_run_seconds() const { return last_run_seconds_; }

    /// The current run's report as emu::write_csv / write_json write it (what floatscope-cli run
    /// --csv / --json writes), all at once; throws floatscope::Error (also when there is no run).
    void export_run_csv(const QString& path) const;
    void export_run_json(const QString& path) const;
    /// Throws floatscope::Error when the file cannot be written.
    void save_session_to(const QString& path) const;
    /// Replaces the session by the file's; a bad file leaves the session as it was and says why in
    /// the Results view. Returns whether it was read.
    bool open_session_from(const QString& path);

    StoriesView* stories_view() const { return stories_; }
    RunnerView* runner_view() const { return runner_; }
    ResultsView* results_view() const { return results_; }
    CompareView* compare_view() const { return compare_; }
    AdvisorView* advisor_view() const { return advisor_; }
    RunWorker* worker() const { return worker_; }

signals:
    /// The workspace wants the named view in front (the runner when a run starts, Results when it ends).
    void view_requested(const QString& name);
    /// After a finished run is in the session and on screen.
    void run_finished();
    void run_failed(const QString& message, bool cancelled);

private:
    /// Calls `start` and waits until the run it started is over; the error message, empty on success.
    QString wait_for_run(const std::function<bool()>& start);
    void finish(const emu::Report& report);
    /// Clears what the running story would show when it ends (a run that failed or did not start).
    void forget_story();
    void fail(const QString& message, bool cancelled);
    /// Lists the runs in Results and shows the newest.
    void list_runs();
    void show_run(int index);
    /// The runs at these rows of the list: one as it is, several overlaid (run_overlay.hpp).
    void show_runs(const std::vector<int>& rows);
    std::string report_csv() const;
    /// The report Results shows (ResultsView::shown_report) as CSV: what File > Export current view writes there.
    std::string shown_csv() const;
    template <class Action>
    void with_file_dialog(const QString& title, const QString& suggested, const QString& filter, Action action);

    QWidget& window_;
    StoriesView* stories_ = nullptr;
    RunnerView* runner_ = nullptr;
    ResultsView* results_ = nullptr;
    CompareView* compare_ = nullptr;
    AdvisorView* advisor_ = nullptr;
    RunWorker* worker_ = nullptr;
    std::vector<FinishedRun> runs_;
    int shown_run_ = -1;
    RunSetup running_setup_;
    QString running_title_;
    QString left_out_;  ///< " Left out (not for this workload): ..." for the policies the running setup could not run
    std::string landing_plot_;  ///< the plot to show when the running story finishes
    QString story_claim_;  ///< the running story's title and summary, for Results to show with its plot
    EmulationSpeed speed_;  ///< learnt from the session's finished runs
    std::function<bool(double, const QString&)> confirm_long_run_;
    bool ask_before_long_runs_ = true;
    QElapsedTimer clock_;
    double last_run_seconds_ = 0;
    std::function<std::string()> read_lab_;
    std::function<void(const std::string&)> apply_lab_;
};

}  // namespace floatscope::gui
