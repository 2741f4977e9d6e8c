// RunnerView: choose a workload, its parameters and the policies, then run, watch and cancel.
#pragma once

#include <QWidget>
#include <map>
#include <string>

#include "app/gui/simulator/run_setup.hpp"

class QComboBox;
class QDragEnterEvent;
class QDropEvent;
class QGroupBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace floatscope::gui {

class GraphPanel;
class ParameterForm;
class PolicyEditor;

/// The form only: SimulatorWorkspace starts the runs it asks for and reports back through
/// show_running, show_progress and show_message.
class RunnerView : public QWidget {
    Q_OBJECT
public:
    explicit RunnerView(QWidget* parent = nullptr);

    RunSetup setup() const;
    /// Shows a setup (a story, a reopened session); throws floatscope::Error for an unknown workload.
    void set_setup(const RunSetup& setup);

    /// Run enabled when idle, Cancel while running.
    void show_running(bool running);
    void show_progress(double fraction, const QString& message);
    /// A line under the buttons: an error in red, anything else in the normal colour.
    void show_message(const QString& message, bool error);
    QString message() const;

    ParameterForm* parameter_form() const { return form_; }
    PolicyEditor* policy_editor() const { return policies_; }
    GraphPanel* graph_panel() const { return graph_; }
    QPushButton* run_button() const { return run_; }
    /// Runs an ONNX model: the onnx workload with model=`path`, its graph shown (what dropping the file does).
    void open_model(const QString& path);
    QPushButton* cancel_button() const { return cancel_; }

    /// The setup as CSV (File > Export on this view): `kind,name,value` rows of the workload, each
    /// parameter, and each policy with its parameter overrides.
    std::string csv() const;

signals:
    void run_requested();
    void cancel_requested();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void choose_workload(const QString& name);
    /// Shows the graph of the onnx workload's model when its path changed (hidden for other workloads).
    void refresh_graph();

    QComboBox* workload_ = nullptr;
    QLabel* help_ = nullptr;
    /// The workload the form shows, and the parameters typed for each workload left since.
    QString shown_workload_;
    std::map<QString, std::map<std::string, std::string>> typed_;
    ParameterForm* form_ = nullptr;
    PolicyEditor* policies_ = nullptr;
    QGroupBox* graph_box_ = nullptr;
    GraphPanel* graph_ = nullptr;
    QString shown_model_;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* message_ = nullptr;
};

}  // namespace floatscope::gui
