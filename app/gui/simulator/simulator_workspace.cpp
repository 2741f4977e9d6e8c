// Wiring of the simulator: runner -> worker -> session -> results and compare.
#include "app/gui/simulator/simulator_workspace.hpp"

#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QTime>
#include <sstream>
#include <thread>

#include "app/gui/simulator/advisor_view.hpp"
#include "app/gui/simulator/compare_view.hpp"
#include "app/gui/simulator/graph_panel.hpp"
#include "app/gui/simulator/results_view.hpp"
#include "app/gui/simulator/run_overlay.hpp"
#include "app/gui/simulator/run_title.hpp"
#include "app/gui/simulator/run_worker.hpp"
#include "app/gui/simulator/runner_view.hpp"
#include "app/gui/simulator/stories.hpp"
#include "app/gui/simulator/stories_view.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

namespace {

int engine_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace

SimulatorWorkspace::SimulatorWorkspace(QWidget& window) : QObject(&window), window_(window) {
    stories_ = new StoriesView(&window);
    runner_ = new RunnerView(&window);
    results_ = new ResultsView(&window);
    compare_ = new CompareView(&window);
    advisor_ = new AdvisorView(&window);
    worker_ = new RunWorker(this);

    connect(stories_, &StoriesView::story_requested, this, &SimulatorWorkspace::run_story);
    connect(runner_, &RunnerView::run_requested, this, &SimulatorWorkspace::start_run);
    connect(runner_, &RunnerView::cancel_requested, this, &SimulatorWorkspace::cancel_run);
    connect(worker_, &RunWorker::progress, runner_, &RunnerView::show_progress);
    connect(worker_, &RunWorker::finished, this, &SimulatorWorkspace::finish);
    connect(worker_, &RunWorker::failed, this, &SimulatorWorkspace::fail);
    connect(results_, &ResultsView::runs_selected, this, &SimulatorWorkspace::show_runs);
    connect(compare_, &CompareView::policies_selected, results_, &ResultsView::set_policy_filter);
    connect(advisor_, &AdvisorView::open_in_runner, this, [this](const RunSetup& setup) {
        runner_->set_setup(setup);
        emit view_requested(QStringLiteral("runner"));
    });
    confirm_long_run_ = [this](double, const QString& text) {
        return QMessageBox::question(&window_, QStringLiteral("Long run"), text,
                                     QMessageBox::Yes | QMessageBox::Cancel) == QMessageBox::Yes;
    };
}

void SimulatorWorkspace::set_long_run_confirmation(std::function<bool(double, const QString&)> confirm) {
    confirm_long_run_ = std::move(confirm);
}

std::vector<WorkspaceView> SimulatorWorkspace::views() const {
    return {{stories_, QStringLiteral("&Stories"), QStringLiteral("stories"), [this] { return stories_->csv(); }},
            {runner_, QStringLiteral("R&unner"), QStringLiteral("runner"), [this] { return runner_->csv(); }},
            {results_, QStringLiteral("Re&sults"), QStringLiteral("results"), [this] { return shown_csv(); }},
            {compare_, QStringLiteral("&Compare"), QStringLiteral("compare"), [this] { return compare_->csv(); }},
            {advisor_, QStringLiteral("Ad&visor"), QStringLiteral("advisor"), [this] { return advisor_->csv(); }}};
}

void SimulatorWorkspace::add_file_actions(QMenu& file) {
    file.addAction(QStringLiteral("Export run as CS&V..."), this, [this] {
        with_file_dialog(QStringLiteral("Export run as CSV"), QStringLiteral("report.csv"),
                         QStringLiteral("CSV files (*.csv)"), [this](const QString& path) { export_run_csv(path); });
    });
    file.addAction(QStringLiteral("Export run as &JSON..."), this, [this] {
        with_file_dialog(QStringLiteral("Export run as JSON"), QStringLiteral("report.json"),
                         QStringLiteral("JSON files (*.json)"), [this](const QString& path) { export_run_json(path); });
    });
    file.addSeparator();
    QAction* save = file.addAction(QStringLiteral("&Save session..."), this, [this] {
        with_file_dialog(QStringLiteral("Save session"), QStringLiteral("session.floatscope.json"),
                         QStringLiteral("FloatScope sessions (*.json)"),
                         [this](const QString& path) { save_session_to(path); });
    });
    save->setShortcut(QKeySequence::Save);
    QAction* open = file.addAction(QStringLiteral("&Open session..."), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(&window_, QStringLiteral("Open session"), QString(),
                                         QStringLiteral("FloatScope sessions (*.json);;All files (*)"));
        if (!path.isEmpty()) open_session_from(path);
    });
    open->setShortcut(QKeySequence::Open);
}

QString with_default_suffix(const QString& path, const QString& suffix) {
    if (path.isEmpty() || suffix.isEmpty() || !QFileInfo(path).suffix().isEmpty()) return path;
    return path + QLatin1Char('.') + suffix;
}

