// FormatsTableModel: the catalog's formats and their exact properties, as a Qt table model.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "core/format.hpp"
#include "core/format_properties.hpp"

namespace floatscope::gui {

class FormatsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit FormatsTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<core::FormatSpec> formats_;
    std::vector<core::FormatProperties> properties_;
};

}  // namespace floatscope::gui
