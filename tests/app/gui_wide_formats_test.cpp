// Formats wider than binary64 in the lab: the formats table's and the designer's limits against
// values built in GMP from the formats' parameters (IEEE 754-2019 3.3), and values typed into the
// Bits view against the patterns MPFR rounds them to.
#include <catch2/catch.hpp>

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>
#include <string>

#include <fmt/format.h>
#include <gmpxx.h>
#include <mpfr.h>

#include "app/gui/lab/bit_row_widget.hpp"
#include "app/gui/lab/bits_view.hpp"
#include "app/gui/lab/custom_format_designer.hpp"
#include "app/gui/lab/format_descriptor.hpp"
#include "app/gui/lab/formats_table_model.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "core/catalog.hpp"
#include "core/error.hpp"
#include "tests/app/gui_test_application.hpp"

using floatscope::gui::FormatsTableModel;
using floatscope::gui::LabState;

namespace {

enum Column { MaxFinite = 5, MinNormal = 6, MinSubnormal = 7, Epsilon = 8, Values = 11 };

/// `show` spells at most this many digits; longer decimals are written as hex floats.
constexpr std::size_t show_digits = 100000;

mpz_class pow2(long n) {
    mpz_class p = 1;
    p <<= static_cast<mp_bitcnt_t>(n);
    return p;
}

/// An integer's decimal as exact_decimal lays it out beyond 21 digits: d.ddd...e+N, trailing zeros cut.
std::string scientific_integer(const mpz_class& n) {
    const std::string digits = n.get_str();
    std::string mantissa = digits.substr(0, 1) + "." + digits.substr(1);
    while (mantissa.back() == '0') mantissa.pop_back();
    return mantissa + fmt::format("e+{}", digits.size() - 1);
}

/// 2^-k exactly: 5^k / 10^k, every digit where there are at most `show_digits`, else 0x1p-k.
std::string negative_power_of_two(long k) {
    mpz_class five;
    mpz_ui_pow_ui(five.get_mpz_t(), 5, static_cast<unsigned long>(k));
    const std::string digits = five.get_str();
    if (digits.size() > show_digits) return fmt::format("0x1p-{}", k);
    const long exponent10 = static_cast<long>(digits.size()) - k - 1;
    return digits.substr(0, 1) + "." + digits.substr(1) + fmt::format("e-{:02d}", -exponent10);
}

/// n 2^e to 6 significant digits, by MPFR.
std::string six_digits(const mpz_class& n, long e) {
    mpfr_t x;
    mpfr_init2(x, static_cast<mpfr_prec_t>(std::max<std::size_t>(2, mpz_sizeinbase(n.get_mpz_t(), 2))));
    mpfr_set_z_2exp(x, n.get_mpz_t(), e, MPFR_RNDN);
    char buffer[64];
    mpfr_snprintf(buffer, sizeof buffer, "%.6Rg", x);
    mpfr_clear(x);
    return buffer;
}

/// The exact limits of an IEEE binary format of w exponent and t fraction bits, from w and t.
struct Limits {
    long emax, emin;
    std::string max_finite, min_normal, min_subnormal, epsilon, finite_values;
};

Limits ieee_limits(long w, long t) {
    Limits l;
    l.emax = (1L << (w - 1)) - 1;
    l.emin = 1 - l.emax;
    l.max_finite = scientific_integer((pow2(t + 1) - 1) << static_cast<mp_bitcnt_t>(l.emax - t));
    l.min_normal = negative_power_of_two(-l.emin);
    l.min_subnormal = negative_power_of_two(t - l.emin);
    l.epsilon = negative_power_of_two(t);
    l.finite_values = mpz_class(2 * (pow2(w) - 1) * pow2(t) - 1).get_str();
    return l;
}

int row_of(const FormatsTableModel& model, const std::string& name) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, 0).data().toString().toStdString() == name) return row;
    return -1;
}

std::string cell(const FormatsTableModel& model, int row, int column, int role) {
    return model.index(row, column).data(role).toString().toStdString();
}

