// FormatsTableModel: every known format (catalog and custom) and its exact properties, as a Qt table model.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "core/format.hpp"
#include "core/format_properties.hpp"

namespace floatscope::gui {

class LabState;

class FormatsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Data for sorting: numbers as numbers, so that 1e-5 sorts below 0.001.
    static constexpr int sort_role = Qt::UserRole;
    /// Data for export: exact decimals where the cell shows a rounded one.
    static constexpr int export_role = Qt::UserRole + 1;

    /// Follows the state's formats: a custom format added there appears here at once.
    explicit FormatsTableModel(const LabState& state, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void reload();

    const LabState& state_;
    std::vector<core::FormatSpec> formats_;
    std::vector<core::FormatProperties> properties_;
};

}  // namespace floatscope::gui
