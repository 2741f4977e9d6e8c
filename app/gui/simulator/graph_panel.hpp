// GraphPanel: the nodes of the ONNX model the onnx workload runs, in the order it runs them.
#pragma once

#include <QStringList>
#include <QWidget>
#include <vector>

#include "emulation/simulation/report.hpp"
#include "emulation/workloads/onnx/graph.hpp"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace floatscope::gui {

/// A summary line (producer, opset, inputs, outputs) and a row per node: its position, name, op
/// type, the shapes of its outputs and what it reads (shapes declared in the model or inferred by
/// ONNX's shape inference; "?" where neither knows). A model that does not read says why instead.
/// After a run of the model, a column per policy holds its normwise error at each node.
class GraphPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphPanel(QWidget* parent = nullptr);

    /// Reads the model at `path` (empty: clears the panel). Returns false, showing the error, when it does not read.
    bool show_model(const QString& path);
    /// The op types of the model shown, sorted (for the policy editor's per-op overrides).
    QStringList op_types() const { return op_types_; }
    QTreeWidget* nodes() const { return nodes_; }
    QString summary() const;
    /// A column per policy of the report's runs of the model shown: its normwise error at each
    /// node (the node regions, by Node::id), on a background from green to red by bits correct,
    /// "FAILED" where the node's values are NaN or infinite where the truth is finite. A report of
    /// another workload or model leaves only the model's own columns.
    void show_errors(const emu::Report& report);

    /// The role of column 0 that holds a node row's Node::id (a subgraph's row holds none).
    static constexpr int node_id_role = Qt::UserRole;

private:
    /// Adds `graph`'s nodes under `parent` (nullptr: the tree's top level), and under each node the
    /// subgraphs it holds (If's branches, a Loop's or Scan's body), each with its nodes.
    void add_nodes(const emu::onnx::Graph& graph, QTreeWidgetItem* parent);

    QLabel* summary_ = nullptr;
    QTreeWidget* nodes_ = nullptr;
    QStringList op_types_;
    QString path_;  ///< the model shown
};

}  // namespace floatscope::gui
