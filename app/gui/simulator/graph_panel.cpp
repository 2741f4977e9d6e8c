// The node list of an ONNX model: read with the workload's own reader, shapes from the model.
#include "app/gui/simulator/graph_panel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <fmt/format.h>

#include "core/error.hpp"
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
    nodes_->setHeaderLabels({QStringLiteral("#"), QStringLiteral("node"), QStringLiteral("op"),
                             QStringLiteral("output shape"), QStringLiteral("reads")});
    nodes_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(nodes_, 1);
    show_model({});
}

bool GraphPanel::show_model(const QString& path) {
    nodes_->clear();
    op_types_.clear();
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
        for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
            const emu::onnx::Node& node = graph.nodes[i];
            auto* item = new QTreeWidgetItem(
                nodes_, {QString::number(i), QString::fromStdString(node.name), QString::fromStdString(node.op_type),
                         shapes(graph, node.outputs), joined(graph, node.inputs)});
            item->setToolTip(1, QString::fromStdString(node.name));
            item->setToolTip(3, joined(graph, node.outputs));
            const QString op = QString::fromStdString(node.op_type);
            if (!op_types_.contains(op)) op_types_ << op;
        }
        op_types_.sort();
        return true;
    } catch (const Error& e) {
        summary_->setText(QString::fromStdString(e.what()));
        summary_->setStyleSheet(QStringLiteral("color: #b00020"));
        return false;
    }
}

QString GraphPanel::summary() const { return summary_->text(); }

}  // namespace floatscope::gui
