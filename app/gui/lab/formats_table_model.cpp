// Columns of the formats table; compact values in the cell, exact ones in the tooltip and the export.
// Formats wider than binary64 take their limits from MPFR (core::wide_format_properties), never a double.
#include "app/gui/lab/formats_table_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "app/gui/lab/lab_state.hpp"
#include "core/decimal.hpp"
#include "core/error.hpp"
#include "core/exact_text.hpp"
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

/// Decimal digits a tooltip spells out; longer exact values show as hex floats there.
constexpr std::size_t tooltip_digits = 60;

QString specials(const core::FormatProperties& p) {
    auto yes_no = [](bool b) { return b ? QStringLiteral("yes") : QStringLiteral("no"); };
    return yes_no(p.has_infinity) + " / " + yes_no(p.has_nan) + " / " + yes_no(p.has_negative_zero);
}

bool is_limit(int column) { return column >= MaxFinite && column <= Epsilon; }

double narrow_limit(const core::FormatProperties& p, int column) {
    switch (column) {
        case MaxFinite: return p.max_finite;
        case MinNormal: return p.min_normal;
        case MinSubnormal: return p.min_subnormal;
        default: return p.epsilon;
    }
}

const core::WideValue& wide_limit(const core::WideFormatProperties& w, int column) {
    switch (column) {
        case MaxFinite: return w.max_finite;
        case MinNormal: return w.min_normal;
        case MinSubnormal: return w.min_subnormal;
        default: return w.epsilon;
    }
}

/// A limit column's cell: the double's text, or the wide format's exact value through MPFR.
QVariant limit_data(const FormatsTableModel::Row& row, int column, int role) {
    if (role == Qt::DisplayRole) {
        return row.wide ? QString::fromStdString(core::significant_text(wide_limit(*row.wide, column), 6))
                        : compact(narrow_limit(row.properties, column));
    }
    if (role == Qt::ToolTipRole)
        return row.wide ? QString::fromStdString(core::exact_text_with_magnitude(wide_limit(*row.wide, column), tooltip_digits, 20)) : exact(narrow_limit(row.properties, column));
    if (role == FormatsTableModel::export_role) {
        return row.wide ? QString::fromStdString(
                              core::exact_text(wide_limit(*row.wide, column), core::max_exact_decimal_digits))
                        : exact(narrow_limit(row.properties, column));
    }
    // Sorting: log2 of the magnitude, which orders binary256's limits among the doubles' too.
    return row.wide ? core::log2_magnitude(wide_limit(*row.wide, column))
                    : std::log2(narrow_limit(row.properties, column));
}

/// The count of finite values: an integer, or 6 digits where a wide format's has more than 20.
QVariant values_data(const FormatsTableModel::Row& row, int role) {
    if (!row.wide)
        return role == FormatsTableModel::sort_role ? QVariant(static_cast<double>(row.properties.finite_values))
                                                    : QVariant(QString::number(row.properties.finite_values));
    const mpz_class& count = row.wide->finite_values;
    if (role == FormatsTableModel::sort_role) return count.get_d();  // +inf beyond a double's range
    const std::size_t digits = role == Qt::DisplayRole ? 20 : std::string::npos;
    return QString::fromStdString(core::count_text(count, digits));
}

FormatsTableModel::Row row_of(const core::FormatSpec& spec) {
    FormatsTableModel::Row row{spec, {}, std::nullopt, {}};
    if (!core::is_wider_than_binary64(spec)) {
        row.properties = core::format_properties(spec);
        return row;
    }
    try {
        row.wide = core::wide_format_properties(spec);
        row.properties = row.wide->shape;
    } catch (const Error& e) {
        row.error = e.what();
    }
    return row;
}

/// A row whose format has no properties here: its fields, "-", and why in the description.
QVariant error_data(const FormatsTableModel::Row& row, int column, int role) {
    if (role != Qt::DisplayRole && role != FormatsTableModel::export_role && role != FormatsTableModel::sort_role &&
        role != Qt::ToolTipRole)
        return {};
    switch (column) {
        case Name: return QString::fromStdString(row.spec.name);
        case Bits: return row.spec.total_bits();
        case Exponent: return row.spec.exponent_bits;
        case Mantissa: return row.spec.mantissa_bits;
        case Bias: return row.spec.bias;
        case Description: return QString::fromStdString(row.error);
        default: return role == Qt::ToolTipRole ? QString::fromStdString(row.error) : QStringLiteral("-");
    }
}

}  // namespace

FormatsTableModel::FormatsTableModel(const LabState& state, QObject* parent)
    : QAbstractTableModel(parent), state_(state) {
    reload();
    connect(&state, &LabState::formats_changed, this, &FormatsTableModel::reload);
}

void FormatsTableModel::reload() {
    beginResetModel();
    rows_.clear();
    // The named wide formats (binary256, binary128) first, widest first as the catalog goes on
    // (fp64, fp32, ...), whether or not the lab has added them (the sidebar adds them by name).
    const std::vector<core::FormatSpec>& known = state_.formats();
    for (const core::FormatSpec& f : core::named_wide_formats())
        if (std::none_of(known.begin(), known.end(), [&](const core::FormatSpec& k) { return k.name == f.name; }))
            rows_.push_back(row_of(f));
    for (const core::FormatSpec& f : known) rows_.push_back(row_of(f));
    endResetModel();
}

int FormatsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FormatsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant FormatsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const core::FormatSpec& f = row.spec;
    const core::FormatProperties& p = row.properties;
    const bool binary = f.kind == core::FormatKind::Binary || f.kind == core::FormatKind::ExponentScale;
    const bool has_mantissa = f.kind == core::FormatKind::Binary || f.is_tapered();  // tapered: the bits at 1
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == Name || column == Description || column == Specials
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (!row.error.empty()) return error_data(row, column, role);
    if (is_limit(column) && (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == sort_role ||
                             role == export_role)) {
        if (column == Epsilon && !has_mantissa) {
            if (role == sort_role) return -std::numeric_limits<double>::infinity();
            return role == Qt::ToolTipRole ? QVariant() : QVariant(QStringLiteral("-"));
        }
        return limit_data(row, column, role);
    }
    if (column == Values && (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == sort_role ||
                             role == export_role))
        return values_data(row, role);
    if (role == Qt::ToolTipRole) return QString::fromStdString(f.description);
    if (role == sort_role) {
        switch (column) {
            case Bits: return p.total_bits;
            case Exponent: return binary ? p.exponent_bits : -1;
            case Mantissa: return has_mantissa ? p.mantissa_bits : -1;
            case Bias: return binary ? p.bias : -1;
            case Digits: return p.decimal_digits;
            case RangeDecades: return p.dynamic_range_decades;
            case GbPerBillion: return p.gb_per_billion;
            default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == export_role) return data(index, Qt::DisplayRole);
    if (role != Qt::DisplayRole) return {};
    switch (column) {
        case Name: return QString::fromStdString(f.name);
        case Bits: return p.total_bits;
        case Exponent: return binary ? QVariant(p.exponent_bits) : QVariant(QStringLiteral("-"));
        case Mantissa: return has_mantissa ? QVariant(p.mantissa_bits) : QVariant(QStringLiteral("-"));
        case Bias: return binary ? QVariant(p.bias) : QVariant(QStringLiteral("-"));
        case Digits: return QString::number(p.decimal_digits, 'f', 2);
        case RangeDecades: return QString::number(p.dynamic_range_decades, 'f', 1);
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
