// The Advisor: its form, the tune on the worker thread, and the figures of its report.
#include "app/gui/simulator/advisor_view.hpp"

#include <QComboBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <thread>

#include "app/gui/simulator/assignment_strip.hpp"
#include "app/gui/simulator/parameter_form.hpp"
#include "app/gui/simulator/run_controls.hpp"
#include "app/gui/simulator/run_worker.hpp"
#include "core/cost_model.hpp"
#include "core/input_file.hpp"
#include "emulation/workloads/registry.hpp"
#include "plots/plot_chart_view.hpp"

namespace floatscope::gui {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }
QString number(double value) { return QString::number(value, 'g', 4); }
QString target_name(const plots::TuneOutcome& outcome) {
    return outcome.target.empty() ? QStringLiteral("the target") : text(outcome.target);
}

/// A small tune that finishes in a second: what the form starts from.
const std::map<std::string, std::string> default_parameters{{"depth", "4"}, {"width", "16"}, {"batch", "16"}};

}  // namespace

AdvisorView::AdvisorView(QWidget* parent) : QWidget(parent) {
    workload_ = new QComboBox(this);
    workload_->setObjectName(QStringLiteral("advisor_workload"));
    for (const emu::Workload* w : emu::builtin_workloads()) {
        workload_->addItem(text(w->name()));
        workload_->setItemData(workload_->count() - 1, text(w->summary()), Qt::ToolTipRole);
    }
    form_ = new ParameterForm(this);
    auto* parameters = new QScrollArea(this);
    parameters->setWidget(form_);
    parameters->setWidgetResizable(true);
    parameters->setFrameShape(QFrame::NoFrame);

    target_ = new QLineEdit(QStringLiteral("normwise_rel_error<=3e-3"), this);
    target_->setToolTip(
        QStringLiteral("METRIC<=X or METRIC>=X on the outputs: normwise_rel_error<=1e-3, "
                       "bits_correct>=10, test_accuracy>=truth-0.005"));
    candidates_ = new QLineEdit(QStringLiteral("fp32,bf16,fp16,fp8_e4m3"), this);
    candidates_->setToolTip(
        QStringLiteral("formats per unit, the most expensive first taken as the reference; "
                       "'; accumulate=fp32', '; matmul=PRESET', '; weights=int8,nvfp4'"));
    unit_kind_ = new QComboBox(this);
    unit_kind_->setToolTip(QStringLiteral("what one unit of the search is: a layer, an op type, a node"));
    cost_ = new QComboBox(this);
    for (const emu::CostKind kind :
         {emu::CostKind::Bits, emu::CostKind::Bytes, emu::CostKind::Time, emu::CostKind::Energy})
        cost_->addItem(emu::to_string(kind));
    hardware_ = new QComboBox(this);
    hardware_->addItem(QString());
    try {
        for (const core::HardwareSpec& h : core::load_cost_model().hardware) hardware_->addItem(text(h.name));
    } catch (const std::exception&) {
        // Without the hardware table only bits and bytes can be asked for; tune says so if time is.
    }
    hardware_->setToolTip(QStringLiteral("the accelerator whose time and energy the cost counts"));
    budget_ = new QSpinBox(this);
    budget_->setRange(1, 1000000);
    budget_->setValue(400);
    budget_->setToolTip(QStringLiteral("configurations run at most, the reference included"));
    validation_seed_ = new QLineEdit(QStringLiteral("2"), this);
    validation_seed_->setToolTip(
        QStringLiteral("the recommendation is re-run with this seed; empty: no held-out check"));

    auto* settings = new QFormLayout;
    // The target and the candidates are the longest texts: each on its own row, the form's whole width.
    settings->addRow(new QLabel(QStringLiteral("Target"), this));
    settings->addRow(target_);
    settings->addRow(new QLabel(QStringLiteral("Candidates"), this));
    settings->addRow(candidates_);
    settings->addRow(QStringLiteral("Unit"), unit_kind_);
    settings->addRow(QStringLiteral("Cost"), cost_);
    settings->addRow(QStringLiteral("Hardware"), hardware_);
    settings->addRow(QStringLiteral("Budget (runs)"), budget_);
    settings->addRow(QStringLiteral("Held-out seed"), validation_seed_);

    tune_ = new QPushButton(QStringLiteral("&Tune"), this);
    tune_->setObjectName(QStringLiteral("tune"));
    cancel_ = new QPushButton(QStringLiteral("Cancel"), this);
    auto* open = new QPushButton(QStringLiteral("Open report..."), this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setFormat(QString());
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(tune_);
    buttons->addWidget(cancel_);

    auto* form_box = new QGroupBox(QStringLiteral("Tune"), this);
    auto* form_layout = new QVBoxLayout(form_box);
    form_layout->addWidget(workload_);
    form_layout->addWidget(parameters, 1);
    form_layout->addLayout(settings);
    form_layout->addLayout(buttons);
    form_layout->addWidget(open);
    form_layout->addWidget(progress_);
    form_layout->addWidget(message_);
    // The form scrolls rather than hold the window taller than a small screen (every view shares its height).
    auto* form_scroll = new QScrollArea(this);
    form_scroll->setWidget(form_box);
    form_scroll->setWidgetResizable(true);
    form_scroll->setFrameShape(QFrame::NoFrame);
    form_scroll->setMinimumWidth(260);
    form_scroll->setMaximumWidth(420);
    // The start of a long target or candidate list says more than its end.
    target_->setCursorPosition(0);
    candidates_->setCursorPosition(0);

    held_out_ = new QLabel(this);
    held_out_->setObjectName(QStringLiteral("held_out"));
    held_out_->setWordWrap(true);
    held_out_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    strip_ = new AssignmentStrip(colours_, this);
    selected_policy_ = new QLabel(QStringLiteral("Click a point of the front to see its policy."), this);
    selected_policy_->setWordWrap(true);
    selected_policy_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    open_in_runner_ = new QPushButton(QStringLiteral("Open in &Runner"), this);
    open_in_runner_->setEnabled(false);
    auto* selection = new QHBoxLayout;
    selection->addWidget(selected_policy_, 1);
    selection->addWidget(open_in_runner_);

    auto* figures_widget = new QWidget(this);
    figures_ = new QVBoxLayout(figures_widget);
    figures_->setContentsMargins(0, 0, 0, 0);
    figures_->addWidget(held_out_);
    // The plots' place, filled by show_report; until then what the view is for.
    auto* introduction = new QLabel(
        QStringLiteral(
            "The advisor finds the cheapest setting of each unit (layer, op type, node) among the candidates "
            "that meets the target against the MPFR truth. Every configuration it proposes is run, never "
            "predicted.\n\nPress Tune, or open a report that floatscope-cli tune --csv or --json wrote."),
        this);
    introduction->setWordWrap(true);
    introduction->setAlignment(Qt::AlignCenter);
    figures_->addWidget(introduction, 1);
    figures_->addWidget(new QLabel(QStringLiteral("Recommended setting per unit:"), this));
    figures_->addWidget(strip_);
    figures_->addLayout(selection);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(form_scroll, 1);
    layout->addWidget(figures_widget, 3);

    connect(workload_, &QComboBox::currentTextChanged, this, &AdvisorView::choose_workload);
    connect(tune_, &QPushButton::clicked, this, &AdvisorView::start_tune);
    connect(cancel_, &QPushButton::clicked, this, &AdvisorView::cancel_tune);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open tune report"), QString(),
                                                          QStringLiteral("Reports (*.csv *.json)"));
        if (!path.isEmpty()) open_report(path);
    });
    connect(open_in_runner_, &QPushButton::clicked, this, [this] {
        if (const std::optional<RunSetup> setup = selected_setup()) emit open_in_runner(*setup);
    });

    worker_ = new RunWorker(this);
    connect(worker_, &RunWorker::progress, this,
            [this](double fraction, const QString& what) { show_run_progress(*progress_, fraction, what); });
    connect(worker_, &RunWorker::finished, this, [this](const emu::Report& report) {
        show_running(false);
        progress_->setFormat(QStringLiteral("done"));
        try {
            show_report(report, running_target_, running_cost_unit_);
        } catch (const std::exception& e) {  // a slot must not throw: said, as a failed tune is
            tune_error_ = QString::fromUtf8(e.what());
            show_message(tune_error_, true);
            emit tune_over();
            return;
        }
        const plots::TunedConfiguration* best = outcome_->recommended();
        show_message(best ? QStringLiteral("%1 configurations run; recommended %2.")
                                .arg(outcome_->configurations.size())
                                .arg(text(best->name))
                          : QStringLiteral("No configuration met the target, the reference included."),
                     !best);
        emit tune_over();
    });
    connect(worker_, &RunWorker::failed, this, [this](const QString& why, bool cancelled) {
        show_running(false);
        tune_error_ = why;
        show_message(why, !cancelled);
        emit tune_over();
    });

    workload_->setCurrentText(QStringLiteral("mlp-forward"));
    choose_workload(workload_->currentText());
    form_->set_values(default_parameters);
    show_running(false);
}

