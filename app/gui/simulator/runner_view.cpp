// The runner's widgets: workload, generated parameter form, policy editor, run controls.
#include "app/gui/simulator/runner_view.hpp"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "app/gui/simulator/graph_panel.hpp"
#include "app/gui/simulator/parameter_form.hpp"
#include "app/gui/simulator/policy_editor.hpp"
#include "app/gui/simulator/policy_presets.hpp"
#include "app/gui/simulator/run_controls.hpp"
#include "core/csv.hpp"
#include "core/error.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::gui {

RunnerView::RunnerView(QWidget* parent) : QWidget(parent) {
    workload_ = new QComboBox(this);
    workload_->setObjectName(QStringLiteral("workload"));
    for (const emu::Workload* w : emu::builtin_workloads()) {
        workload_->addItem(QString::fromStdString(w->name()));
        workload_->setItemData(workload_->count() - 1, QString::fromStdString(w->summary()), Qt::ToolTipRole);
    }
    help_ = new QLabel(this);
    help_->setWordWrap(true);
    help_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form_ = new ParameterForm(this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(form_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* workload_box = new QGroupBox(QStringLiteral("Workload"), this);
    auto* workload_layout = new QVBoxLayout(workload_box);
    workload_layout->addWidget(workload_);
    workload_layout->addWidget(help_);
    workload_layout->addWidget(scroll, 1);

    graph_ = new GraphPanel(this);
    graph_box_ = new QGroupBox(QStringLiteral("Graph"), this);
    auto* graph_layout = new QVBoxLayout(graph_box_);
    graph_layout->addWidget(graph_);

    policies_ = new PolicyEditor(this);
    auto* policy_box = new QGroupBox(QStringLiteral("Policies"), this);
    auto* policy_layout = new QVBoxLayout(policy_box);
    policy_layout->addWidget(policies_);

    run_ = new QPushButton(QStringLiteral("&Run"), this);
    run_->setObjectName(QStringLiteral("run"));
    run_->setDefault(true);
    cancel_ = new QPushButton(QStringLiteral("&Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancel"));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    progress_->setFormat(QString());
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("run_message"));
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* controls = new QHBoxLayout;
    controls->addWidget(run_);
    controls->addWidget(cancel_);
    controls->addWidget(progress_, 1);

    // The two columns scroll rather than hold the window wider than a small screen.
    auto* columns_widget = new QWidget(this);
    auto* columns = new QHBoxLayout(columns_widget);
    columns->setContentsMargins(0, 0, 0, 0);
    columns->addWidget(workload_box, 2);
    columns->addWidget(policy_box, 3);
    auto* columns_scroll = new QScrollArea(this);
    columns_scroll->setWidget(columns_widget);
    columns_scroll->setWidgetResizable(true);
    columns_scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(columns_scroll, 1);
    layout->addWidget(graph_box_, 1);  // the whole width: node names and shapes are long
    layout->addLayout(controls);
    layout->addWidget(message_);

    connect(workload_, &QComboBox::currentTextChanged, this, &RunnerView::choose_workload);
    connect(form_, &ParameterForm::changed, this, &RunnerView::refresh_graph);
    setAcceptDrops(true);
    connect(run_, &QPushButton::clicked, this, &RunnerView::run_requested);
    connect(cancel_, &QPushButton::clicked, this, &RunnerView::cancel_requested);
    setTabOrder(workload_, form_);
    setTabOrder(form_, policies_);
    setTabOrder(policies_, run_);

    workload_->setCurrentText(QStringLiteral("mlp-forward"));
    choose_workload(workload_->currentText());
    policies_->set_entries(default_comparison());
    show_running(false);
}

void RunnerView::choose_workload(const QString& name) {
    const emu::Workload& workload = emu::find_workload(name.toStdString());
    // What was typed for the workload left is kept for when it is chosen again.
    if (!shown_workload_.isEmpty()) typed_[shown_workload_] = form_->values();
    shown_workload_ = name;
    // The summary in view, the full help (often a long paragraph) as tooltip: the form keeps its room.
    help_->setText(QString::fromStdString(workload.summary()));
    help_->setToolTip(QString::fromStdString(workload.help()));
    {
        // The form says it changed while it builds its editors; the graph is read once it is whole.
        const QSignalBlocker blocker(form_);
        form_->set_schema(workload.parameters());
        if (const auto typed = typed_.find(name); typed != typed_.end()) form_->set_values(typed->second);
    }
    policies_->set_refusal_check(
        [workload = name.toStdString()](const PolicyEntry& entry) { return policy_refusal(workload, entry); });
    refresh_graph();
}

void RunnerView::refresh_graph() {
    const bool graph = workload_->currentText() == QLatin1String("onnx");
    graph_box_->setVisible(graph);
    if (!graph) {
        policies_->set_op_types({});
        return;
    }
    const auto values = form_->values();
    const auto model = values.find("model");
    const QString path = model == values.end() ? QString() : QString::fromStdString(model->second);
    // Read again only when the path changed to an existing file, not on every keystroke of it.
    if (path == shown_model_ || (!path.isEmpty() && !QFileInfo(path).isFile())) return;
    shown_model_ = path;
    graph_->show_model(path);
    policies_->set_op_types(graph_->op_types());
}

void RunnerView::open_model(const QString& path) {
    workload_->setCurrentText(QStringLiteral("onnx"));
    auto values = form_->values();
    values["model"] = path.toStdString();
    form_->set_values(values);
    refresh_graph();
}

void RunnerView::dragEnterEvent(QDragEnterEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive)) {
            event->acceptProposedAction();
            return;
        }
}

void RunnerView::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive)) {
            open_model(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
}

RunSetup RunnerView::setup() const {
    return {workload_->currentText().toStdString(), form_->values(), policies_->entries()};
}

void RunnerView::set_setup(const RunSetup& setup) {
    emu::find_workload(setup.workload);  // throws with the valid names before anything changes
    workload_->setCurrentText(QString::fromStdString(setup.workload));
    form_->set_values(setup.parameters);
    policies_->set_entries(setup.policies);
}

void RunnerView::show_running(bool running) { show_run_state(*run_, *cancel_, *progress_, *message_, running); }

void RunnerView::show_progress(double fraction, const QString& message) {
    show_run_progress(*progress_, fraction, message);
}

void RunnerView::show_message(const QString& message, bool error) { show_run_message(*message_, message, error); }

QString RunnerView::message() const { return message_->text(); }

std::string RunnerView::csv() const {
    const RunSetup s = setup();
    std::string text = core::csv_record({"kind", "name", "value"}, core::csv_crlf);
    text += core::csv_record({"workload", s.workload, ""}, core::csv_crlf);
    for (const auto& [name, value] : s.parameters) text += core::csv_record({"parameter", name, value}, core::csv_crlf);
    for (const PolicyEntry& entry : s.policies)
        text += core::csv_record({"policy", entry.text, describe_assignments(entry.parameters)}, core::csv_crlf);
    return text;
}

}  // namespace floatscope::gui
