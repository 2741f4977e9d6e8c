// The formats table view: a sort proxy over FormatsTableModel, Ctrl+C copies rows as TSV.
#include "app/gui/lab/formats_view.hpp"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <set>

#include "app/gui/lab/formats_table_model.hpp"
#include "core/csv.hpp"

namespace floatscope::gui {

FormatsView::FormatsView(LabState& state, QWidget* parent) : QWidget(parent) {
    auto* model = new FormatsTableModel(state, this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model);
    proxy_->setSortRole(FormatsTableModel::sort_role);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1);

    auto* filter = new QLineEdit(this);
    filter->setPlaceholderText(QStringLiteral("Filter formats (name or description)"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);

    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // catalog order until a header is clicked
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    fit_to_font();
    connect(model, &QAbstractItemModel::modelReset, table_, &QTableView::resizeColumnsToContents);

    // The table's own Ctrl+C copies one cell; the filter copies whole rows instead, and sees font changes.
    table_->installEventFilter(this);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(filter);
    layout->addWidget(table_, 1);
}

bool FormatsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_ && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Copy)) {
        QApplication::clipboard()->setText(selection_as_tsv());
        return true;
    }
    // After the event: the header, a child of the table, takes the new font in its own turn.
    if (watched == table_ && event->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, [this] { fit_to_font(); });
    return QWidget::eventFilter(watched, event);
}

void FormatsView::fit_to_font() {
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->resizeColumnsToContents();
}

QString FormatsView::selection_as_tsv() const {
    std::set<int> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) rows.insert(index.row());
    if (rows.empty())
        for (int row = 0; row < proxy_->rowCount(); ++row) rows.insert(row);
    QStringList lines;
    QStringList header;
    for (int column = 0; column < proxy_->columnCount(); ++column)
        header << proxy_->headerData(column, Qt::Horizontal).toString();
    lines << header.join('\t');
    for (int row : rows) {
        QStringList cells;
        for (int column = 0; column < proxy_->columnCount(); ++column)
            cells << proxy_->index(row, column).data(FormatsTableModel::export_role).toString();
        lines << cells.join('\t');
    }
    return lines.join('\n') + '\n';
}

std::string FormatsView::csv() const {
    std::vector<std::string> header;
    for (int column = 0; column < proxy_->columnCount(); ++column)
        header.push_back(proxy_->headerData(column, Qt::Horizontal).toString().toStdString());
    std::string out = core::csv_record(header, core::csv_crlf);
    for (int row = 0; row < proxy_->rowCount(); ++row) {
        std::vector<std::string> cells;
        for (int column = 0; column < proxy_->columnCount(); ++column)
            cells.push_back(proxy_->index(row, column).data(FormatsTableModel::export_role).toString().toStdString());
        out += core::csv_record(cells, core::csv_crlf);
    }
    return out;
}

}  // namespace floatscope::gui
