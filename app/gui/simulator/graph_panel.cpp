// The node list of an ONNX model: read with the workload's own reader, shapes from the model.
#include "app/gui/simulator/graph_panel.hpp"

#include <QColor>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"

namespace floatscope::gui {

namespace {

/// "x [batch, 128, 256]" for a value whose shape the model knows, "x" otherwise.
QString value_text(const emu::onnx::Graph& graph, const std::string& name) {
    if (name.empty()) return QStringLiteral("-");
    const auto known = graph.value_shapes.find(name);
    if (const auto it = graph.initializers.find(name); it != graph.initializers.end())
        return QString::fromStdString(fmt::format("{} {}", name, emu::onnx::describe(it->second.shape)));
    if (known == graph.value_shapes.end()) return QString::fromStdString(name);
    return QString::fromStdString(fmt::format("{} {}", name, emu::onnx::describe(known->second)));
}

QString joined(const emu::onnx::Graph& graph, const std::vector<std::string>& names) {
    QStringList parts;
    for (const std::string& n : names) parts << value_text(graph, n);
    return parts.join(QStringLiteral(", "));
}

/// The shapes of a node's outputs ("[-1, 8, 16]"; "?" where unknown): the names are in the tooltip.
QString shapes(const emu::onnx::Graph& graph, const std::vector<std::string>& names) {
    QStringList parts;
    for (const std::string& n : names) {
        const auto known = graph.value_shapes.find(n);
        parts << (known == graph.value_shapes.end() ? QStringLiteral("?")
                                                    : QString::fromStdString(emu::onnx::describe(known->second)));
    }
    return parts.join(QStringLiteral(", "));
}

/// The columns every model has; a run's error columns follow them.
QStringList model_headers() {
    return {QStringLiteral("#"), QStringLiteral("node"), QStringLiteral("op"), QStringLiteral("output shape"),
            QStringLiteral("reads")};
}
constexpr int model_columns = 5;

/// The background of an error cell: green from 10 bits correct (fp16's precision), amber from 4,
/// red below, translucent so that the text stays readable on both palettes.
QColor error_background(double error) {
    const double bits = -std::log2(error);
    if (!(bits >= 4)) return QColor(0xd0, 0x30, 0x30, 90);
    if (bits < 10) return QColor(0xe0, 0xa0, 0x20, 90);
    return QColor(0x30, 0xa0, 0x50, 70);
}

}  // namespace

GraphPanel::GraphPanel(QWidget* parent) : QWidget(parent) {
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("graph_summary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    nodes_ = new QTreeWidget(this);
    nodes_->setObjectName(QStringLiteral("graph_nodes"));
    nodes_->setRootIsDecorated(false);
    nodes_->setUniformRowHeights(true);
    nodes_->setHeaderLabels(model_headers());
    nodes_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(nodes_, 1);
    show_model({});
}

bool GraphPanel::show_model(const QString& path) {
    nodes_->clear();
    nodes_->setColumnCount(model_columns);
    op_types_.clear();
    path_ = path;
    summary_->setStyleSheet({});
    if (path.isEmpty()) {
        summary_->setText(QStringLiteral("Open or drop an .onnx model to see its graph."));
        return false;
    }
    try {
        emu::onnx::Graph graph = emu::onnx::read_model(path.toStdString());
        emu::onnx::add_inferred_shapes(graph, path.toStdString());
        QStringList inputs, outputs;
        for (const auto& v : graph.inputs) inputs << value_text(graph, v.name);
        for (const auto& v : graph.outputs) outputs << value_text(graph, v.name);
        summary_->setText(QStringLiteral("%1 nodes, opset %2%3. Inputs: %4. Outputs: %5.")
                              .arg(graph.nodes.size())
                              .arg(graph.opset)
                              .arg(graph.producer.empty()
                                       ? QString()
                                       : QStringLiteral(", from %1").arg(QString::fromStdString(graph.producer)))
                              .arg(inputs.join(QStringLiteral(", ")), outputs.join(QStringLiteral(", "))));
        add_nodes(graph, nullptr);
        op_types_.sort();
        return true;
    } catch (const Error& e) {
        summary_->setText(QString::fromStdString(e.what()));
        summary_->setStyleSheet(QStringLiteral("color: #b00020"));
        return false;
    }
}

void GraphPanel::add_nodes(const emu::onnx::Graph& graph, QTreeWidgetItem* parent) {
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        const emu::onnx::Node& node = graph.nodes[i];
        const QStringList texts = {QString::number(i), QString::fromStdString(node.name),
                                   QString::fromStdString(node.op_type), shapes(graph, node.outputs),
                                   joined(graph, node.inputs)};
        auto* item = parent ? new QTreeWidgetItem(parent, texts) : new QTreeWidgetItem(nodes_, texts);
        item->setData(0, node_id_role, QVariant::fromValue<qulonglong>(node.id));
        item->setToolTip(1, QString::fromStdString(node.path.empty() ? node.name : node.path));
        item->setToolTip(3, joined(graph, node.outputs));
        const QString op = QString::fromStdString(node.op_type);
        if (!op_types_.contains(op)) op_types_ << op;
        for (const auto& [name, attribute] : node.attributes) {
            if (attribute.kind != emu::onnx::Attribute::Kind::Graph || !attribute.graph) continue;
            auto* subgraph = new QTreeWidgetItem(
                item, {QString(), QStringLiteral("%1 (%2 %3)")
                                      .arg(QString::fromStdString(name))
                                      .arg(attribute.graph->nodes.size())
                                      .arg(attribute.graph->nodes.size() == 1 ? QStringLiteral("node") : QStringLiteral("nodes"))});
            add_nodes(*attribute.graph, subgraph);
            subgraph->setExpanded(true);
        }
        if (item->childCount() > 0) item->setExpanded(true);
    }
}

QString GraphPanel::summary() const { return summary_->text(); }

void GraphPanel::show_errors(const emu::Report& report) {
    nodes_->setColumnCount(model_columns);
    // (run, policy) -> node id -> normwise error, for the runs of the model shown.
    std::vector<std::pair<std::string, std::string>> columns;
    std::map<std::pair<std::string, std::string>, std::map<int, double>> errors;
    for (const emu::RunInfo& run : report.runs) {
        if (path_.isEmpty() || run.workload != "onnx") continue;
        const auto model = std::find_if(run.parameters.begin(), run.parameters.end(),
                                        [](const auto& p) { return p.first == "model"; });
        if (model == run.parameters.end() || model->second != path_.toStdString()) continue;
        for (const emu::ReportRow& row : report.rows) {
            if (row.run != run.run || row.region_kind != "node" || row.metric != emu::metric::normwise_rel_error)
                continue;
            const std::pair<std::string, std::string> column{row.run, row.policy};
            if (std::find(columns.begin(), columns.end(), column) == columns.end()) columns.push_back(column);
            errors[column].emplace(row.region_index, row.value);
        }
    }
    QStringList headers = model_headers();
    const bool several_runs = report.runs.size() > 1;
    for (const auto& [run, policy] : columns)
        headers << QString::fromStdString(policy + (several_runs ? " (run " + run + ")" : "")) +
                       QStringLiteral(": normwise error");
    nodes_->setHeaderLabels(headers);
    // Shown beside the op, before the shapes and the long list of what a node reads.
    for (int c = 0; c < static_cast<int>(columns.size()); ++c)
        nodes_->header()->moveSection(nodes_->header()->visualIndex(model_columns + c), 3 + c);
    for (int c = 0; c < static_cast<int>(columns.size()); ++c)
        nodes_->headerItem()->setToolTip(model_columns + c,
                                         QStringLiteral("||x - t|| / ||t|| of the node's first floating output "
                                                        "against the ground truth; green from 10 bits correct, "
                                                        "amber from 4, red below"));
    for (QTreeWidgetItemIterator it(nodes_); *it; ++it) {
        QTreeWidgetItem* item = *it;
        const QVariant id = item->data(0, node_id_role);
        if (!id.isValid()) continue;  // a subgraph's row
        for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
            const std::map<int, double>& by_node = errors[columns[static_cast<std::size_t>(c)]];
            const auto found = by_node.find(static_cast<int>(id.toULongLong()));
            if (found == by_node.end()) {
                item->setText(model_columns + c, QStringLiteral("-"));
                continue;
            }
            const double error = found->second;
            const bool failed = !std::isfinite(error);
            item->setText(model_columns + c,
                          failed ? QStringLiteral("FAILED: NaN/inf") : QString::number(error, 'e', 2));
            item->setToolTip(model_columns + c,
                             failed ? QStringLiteral("NaN or infinite values where the truth is finite")
                                    : QStringLiteral("%1 bits correct").arg(-std::log2(error), 0, 'f', 1));
            item->setBackground(model_columns + c, error_background(error));
            item->setTextAlignment(model_columns + c, Qt::AlignRight | Qt::AlignVCenter);
        }
    }
}

}  // namespace floatscope::gui
