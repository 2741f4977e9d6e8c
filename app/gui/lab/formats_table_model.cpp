// Columns of the formats table; compact values in the cell, exact ones in the tooltip and the export.
#include "app/gui/lab/formats_table_model.hpp"

#include <array>

#include "app/gui/lab/lab_state.hpp"
#include "core/decimal.hpp"
#include "core/format_width.hpp"

namespace floatscope::gui {

namespace {

enum Column {
    Name,
    Bits,
    Exponent,
    Mantissa,
    Bias,
    MaxFinite,
    MinNormal,
    MinSubnormal,
    Epsilon,
    Digits,
    RangeDecades,
    Values,
    GbPerBillion,
    Specials,
    Description,
    ColumnCount
};

const std::array<const char*, ColumnCount> column_titles = {"Format",  "Bits",       "E",          "M",
                                                            "Bias",    "Max finite", "Min normal", "Min subnormal",
                                                            "Epsilon", "Digits",     "Decades",    "Finite values",
                                                            "GB/1e9",  "inf/NaN/-0", "Description"};

QString compact(double x) { return QString::number(x, 'g', 6); }
QString exact(double x) { return QString::fromStdString(core::exact_decimal(x)); }

QString specials(const core::FormatProperties& p) {
    auto yes_no = [](bool b) { return b ? QStringLiteral("yes") : QStringLiteral("no"); };
    return yes_no(p.has_infinity) + " / " + yes_no(p.has_nan) + " / " + yes_no(p.has_negative_zero);
}

}  // namespace

FormatsTableModel::FormatsTableModel(const LabState& state, QObject* parent)
    : QAbstractTableModel(parent), state_(state) {
    reload();
    connect(&state, &LabState::formats_changed, this, &FormatsTableModel::reload);
}

void FormatsTableModel::reload() {
    beginResetModel();
    // Formats wider than binary64 (the Bits view shows them) have no row: their properties are not doubles.
    formats_.clear();
    for (const core::FormatSpec& f : state_.formats())
        if (!core::is_wider_than_binary64(f)) formats_.push_back(f);
    properties_.clear();
    for (const core::FormatSpec& f : formats_) properties_.push_back(core::format_properties(f));
    endResetModel();
}

int FormatsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(formats_.size());
}

int FormatsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant FormatsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const core::FormatSpec& f = formats_[static_cast<std::size_t>(index.row())];
    const core::FormatProperties& p = properties_[static_cast<std::size_t>(index.row())];
    const bool binary = f.kind == core::FormatKind::Binary || f.kind == core::FormatKind::ExponentScale;
    const bool has_mantissa = f.kind == core::FormatKind::Binary || f.is_tapered();  // tapered: the bits at 1
    const int column = index.column();
    if (role == Qt::ToolTipRole) {
        switch (column) {
            case MaxFinite: return exact(p.max_finite);
            case MinNormal: return exact(p.min_normal);
            case MinSubnormal: return exact(p.min_subnormal);
            case Epsilon: return has_mantissa ? exact(p.epsilon) : QVariant();
            default: return QString::fromStdString(f.description);
        }
    }
    if (role == Qt::TextAlignmentRole)
        return column == Name || column == Description || column == Specials
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == sort_role) {
        switch (column) {
            case Bits: return p.total_bits;
            case Exponent: return binary ? p.exponent_bits : -1;
            case Mantissa: return has_mantissa ? p.mantissa_bits : -1;
            case Bias: return binary ? p.bias : -1;
            case MaxFinite: return p.max_finite;
            case MinNormal: return p.min_normal;
            case MinSubnormal: return p.min_subnormal;
            case Epsilon: return has_mantissa ? p.epsilon : -1.0;
            case Digits: return p.decimal_digits;
            case RangeDecades: return p.dynamic_range_decades;
            case Values: return static_cast<qulonglong>(p.finite_values);
            case GbPerBillion: return p.gb_per_billion;
            default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == export_role) {
        switch (column) {
            case MaxFinite: return exact(p.max_finite);
            case MinNormal: return exact(p.min_normal);
            case MinSubnormal: return exact(p.min_subnormal);
            case Epsilon: return has_mantissa ? exact(p.epsilon) : QStringLiteral("-");
            default: return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
        case Name: return QString::fromStdString(f.name);
        case Bits: return p.total_bits;
        case Exponent: return binary ? QVariant(p.exponent_bits) : QVariant(QStringLiteral("-"));
        case Mantissa: return has_mantissa ? QVariant(p.mantissa_bits) : QVariant(QStringLiteral("-"));
        case Bias: return binary ? QVariant(p.bias) : QVariant(QStringLiteral("-"));
        case MaxFinite: return compact(p.max_finite);
        case MinNormal: return compact(p.min_normal);
        case MinSubnormal: return compact(p.min_subnormal);
        case Epsilon: return has_mantissa ? compact(p.epsilon) : QStringLiteral("-");
        case Digits: return QString::number(p.decimal_digits, 'f', 2);
        case RangeDecades: return QString::number(p.dynamic_range_decades, 'f', 1);
        case Values: return QString::number(static_cast<qulonglong>(p.finite_values));
        case GbPerBillion: return QString::number(p.gb_per_billion, 'g', 4);
        case Specials: return specials(p);
        case Description: return QString::fromStdString(f.description);
        default: return {};
    }
}

QVariant FormatsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const std::array<const char*, ColumnCount> header_tips = {
        "",
        "total bits",
        "exponent bits",
        "mantissa (fraction) bits",
        "exponent bias",
        "largest finite value",
        "smallest positive normal value",
        "smallest positive value",
        "2^-M: gap between 1 and the next value",
        "significant decimal digits: (M+1) log10 2, or log10 of the value count",
        "dynamic range: log10(max finite / min subnormal)",
        "distinct finite values (+0 and -0 once)",
        "gigabytes for 10^9 values",
        "has infinities / NaN / negative zero",
        ""};
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section >= 0 && section < ColumnCount)
        return QString::fromLatin1(header_tips[static_cast<std::size_t>(section)]);
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    return QString::fromLatin1(column_titles[static_cast<std::size_t>(section)]);
}

}  // namespace floatscope::gui