void AdvisorView::choose_workload(const QString& name) {
    const emu::Workload& workload = emu::find_workload(name.toStdString());
    form_->set_schema(workload.parameters());
    unit_kind_->clear();
    for (const std::string& kind : workload.policy_unit_kinds()) unit_kind_->addItem(text(kind));
    unit_kind_->setEnabled(unit_kind_->count() > 0);
    if (unit_kind_->count() == 0) unit_kind_->addItem(QStringLiteral("the whole run"));
}

emu::TuneRequest AdvisorView::request() const {
    emu::TuneRequest request;
    request.workload = &emu::find_workload(workload_->currentText().toStdString());
    for (const auto& [name, value] : form_->values()) request.assignments.push_back(name + "=" + value);
    request.target = emu::parse_tuning_target(target_->text().toStdString());
    request.candidates = emu::parse_candidate_space(candidates_->text().toStdString());
    if (unit_kind_->isEnabled()) request.unit_kind = unit_kind_->currentText().toStdString();
    request.cost = emu::parse_cost_kind(cost_->currentText().toStdString());
    request.hardware = hardware_->currentText().toStdString();
    request.budget_runs = budget_->value();
    const std::string seed = validation_seed_->text().trimmed().toStdString();
    if (!seed.empty()) request.validation_assignments.push_back("seed=" + seed);
    request.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return request;
}

