// AdvisorView: the advisor (emu::tune) in the simulator workspace. A form (workload, parameters,
// target, candidates, unit kind, cost, budget, held-out seed), the tune on a worker thread, and its
// figures: the front, the sensitivity per unit, the recommended assignment as a strip, the held-out
// figure beside the tuning one; a clicked point's policy can be opened in the Runner.
#pragma once

#include <QString>
#include <QWidget>
#include <optional>
#include <string>

#include "app/gui/simulator/run_setup.hpp"
#include "emulation/advisor/advisor.hpp"
#include "plots/series_colours.hpp"
#include "plots/tune_plots.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace floatscope::plots {
class PlotChartView;
}

namespace floatscope::gui {

class AssignmentStrip;
class ParameterForm;
class RunWorker;

class AdvisorView : public QWidget {
    Q_OBJECT
public:
    explicit AdvisorView(QWidget* parent = nullptr);

    /// The request the form describes; throws floatscope::Error naming what is wrong.
    emu::TuneRequest request() const;
    /// Starts the tune on the worker thread; false (the reason shown under the buttons) for a bad
    /// form or while a tune runs.
    bool start_tune();
    void cancel_tune();
    bool running() const;
    /// start_tune, then waits in a local event loop until it is over (--screenshot --tune, tests);
    /// the error message, empty when the tune finished (whether or not anything met the target).
    QString tune_and_wait();

    /// Shows a tune report. `target` and `cost_unit` name the axes (a report does not say them);
    /// throws floatscope::Error when the report is no tune report.
    void show_report(const emu::Report& report, const std::string& target = {}, const std::string& cost_unit = {});
    /// Reads a report that `tune --csv` or `--json` wrote (JSON by the .json extension) and shows
    /// it; a bad file leaves the view as it was and says why. Returns whether it was shown.
    bool open_report(const QString& path);
    /// The report shown, as CSV (File > Export current view); empty before any.
    std::string csv() const;

    /// Shows a configuration's policy text, ready for Open in Runner; false for an unknown name.
    bool select_configuration(const std::string& name);
    const plots::TuneOutcome* outcome() const { return outcome_ ? &*outcome_ : nullptr; }
    /// The Runner setup that Open in Runner sends: the tuned workload and parameters, the selected policy.
    std::optional<RunSetup> selected_setup() const;

    ParameterForm* parameter_form() const { return form_; }
    QComboBox* workload_box() const { return workload_; }
    QLineEdit* target_edit() const { return target_; }
    QLineEdit* candidates_edit() const { return candidates_; }
    plots::PlotChartView* front_view() const { return front_; }
    plots::PlotChartView* sensitivity_view() const { return sensitivity_; }
    AssignmentStrip* strip() const { return strip_; }
    QLabel* held_out_label() const { return held_out_; }
    QPushButton* open_in_runner_button() const { return open_in_runner_; }
    QString message() const;

signals:
    void open_in_runner(const floatscope::gui::RunSetup& setup);
    /// After a tune's report is on screen, or its failure said.
    void tune_over();

private:
    void choose_workload(const QString& name);
    void show_message(const QString& message, bool error);
    void show_running(bool running);
    void clicked_point(int series, QPointF point);
    void show_held_out();

    QComboBox* workload_ = nullptr;
    ParameterForm* form_ = nullptr;
    QLineEdit* target_ = nullptr;
    QLineEdit* candidates_ = nullptr;
    QComboBox* unit_kind_ = nullptr;
    QComboBox* cost_ = nullptr;
    QComboBox* hardware_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QLineEdit* validation_seed_ = nullptr;
    QPushButton* tune_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* message_ = nullptr;
    QLabel* held_out_ = nullptr;
    QVBoxLayout* figures_ = nullptr;
    plots::PlotChartView* front_ = nullptr;
    plots::PlotChartView* sensitivity_ = nullptr;
    AssignmentStrip* strip_ = nullptr;
    QLabel* selected_policy_ = nullptr;
    QPushButton* open_in_runner_ = nullptr;
    RunWorker* worker_ = nullptr;
    plots::SeriesColours colours_;

    emu::Report report_;
    std::optional<plots::TuneOutcome> outcome_;
    std::string selected_;  ///< the selected configuration's name
    std::string running_target_, running_cost_unit_;
    QString tune_error_;  ///< why the last tune failed (cancelled included); empty when it finished
};

}  // namespace floatscope::gui