/// The pattern of a normal binary256 value, from MPFR's rounding of the text at 237 bits.
std::string binary256_pattern(const char* text) {
    mpfr_t x;
    mpfr_init2(x, 237);
    mpfr_set_str(x, text, 10, MPFR_RNDN);
    mpz_class m;
    const long e = mpfr_get_z_2exp(m.get_mpz_t(), x);  // |x| = |m| 2^e, |m| of 237 bits
    const bool negative = mpfr_signbit(x) != 0;
    mpfr_clear(x);
    m = abs(m);
    const long field = e + 236 + 262143;
    const mpz_class pattern = (negative ? pow2(255) : mpz_class(0)) + (mpz_class(field) << 236) + (m - pow2(236));
    std::string hex = pattern.get_str(16);
    for (char& c : hex) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return std::string(64 - hex.size(), '0') + hex;
}

/// The pattern of a positive binary128 subnormal: the text in units of 2^-16494, rounded to nearest.
std::string binary128_subnormal_pattern(const char* text) {
    mpfr_t x;
    mpfr_init2(x, 40000);  // far beyond the 84 bits kept: no double rounding at these inputs
    mpfr_set_str(x, text, 10, MPFR_RNDN);
    mpfr_mul_2ui(x, x, 16494, MPFR_RNDN);
    mpz_class units;
    mpfr_get_z(units.get_mpz_t(), x, MPFR_RNDN);
    mpfr_clear(x);
    std::string hex = units.get_str(16);
    for (char& c : hex) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return std::string(32 - hex.size(), '0') + hex;
}

}  // namespace

TEST_CASE("the formats table shows binary128 and binary256 exactly, not through double", "[gui][wide]") {
    floatscope::test::gui_application();
    LabState state;
    const FormatsTableModel model(state);
    for (const auto& [name, w, t] : {std::tuple{"binary128", 15L, 112L}, std::tuple{"binary256", 19L, 236L}}) {
        INFO(name);
        const int row = row_of(model, name);
        REQUIRE(row >= 0);  // listed without being chosen
        const Limits expected = ieee_limits(w, t);
        const int exported = FormatsTableModel::export_role;
        CHECK(cell(model, row, MaxFinite, exported) == expected.max_finite);
        CHECK(cell(model, row, MinNormal, exported) == expected.min_normal);
        CHECK(cell(model, row, MinSubnormal, exported) == expected.min_subnormal);
        CHECK(cell(model, row, Epsilon, exported) == expected.epsilon);
        CHECK(cell(model, row, Values, exported) == expected.finite_values);
        // The cells: 6 digits of the same values, where a double would say inf and 0.
        CHECK(cell(model, row, MaxFinite, Qt::DisplayRole) ==
              six_digits(pow2(t + 1) - 1, expected.emax - t));
        CHECK(cell(model, row, MinNormal, Qt::DisplayRole) == six_digits(1, expected.emin));
        CHECK(cell(model, row, MinSubnormal, Qt::DisplayRole) == six_digits(1, expected.emin - t));
        CHECK(cell(model, row, Epsilon, Qt::DisplayRole) == six_digits(1, -t));
        CHECK(cell(model, row, 1, Qt::DisplayRole) == std::to_string(1 + w + t));
        CHECK(cell(model, row, 4, Qt::DisplayRole) == std::to_string(expected.emax));
    }
    // binary256's max as a tooltip: its 78914 digits as the hex float, 59 hex digits of ones.
    const int octuple = row_of(model, "binary256");
    CHECK(cell(model, octuple, MaxFinite, Qt::ToolTipRole).rfind("0x1." + std::string(59, 'f') + "p+262143 exactly, about 1.61132571748576", 0) == 0);
    // Sorting by max puts binary256 above binary128 above fp64, and their min subnormals below fp64's.
    const int quad = row_of(model, "binary128"), fp64 = row_of(model, "fp64");
    auto key = [&](int row, int column) { return model.index(row, column).data(FormatsTableModel::sort_role).toDouble(); };
    CHECK(key(octuple, MaxFinite) > key(quad, MaxFinite));
    CHECK(key(quad, MaxFinite) > key(fp64, MaxFinite));
    CHECK(key(octuple, MinSubnormal) < key(quad, MinSubnormal));
    CHECK(key(quad, MinSubnormal) < key(fp64, MinSubnormal));
}

