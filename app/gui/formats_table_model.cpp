// Columns of the formats table; exact values in the tooltip, compact ones in the cell.
#include "app/gui/formats_table_model.hpp"

#include <array>

#include "core/catalog.hpp"
#include "core/decimal.hpp"

namespace floatscope::gui {

namespace {

enum Column { Name, Bits, Exponent, Mantissa, Bias, MaxFinite, MinNormal, MinSubnormal, Epsilon, Digits,
              RangeDecades, Values, BytesPerValue, Specials, Description, ColumnCount };

const std::array<const char*, ColumnCount> column_titles = {
    "Format", "Bits", "E", "M", "Bias", "Max finite", "Min normal", "Min subnormal", "Epsilon",
    "Decimal digits", "Range (decades)", "Finite values", "Bytes/value", "inf / NaN / -0", "Description"};

QString compact(double x) { return QString::number(x, 'g', 6); }

QString specials(const core::FormatProperties& p) {
    auto yes_no = [](bool b) { return b ? QStringLiteral("yes") : QStringLiteral("no"); };
    return yes_no(p.has_infinity) + " / " + yes_no(p.has_nan) + " / " + yes_no(p.has_negative_zero);
}

}  // namespace

FormatsTableModel::FormatsTableModel(QObject* parent) : QAbstractTableModel(parent) {
    formats_ = core::catalog_formats();
    for (const core::FormatSpec& f : formats_) properties_.push_back(core::format_properties(f));
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
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
            case MaxFinite: return QString::fromStdString(core::exact_decimal(p.max_finite));
            case MinNormal: return QString::fromStdString(core::exact_decimal(p.min_normal));
            case MinSubnormal: return QString::fromStdString(core::exact_decimal(p.min_subnormal));
            default: return QString::fromStdString(f.description);
        }
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name || index.column() == Description || index.column() == Specials
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Name: return QString::fromStdString(f.name);
        case Bits: return p.total_bits;
        case Exponent: return binary ? QVariant(p.exponent_bits) : QVariant(QStringLiteral("-"));
        case Mantissa: return binary ? QVariant(p.mantissa_bits) : QVariant(QStringLiteral("-"));
        case Bias: return binary ? QVariant(p.bias) : QVariant(QStringLiteral("-"));
        case MaxFinite: return compact(p.max_finite);
        case MinNormal: return compact(p.min_normal);
        case MinSubnormal: return compact(p.min_subnormal);
        case Epsilon: return binary ? compact(p.epsilon) : QStringLiteral("-");
        case Digits: return QString::number(p.decimal_digits, 'f', 2);
        case RangeDecades: return QString::number(p.dynamic_range_decades, 'f', 1);
        case Values: return QString::number(static_cast<qulonglong>(p.finite_values));
        case BytesPerValue: return QString::number(p.bytes_per_value, 'g', 4);
        case Specials: return specials(p);
        case Description: return QString::fromStdString(f.description);
        default: return {};
    }
}

QVariant FormatsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    return QString::fromLatin1(column_titles[static_cast<std::size_t>(section)]);
}

}  // namespace floatscope::gui
