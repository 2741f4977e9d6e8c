// GraphPanel: the nodes of the ONNX model the onnx workload runs, in the order it runs them.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QTreeWidget;

namespace floatscope::gui {

/// A summary line (producer, opset, inputs, outputs) and a row per node: its position, name, op
/// type, the shapes of its outputs and what it reads (shapes declared in the model or inferred by
/// ONNX's shape inference; "?" where neither knows). A model that does not read says why instead.
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

private:
    QLabel* summary_ = nullptr;
    QTreeWidget* nodes_ = nullptr;
    QStringList op_types_;
};

}  // namespace floatscope::gui