bool AdvisorView::start_tune() {
    if (worker_->running()) return false;
    emu::TuneRequest tune_request;
    try {
        tune_request = request();
    } catch (const std::exception& e) {
        show_message(QString::fromUtf8(e.what()), true);
        return false;
    }
    tune_error_.clear();
    running_target_ = tune_request.target.text;
    running_cost_unit_ = emu::cost_unit(tune_request.cost);
    show_running(true);
    return worker_->start([tune_request](emu::RunControl& control) {
        return emu::tune_report(tune_request, emu::tune(tune_request, control));
    });
}

void AdvisorView::cancel_tune() { worker_->cancel(); }
bool AdvisorView::running() const { return worker_->running(); }

QString AdvisorView::tune_and_wait() {
    QEventLoop loop;
    connect(this, &AdvisorView::tune_over, &loop, &QEventLoop::quit);
    if (!start_tune()) return message();
    loop.exec();
    return tune_error_;
}

void AdvisorView::show_running(bool running) { show_run_state(*tune_, *cancel_, *progress_, *message_, running); }

void AdvisorView::show_message(const QString& message, bool error) { show_run_message(*message_, message, error); }

QString AdvisorView::message() const { return message_->text(); }

void AdvisorView::show_report(const emu::Report& report, const std::string& target, const std::string& cost_unit) {
    plots::TuneOutcome outcome = plots::read_tune_outcome(report);
    outcome.target = target;
    outcome.cost_unit = cost_unit;
    std::vector<UnitSetting> assignment = recommended_assignment(outcome);
    report_ = report;
    outcome_ = std::move(outcome);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    front_ = new plots::PlotChartView(plots::tune_front_plot(*outcome_), &colours_, splitter);
    front_->setObjectName(QStringLiteral("tune_front"));
    sensitivity_ = new plots::PlotChartView(plots::tune_sensitivity_plot(*outcome_), &colours_, splitter);
    sensitivity_->setObjectName(QStringLiteral("tune_sensitivity"));
    splitter->addWidget(front_);
    splitter->addWidget(sensitivity_);
    connect(front_, &plots::PlotChartView::point_clicked, this, &AdvisorView::clicked_point);
    QLayoutItem* old = figures_->itemAt(1);
    figures_->replaceWidget(old->widget(), splitter);
    old->widget()->deleteLater();
    delete old;
    figures_->setStretch(1, 1);

    strip_->set_assignment(std::move(assignment));
    show_held_out();
    const plots::TunedConfiguration* best = outcome_->recommended();
    if (!select_configuration(best ? best->name : outcome_->configurations.front().name)) selected_.clear();
}