template <class Action>
void SimulatorWorkspace::with_file_dialog(const QString& title, const QString& suggested, const QString& filter,
                                          Action action) {
    // A name typed without an extension gets the suggested one's: "lecture" saves as lecture.json.
    const QString path = with_default_suffix(QFileDialog::getSaveFileName(&window_, title, suggested, filter),
                                             QFileInfo(suggested).suffix());
    if (path.isEmpty()) return;
    try {
        action(path);
        results_->show_message(QStringLiteral("Wrote %1").arg(path), false);
    } catch (const Error& e) {
        results_->show_message(QString::fromStdString(e.what()), true);
        emit view_requested(QStringLiteral("results"));
    }
}

bool SimulatorWorkspace::start_run() {
    if (worker_->running()) {
        runner_->show_message(QStringLiteral("A run is in progress; cancel it or wait for it."), true);
        return false;
    }
    const RunSetup setup = runner_->setup();
    std::vector<emu::RunRequest> requests;
    std::optional<double> seconds;
    std::vector<std::string> left_out;
    try {
        requests = build_requests(setup, engine_threads(), &left_out);
        running_title_ =
            QString::fromStdString(run_title(setup, static_cast<int>(runs_.size()) + 1,
                                             QTime::currentTime().toString(QStringLiteral("HH:mm:ss")).toStdString()));
        seconds = estimate_seconds(requests, engine_threads(), speed_);
    } catch (const Error& e) {
        forget_story();
        runner_->show_message(QString::fromStdString(e.what()), true);
        return false;
    }
    if (ask_before_long_runs_ && seconds && *seconds > long_run_seconds) {
        const QString estimate = QString::fromStdString(describe_duration(*seconds));
        QString text = QStringLiteral(
                           "This run will take about %1 on this machine (its operations at the "
                           "emulator's measured speed). Start it?")
                           .arg(estimate);
        // Where the work was not known before the run (an ONNX Loop's trip count), the estimate says so.
        const std::vector<std::string> assumptions = estimate_assumptions(requests);
        if (!assumptions.empty()) {
            text += QStringLiteral("\n\nAn estimate: ");
            for (std::size_t i = 0; i < assumptions.size(); ++i)
                text += (i == 0 ? QString() : QStringLiteral("; ")) + QString::fromStdString(assumptions[i]);
            text += QLatin1Char('.');
        }
        if (!confirm_long_run_(*seconds, text)) {
            forget_story();
            runner_->show_message(
                QStringLiteral("Not started: it would take about %1. Fewer epochs, images or policies make it "
                               "shorter.")
                    .arg(estimate),
                false);
            return false;
        }
    }
    running_setup_ = setup;
    left_out_.clear();
    for (const std::string& why : left_out)
        left_out_ += QStringLiteral(" Left out (not for this workload): %1.").arg(QString::fromStdString(why));
    clock_.start();
    runner_->show_running(true);
    return worker_->start(std::move(requests), engine_threads());
}

void SimulatorWorkspace::forget_story() {
    landing_plot_.clear();
    story_claim_.clear();
}

void SimulatorWorkspace::cancel_run() { worker_->cancel(); }

bool SimulatorWorkspace::running() const { return worker_->running(); }

bool SimulatorWorkspace::run_story(const QString& name) {
    if (worker_->running()) {
        runner_->show_message(QStringLiteral("A run is in progress; cancel it or wait for it."), true);
        emit view_requested(QStringLiteral("runner"));
        return false;
    }
    try {
        const Story& story = find_story(name.toStdString());
        runner_->set_setup(story.setup);
        landing_plot_ = story.landing_plot;
        story_claim_ = QStringLiteral("<b>%1.</b> %2")
                           .arg(QString::fromStdString(story.title).toHtmlEscaped(),
                                QString::fromStdString(story.summary).toHtmlEscaped());
    } catch (const Error& e) {
        runner_->show_message(QString::fromStdString(e.what()), true);
        return false;
    }
    emit view_requested(QStringLiteral("runner"));  // the progress bar is there
    return start_run();
}

QString SimulatorWorkspace::run_story_and_wait(const QString& name) {
    return wait_for_run([&] { return run_story(name); });
}

QString SimulatorWorkspace::run_and_wait() {
    return wait_for_run([&] { return start_run(); });
}

QString SimulatorWorkspace::wait_for_run(const std::function<bool()>& start) {
    QString error;
    QEventLoop loop;
    connect(this, &SimulatorWorkspace::run_finished, &loop, &QEventLoop::quit);
    connect(this, &SimulatorWorkspace::run_failed, &loop, [&](const QString& message) {
        error = message;
        loop.quit();
    });
    ask_before_long_runs_ = false;  // asked for outright (--screenshot, tests): no dialog
    const bool started = start();
    ask_before_long_runs_ = true;
    if (!started) return runner_->message();
    loop.exec();
    return error;
}