TEST_CASE("a wide custom format gets a row, and binary128 chosen in the lab is listed once", "[gui][wide]") {
    floatscope::test::gui_application();
    LabState state;
    state.add_custom_format(floatscope::core::parse_format("binary128"));
    state.add_custom_format(floatscope::gui::parse_format_descriptor("e30m1024", "huge"));
    const FormatsTableModel model(state);
    int binary128_rows = 0;
    for (int row = 0; row < model.rowCount(); ++row) binary128_rows += cell(model, row, 0, Qt::DisplayRole) == "binary128";
    CHECK(binary128_rows == 1);
    const int huge = row_of(model, "huge");
    REQUIRE(huge >= 0);
    // e30m1024: max = (2^1025 - 1) 2^(2^29 - 1 - 1024); some 1.6e8 digits, so the exact hex float.
    const long emax = (1L << 29) - 1;
    CHECK(cell(model, huge, MaxFinite, FormatsTableModel::export_role) ==
          "0x1." + std::string(256, 'f') + fmt::format("p+{}", emax));
    CHECK(cell(model, huge, MaxFinite, Qt::DisplayRole) == six_digits(pow2(1025) - 1, emax - 1024));
    CHECK(cell(model, huge, Epsilon, FormatsTableModel::export_role) == negative_power_of_two(1024));
}

TEST_CASE("a wide format MPFR cannot read is refused with its reason", "[gui][wide]") {
    CHECK_THROWS_WITH(floatscope::gui::parse_format_descriptor("e12m4fn", "wide_fn"),
                      Catch::Contains("IEEE encoding"));
}

TEST_CASE("the designer shows a wide format's limits exactly", "[gui][wide]") {
    floatscope::test::gui_application();
    LabState state;
    floatscope::gui::CustomFormatDesigner designer(state);
    designer.load(floatscope::core::parse_format("binary256"));
    CHECK(designer.validation_error().isEmpty());
    // name, descriptor, bits, E, M, bias, max, min normal, min subnormal, epsilon, error
    const Limits expected = ieee_limits(19, 236);
    const std::string csv = designer.csv();
    CHECK(csv.find(fmt::format(",256,19,236,262143,{},{},{},{},\r\n", expected.max_finite, expected.min_normal,
                               expected.min_subnormal, expected.epsilon)) != std::string::npos);
    REQUIRE(designer.add_to_lab());
    CHECK(state.is_chosen("my_binary256"));
    // An encoding the wide path lacks: the verdict says so and Add stays off.
    designer.nan_encoding()->setCurrentIndex(1);  // fn
    CHECK(designer.validation_error().contains("IEEE encoding"));
    CHECK_FALSE(designer.add_button()->isEnabled());
}

TEST_CASE("values typed into the Bits view round exactly into binary256 and binary128", "[gui][wide]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"fp64"});
    state.add_custom_format(floatscope::core::parse_format("binary256"));
    state.add_custom_format(floatscope::core::parse_format("binary128"));
    floatscope::gui::BitsView view(state);
    auto type = [&](const char* text) {
        view.value_entry()->clear();
        QTest::keyClicks(view.value_entry(), QString::fromLatin1(text));
        REQUIRE(view.entry_error().isEmpty());
    };
    for (const char* text :
         {"3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798",
          "-1e-70000", "2.718281828459045235360287471352662497757247093699959574966967627724076630353547594571382178"}) {
        INFO(text);
        type(text);
        CHECK(view.row("binary256")->reading().hex == binary256_pattern(text));
    }
    // 0.1 = 1.6 x 2^-4: binary128's field 16383 - 4 = 16379 = 0x3FFB.
    type("0.1");
    CHECK(view.row("binary128")->reading().exponent_field == "field 16379 (011111111111011b), bias 16383, unbiased -4");
    // Below binary128's min normal (2^-16382, about 3.4e-4932): a subnormal, counted in 2^-16494.
    for (const char* text : {"1e-4940", "1.234567890123456789012345678901234567e-4950"}) {
        INFO(text);
        type(text);
        CHECK(view.row("binary128")->reading().hex == binary128_subnormal_pattern(text));
        CHECK(view.row("binary128")->reading().value_class == "subnormal");
        CHECK(view.row("binary128")->reading().exponent_field ==
              "field 0 (000000000000000b), bias 16383, unbiased -16382 (subnormal: 1 - bias)");
    }
}