void AdvisorView::show_held_out() {
    const plots::TunedConfiguration* best = outcome_->recommended();
    if (!best) {
        held_out_->setStyleSheet(error_style_sheet());
        held_out_->setText(QStringLiteral("No configuration met %1.").arg(target_name(*outcome_)));
        return;
    }
    const plots::TunedConfiguration* reference = outcome_->reference();
    QString line = QStringLiteral("Recommended %1: %2 when tuned (%3 %4), cost %5% of the reference's")
                       .arg(text(best->name), number(best->measure),
                            best->meets ? QStringLiteral("meets") : QStringLiteral("FAILS"), target_name(*outcome_),
                            reference ? number(100 * best->cost / reference->cost) : QStringLiteral("-"));
    const bool fails_held_out = best->held_out_meets && !*best->held_out_meets;
    if (best->held_out)
        line += QStringLiteral("   |   held out: %1 (%2); the reference there: %3")
                    .arg(number(*best->held_out),
                         fails_held_out ? QStringLiteral("FAILS: flagged, do not rely on it") : QStringLiteral("meets"),
                         reference && reference->held_out ? number(*reference->held_out) : QStringLiteral("-"));
    else
        line += QStringLiteral("   |   no held-out check");
    held_out_->setStyleSheet(fails_held_out ? error_style_sheet() : QString());
    held_out_->setText(line);
}

bool AdvisorView::open_report(const QString& path) {
    try {
        std::istringstream in(core::read_input_file(path.toStdString(), "tune report"));
        const emu::Report report =
            path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive) ? emu::read_json(in) : emu::read_csv(in);
        show_report(report);
    } catch (const std::exception& e) {
        show_message(QStringLiteral("%1: %2").arg(path, QString::fromUtf8(e.what())), true);
        return false;
    }
    show_message(QStringLiteral("Showing %1.").arg(path), false);
    return true;
}

std::string AdvisorView::csv() const {
    if (!outcome_) return {};
    std::ostringstream out;
    emu::write_csv(report_, out);
    return out.str();
}

bool AdvisorView::select_configuration(const std::string& name) {
    if (!outcome_) return false;
    const auto& all = outcome_->configurations;
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const plots::TunedConfiguration& c) { return c.name == name; });
    if (it == all.end()) return false;
    selected_ = name;
    selected_policy_->setText(QStringLiteral("%1 (%2): %3, %4 %5; cost %6 %7\n%8")
                                  .arg(text(it->name), text(it->phase), number(it->measure),
                                       it->meets ? QStringLiteral("meets") : QStringLiteral("misses"),
                                       target_name(*outcome_), number(it->cost), text(outcome_->cost_unit),
                                       text(it->policy)));
    open_in_runner_->setEnabled(!it->policy.empty());
    return true;
}

std::optional<RunSetup> AdvisorView::selected_setup() const {
    if (!outcome_ || selected_.empty()) return std::nullopt;
    for (const plots::TunedConfiguration& c : outcome_->configurations)
        if (c.name == selected_) {
            RunSetup setup;
            setup.workload = outcome_->workload;
            setup.parameters.insert(outcome_->parameters.begin(), outcome_->parameters.end());
            setup.policies.push_back({c.policy, {}});
            return setup;
        }
    return std::nullopt;
}

/// Qt gives the clicked position, not the point: the configuration of that series nearest to it,
/// measured on the axes' own scales (decades on a log axis).
void AdvisorView::clicked_point(int series, QPointF point) {
    const plots::PlotModel& plot = front_->model();
    const std::string& name = plot.series.at(static_cast<std::size_t>(series)).name;
    const auto scaled = [](const plots::Axis& axis, double v) {
        return axis.scale == plots::AxisScale::Log ? std::log10(v) : v;
    };
    const plots::TunedConfiguration* nearest = nullptr;
    double best = std::numeric_limits<double>::infinity();
    for (const plots::TunedConfiguration& c : outcome_->configurations) {
        const bool in_series =
            name == plots::recommended_series ? c.recommended : (name == plots::meets_series) == c.meets;
        if (!in_series) continue;
        const double dx = scaled(plot.x_axis, c.cost) - scaled(plot.x_axis, point.x());
        const double dy = scaled(plot.y_axis, c.measure) - scaled(plot.y_axis, point.y());
        const double distance = dx * dx + dy * dy;
        if (distance < best) best = distance, nearest = &c;
    }
    if (nearest) select_configuration(nearest->name);
}

}  // namespace floatscope::gui