void SimulatorWorkspace::finish(const emu::Report& report) {
    speed_.learn(report);
    runs_.push_back({running_title_.toStdString(), running_setup_, report});
    runner_->graph_panel()->show_errors(report);
    list_runs();
    if (!landing_plot_.empty()) results_->select_plot(landing_plot_);
    // A story's result says what it shows, above the figure that shows it.
    if (!story_claim_.isEmpty()) results_->show_message(story_claim_, false);
    forget_story();
    emit view_requested(QStringLiteral("results"));
    runner_->show_running(false);
    last_run_seconds_ = static_cast<double>(clock_.nsecsElapsed()) * 1e-9;
    runner_->show_progress(1, QStringLiteral("done"));
    runner_->show_message(QStringLiteral("Finished in %1 s: %2 report rows. Results and Compare show it.%3")
                              .arg(last_run_seconds_, 0, 'f', 2)
                              .arg(report.rows.size())
                              .arg(left_out_),
                          false);
    emit run_finished();
}

void SimulatorWorkspace::fail(const QString& message, bool cancelled) {
    forget_story();
    runner_->show_running(false);
    runner_->show_progress(0, cancelled ? QStringLiteral("cancelled") : QStringLiteral("failed"));
    runner_->show_message(message, !cancelled);
    emit view_requested(QStringLiteral("runner"));
    emit run_failed(message, cancelled);
}

void SimulatorWorkspace::list_runs() {
    QStringList titles;
    for (const FinishedRun& run : runs_) titles << QString::fromStdString(run.title);
    const int last = static_cast<int>(runs_.size()) - 1;
    results_->set_run_titles(titles, last);
    show_run(last);
}

void SimulatorWorkspace::show_run(int index) { show_runs({index}); }

void SimulatorWorkspace::show_runs(const std::vector<int>& rows) {
    shown_run_ = rows.empty() ? -1 : rows.back();
    std::vector<std::pair<int, const emu::Report*>> shown;
    for (const int row : rows)
        if (row >= 0 && row < static_cast<int>(runs_.size()))
            shown.emplace_back(row + 1, &runs_[static_cast<std::size_t>(row)].report);
    // One run as it is; several over each other, each under its number in the run list.
    const emu::Report report = shown.size() == 1 ? *shown.front().second
                               : shown.empty()   ? emu::Report{}
                                                 : overlay_runs(shown);
    results_->show_report(report);
    compare_->show_report(report);
}

Session SimulatorWorkspace::session() const { return {runner_->setup(), runs_, read_lab_ ? read_lab_() : ""}; }

void SimulatorWorkspace::set_lab_state(std::function<std::string()> read,
                                       std::function<void(const std::string&)> apply) {
    read_lab_ = std::move(read);
    apply_lab_ = std::move(apply);
}

const FinishedRun* SimulatorWorkspace::current_run() const {
    return shown_run_ >= 0 && shown_run_ < static_cast<int>(runs_.size()) ? &runs_[static_cast<std::size_t>(shown_run_)]
                                                                          : nullptr;
}

std::string SimulatorWorkspace::report_csv() const {
    if (current_run() == nullptr) throw Error("no run to export; start one in the Runner or pick a story");
    std::ostringstream text;
    emu::write_csv(current_run()->report, text);
    return text.str();
}

std::string SimulatorWorkspace::shown_csv() const {
    // What Results shows: runs overlaid all of them, a Compare selection only its policies (the
    // last selected run's whole report, which this had written, was not what the plot showed).
    const emu::Report shown = results_->shown_report();
    if (shown.rows.empty()) throw Error("no run to export; start one in the Runner or pick a story");
    std::ostringstream text;
    emu::write_csv(shown, text);
    return text.str();
}

void SimulatorWorkspace::export_run_csv(const QString& path) const {
    core::write_file_atomically(path.toStdString(), report_csv());
}

void SimulatorWorkspace::export_run_json(const QString& path) const {
    if (current_run() == nullptr) throw Error("no run to export; start one in the Runner or pick a story");
    std::ostringstream text;
    emu::write_json(current_run()->report, text);
    core::write_file_atomically(path.toStdString(), text.str());
}

void SimulatorWorkspace::save_session_to(const QString& path) const { save_session(session(), path.toStdString()); }

bool SimulatorWorkspace::open_session_from(const QString& path) {
    try {
        Session loaded = load_session(path.toStdString());
        if (!loaded.lab.empty() && apply_lab_) apply_lab_(loaded.lab);
        runner_->set_setup(loaded.setup);
        runs_ = std::move(loaded.runs);
        for (const FinishedRun& run : runs_) speed_.learn(run.report);
    } catch (const Error& e) {
        results_->show_message(QStringLiteral("Cannot open the session: %1").arg(QString::fromStdString(e.what())),
                               true);
        emit view_requested(QStringLiteral("results"));
        return false;
    }
    list_runs();
    results_->show_message(QStringLiteral("Opened %1").arg(path), false);
    return true;
}

}  // namespace floatscope::gui
