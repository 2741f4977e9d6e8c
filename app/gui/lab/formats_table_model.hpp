// FormatsTableModel: every known format (catalog, binary128/binary256 and custom) and its exact
// properties, as a Qt table model.
#pragma once

#include <QAbstractTableModel>
#include <optional>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "core/format_properties.hpp"
#include "core/wide_format_properties.hpp"

namespace floatscope::gui {

class LabState;

class FormatsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Data for sorting: numbers as numbers (the limits as log2 of their magnitude, which binary256's
    /// hold where a double does not), so that 1e-5 sorts below 0.001.
    static constexpr int sort_role = Qt::UserRole;
    /// Data for export: exact values where the cell shows a rounded one (formats wider than binary64:
    /// every decimal digit, as `show` prints them, or the exact hex float where those are too many).
    static constexpr int export_role = Qt::UserRole + 1;

    /// Follows the state's formats: a custom format added there appears here at once.
    explicit FormatsTableModel(const LabState& state, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// One format's row: narrow formats' properties are doubles, wider ones' exact values.
    struct Row {
        core::FormatSpec spec;
        core::FormatProperties properties;  ///< a wide format's: its WideFormatProperties::shape
        std::optional<core::WideFormatProperties> wide;
        std::string error;  ///< why the row has no properties (a wide format MPFR cannot take)
    };

private:
    void reload();

    const LabState& state_;
    std::vector<Row> rows_;
};

}  // namespace floatscope::gui
