// The format lab around the Bits view: custom formats, the table, export, persistence, Learn, number line.
#include <catch2/catch.hpp>

#include <QAbstractItemModel>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/gui/app_style.hpp"
#include "app/gui/lab/bits_view.hpp"
#include "app/gui/lab/custom_format_designer.hpp"
#include "app/gui/lab/format_descriptor.hpp"
#include "app/gui/lab/format_sidebar.hpp"
#include "app/gui/lab/formats_view.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "app/gui/lab/learn_template.hpp"
#include "app/gui/lab/learn_view.hpp"
#include "app/gui/lab/number_line_model.hpp"
#include "app/gui/main_window.hpp"
#include "core/catalog.hpp"
#include "core/error.hpp"
#include "tests/app/gui_test_application.hpp"
#include "tests/app/test_support.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;

namespace {

using floatscope::test::read_file;

/// The row of the table whose first column reads `name`, -1 if none.
int table_row(const QTableView& table, const QString& name) {
    const QAbstractItemModel* model = table.model();
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, 0).data().toString() == name) return row;
    return -1;
}

}  // namespace

TEST_CASE("a custom e3m4 from the designer appears in the table, the sidebar and the Bits view", "[gui]") {
    test::gui_application();
    gui::MainWindow window(false);
    gui::CustomFormatDesigner& designer = *window.designer();
    designer.load(core::parse_format("e3m4"));
    designer.name_edit()->setText("my_e3m4");
    designer.saturating()->setChecked(true);
    REQUIRE(designer.validation_error().isEmpty());
    designer.add_button()->click();

    const int row = table_row(*window.formats_view()->table(), "my_e3m4");
    REQUIRE(row >= 0);
    const QAbstractItemModel* model = window.formats_view()->table()->model();
    // e3m4, bias 2^(3-1) - 1 = 3, IEEE specials: max (2 - 2^-4) x 2^(6 - 3) = 15.5 (the field 7 is
    // inf/NaN), min normal 2^(1-3) = 0.25, min subnormal 2^-2 x 2^-4 = 0.015625.
    CHECK(model->index(row, 1).data().toInt() == 8);
    CHECK(model->index(row, 4).data().toInt() == 3);
    CHECK(model->index(row, 5).data().toString() == "15.5");
    CHECK(model->index(row, 7).data().toString() == "0.015625");
    CHECK(window.bits_view()->row("my_e3m4") != nullptr);
    CHECK(window.sidebar()->list()->findItems("my_e3m4", Qt::MatchStartsWith).size() == 1);
    CHECK(window.state().custom_descriptor("my_e3m4") == "e3m4:sat:bias=3");
}

TEST_CASE("the designer shows core::validate's message inline and refuses the format", "[gui]") {
    test::gui_application();
    gui::LabState state;
    gui::CustomFormatDesigner designer(state);
    designer.name_edit()->setText("bad");
    designer.exponent_bits()->setValue(1);
    designer.mantissa_bits()->setValue(0);
    designer.nan_encoding()->setCurrentIndex(0);  // IEEE: inf and NaN need exponent all ones and a fraction
    CHECK(designer.validation_error().contains("needs at least one mantissa bit"));
    CHECK(!designer.add_button()->isEnabled());
    CHECK(!designer.add_to_lab());
    CHECK(!state.is_custom("bad"));
}

TEST_CASE("File > Export writes the formats table as the CSV expected", "[gui]") {
    test::gui_application();
    test::TempDir dir;
    gui::MainWindow window(false);
    window.state().add_custom_format(gui::parse_format_descriptor("e3m4:bias=3", "my_e3m4"));
    REQUIRE(window.show_view("formats"));
    const std::filesystem::path file = dir.path() / "formats.csv";
    window.export_current_view(QString::fromStdString(file.string()));
    const std::string csv = read_file(file);
    // Header, then a row per format; the custom e3m4 worked out by hand: 8 bits, E 3, M 4, bias 3,
    // max 15.5, min normal 0.25, min subnormal 2^-6, epsilon 2^-4, 5 log10 2 = 1.505 digits,
    // log10(15.5 / 2^-6) = log10 992 = 2.997 decades, 2 x 7 x 16 - 1 = 223 finite values (the
    // exponent fields 0..6, +0 and -0 once), 1 byte a value.
    CHECK(csv.rfind("Format,Bits,E,M,Bias,Max finite,Min normal,Min subnormal,Epsilon,Digits,"
                    "Decades,Finite values,GB/1e9,inf/NaN/-0,Description\r\n",
                    0) == 0);
    CHECK(csv.find("\r\nmy_e3m4,8,3,4,3,15.5,0.25,0.015625,0.0625,1.51,3.0,223,1,yes / yes / yes,"
                   "custom: e3m4:bias=3\r\n") != std::string::npos);
    // fp16 (IEEE 754 binary16) with its exact limits: 65504, 2^-14, 2^-24.
    CHECK(csv.find("\r\nfp16,16,5,10,15,65504,6.103515625e-05,5.9604644775390625e-08,0.0009765625,") !=
          std::string::npos);
    // header + catalog + the custom one + binary128 and binary256
    CHECK(std::count(csv.begin(), csv.end(), '\n') == static_cast<long>(core::catalog_formats().size()) + 4);
}

TEST_CASE("Ctrl+C copies the selected rows of the formats table as TSV", "[gui]") {
    test::gui_application();
    gui::LabState state;
    gui::FormatsView view(state);
    const int row = table_row(*view.table(), "fp16");
    REQUIRE(row >= 0);
    view.table()->selectRow(row);
    QTest::keyClick(view.table(), Qt::Key_C, Qt::ControlModifier);
    const QStringList lines = QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
    REQUIRE(lines.size() == 2);  // header and the fp16 row
    CHECK(lines[0].startsWith("Format\tBits\tE\tM\tBias\tMax finite"));
    // IEEE 754 binary16: 16 bits, E 5, M 10, bias 15, max 65504, min normal 2^-14, min subnormal 2^-24.
    CHECK(lines[1].startsWith("fp16\t16\t5\t10\t15\t65504\t6.103515625e-05\t5.9604644775390625e-08\t"));
}

TEST_CASE("the formats table's rows and columns follow the font, as presentation mode enlarges it", "[gui]") {
    gui::apply_app_style(test::gui_application());
    gui::MainWindow window(false);
    window.resize(1024, 700);
    REQUIRE(window.show_view("formats"));
    window.show();
    QApplication::processEvents();
    auto* view = window.findChild<gui::FormatsView*>();
    REQUIRE(view != nullptr);
    QTableView& table = *view->table();
    const QAbstractItemView& items = table;  // sizeHintForColumn is public here
    // Every column but the stretched last one is as wide as its widest text, and a row as tall as a line.
    auto fitted = [&] {
        for (int i = 0; i < 5; ++i) QApplication::processEvents();
        CHECK(table.verticalHeader()->defaultSectionSize() >= table.fontMetrics().height());
        for (int column = 0; column + 1 < table.model()->columnCount(); ++column) {
            INFO("column " << column);
            CHECK(table.columnWidth(column) >= items.sizeHintForColumn(column));
            CHECK(table.columnWidth(column) >= table.horizontalHeader()->sectionSizeHint(column));
        }
    };
    fitted();
    const int name_width = table.columnWidth(0);
    window.set_presentation(true);
    fitted();
    CHECK(table.columnWidth(0) > name_width * 1.3);
    window.set_presentation(false);
    fitted();
    CHECK(table.columnWidth(0) == name_width);
}

TEST_CASE("the Bits view exports its rows as CSV", "[gui]") {
    test::gui_application();
    test::TempDir dir;
    gui::MainWindow window(false);
    window.state().set_chosen(QStringList{"fp16", "fp8_e4m3"});
    window.state().set_value_text("0.3952");
    REQUIRE(window.show_view("bits"));
    const std::filesystem::path file = dir.path() / "bits.csv";
    window.export_current_view(QString::fromStdString(file.string()));
    const std::string csv = read_file(file);
    // Patterns and values worked out in gui_bits_view_test; flags 01 = inexact.
    CHECK(csv.find("\r\nfp16,0.3952,3653,0.395263671875,0.3953,normal,6.36719e-05,") != std::string::npos);
    CHECK(csv.find("\r\nfp8_e4m3,0.3952,2D,0.40625,0.4,normal,") != std::string::npos);
    CHECK(csv.find(",0.2608,01,") != std::string::npos);
}

TEST_CASE("chosen and custom formats, rounding and value persist through QSettings", "[gui]") {
    test::gui_application();
    test::TempDir dir;
    QSettings settings(QString::fromStdString((dir.path() / "lab.ini").string()), QSettings::IniFormat);
    {
        gui::LabState state;
        state.add_custom_format(gui::parse_format_descriptor("e3m4:sat:bias=5", "wide_e3m4"));
        core::FormatSpec unsigned_e4m4 = core::parse_format("e4m4fn");
        unsigned_e4m4.name = "u_e4m4";
        unsigned_e4m4.has_sign = false;
        unsigned_e4m4.has_negative_zero = false;
        state.add_custom_format(unsigned_e4m4);  // beyond parse_format's grammar: saved field by field
        state.set_chosen(QStringList{"fp16", "wide_e3m4", "u_e4m4"});
        state.set_rounding_mode(core::RoundingMode::TowardZero);
        state.set_value_text("fp16:7E01");
        state.save(settings);
    }
    settings.sync();
    gui::LabState restored;
    restored.load(settings);
    CHECK(restored.chosen_names() == QStringList{"fp16", "wide_e3m4", "u_e4m4"});
    CHECK(restored.format("wide_e3m4").bias == 5);
    CHECK(restored.format("wide_e3m4").overflow == core::OverflowPolicy::Saturate);
    CHECK(!restored.format("u_e4m4").has_sign);
    CHECK(restored.custom_descriptor("u_e4m4").rfind("fields:", 0) == 0);
    CHECK(restored.rounding_mode() == core::RoundingMode::TowardZero);
    REQUIRE(restored.value().pattern.has_value());
    CHECK(restored.value().pattern->bits == 0x7E01);
}

TEST_CASE("format descriptors read back to the same format", "[gui]") {
    for (const char* name : {"fp8_e4m3", "e5m2fnuz", "fp6_e3m2", "e4m3b11fnuz", "fp16", "fp16:satfinite", "binary8p3se",
                             "binary8p4uf:satfinite", "binary6p2se:satpropagate"}) {
        core::FormatSpec spec = core::parse_format(name);
        const core::FormatSpec back = gui::parse_format_descriptor(gui::format_descriptor(spec), spec.name);
        spec.description = back.description;  // descriptors do not carry descriptions
        CHECK(back == spec);
    }
    CHECK(gui::format_descriptor(core::parse_format("fp8_e4m3")) == "e4m3fn:bias=7");
    CHECK(gui::format_descriptor(core::parse_format("p3109_k8p4se:satfinite")) == "binary8p4se:satfinite");
    CHECK_THROWS_AS(gui::parse_format_descriptor("fields:sign=1,e=3", "x"), Error);
}

TEST_CASE("the sidebar adds a format typed by name and chooses it", "[gui]") {
    test::gui_application();
    gui::LabState state;
    gui::FormatSidebar sidebar(state);
    QTest::keyClicks(sidebar.name_entry(), "e4m3:sat");
    QTest::keyClick(sidebar.name_entry(), Qt::Key_Return);
    CHECK(state.is_custom("e4m3:sat"));
    CHECK(state.is_chosen("e4m3:sat"));
    QTest::keyClicks(sidebar.name_entry(), "half");  // an alias: fp16 is chosen, nothing is added
    QTest::keyClick(sidebar.name_entry(), Qt::Key_Return);
    CHECK(state.is_chosen("fp16"));
    CHECK(!state.is_custom("half"));
    // A format wider than binary64 is added too: the Bits view reads it through MPFR.
    QTest::keyClicks(sidebar.name_entry(), "binary128");
    QTest::keyClick(sidebar.name_entry(), Qt::Key_Return);
    CHECK(state.is_custom("binary128"));
    CHECK(state.is_chosen("binary128"));
    // A name nothing reads is refused with the parser's message.
    QTest::keyClicks(sidebar.name_entry(), "fp18");
    QTest::keyClick(sidebar.name_entry(), Qt::Key_Return);
    CHECK(!state.is_custom("fp18"));
    const QList<QLabel*> labels = sidebar.findChildren<QLabel*>();
    CHECK(std::any_of(labels.begin(), labels.end(),
                      [](const QLabel* label) { return label->text().contains(QStringLiteral("fp18")); }));
}

TEST_CASE("every Learn page fills its placeholders from the catalog", "[gui]") {
    test::gui_application();
    gui::LearnView view;
    for (const QString& file : gui::LearnView::page_files()) {
        QFile page(file);
        REQUIRE(page.open(QIODevice::ReadOnly));
        const std::string filled = gui::fill_learn_template(page.readAll().toStdString());
        CHECK(filled.find("{{") == std::string::npos);
    }
    // IEEE 754 binary16: max 65504, smallest subnormal 2^-24.
    CHECK(gui::fill_learn_template("{{fp16.max}} {{fp16.min_subnormal}} {{int8.lowest}}") ==
          "65504 5.960464477539063e-08 -128");
    CHECK_THROWS_AS(gui::fill_learn_template("{{fp16.colour}}"), Error);
    view.pages()->setCurrentRow(4);
    CHECK(view.browser()->toPlainText().contains("65504"));
}

TEST_CASE("the number line finds 0.3952's neighbours in e4m3 and their rounding intervals", "[gui]") {
    const gui::NumberLine line = gui::number_line(core::parse_format("fp8_e4m3"), core::RoundingMode::NearestEven);
    // OCP E4M3: 2 x 126 nonzero finite values (S.1111.111 is NaN) and one zero.
    CHECK(line.values.size() == 253);
    CHECK(line.values.back() == 448);
    // Around 0.3952 = 1.58 x 2^-2 e4m3 spaces values 2^-5 = 0.03125 apart: 0.375 and 0.40625.
    // Nearest rounding splits at the midpoints 0.359375, 0.390625 and 0.421875.
    const auto n = gui::neighbourhood(line, core::parse_exact_value("0.3952"), {});
    REQUIRE(n.has_value());
    CHECK(n->below.value == 0.375);
    CHECK(n->above.value == 0.40625);
    CHECK(n->below.low == 0.359375);
    CHECK(n->below.high == 0.390625);
    CHECK(n->above.high == 0.421875);
    CHECK(n->rounded == 0.40625);
    // Toward zero every value owns the gap above it.
    core::RoundingOptions rtz;
    rtz.mode = core::RoundingMode::TowardZero;
    const gui::NumberLine rtz_line = gui::number_line(core::parse_format("fp8_e4m3"), rtz.mode);
    const auto t = gui::neighbourhood(rtz_line, core::parse_exact_value("0.3952"), rtz);
    REQUIRE(t.has_value());
    CHECK(t->below.low == 0.375);
    CHECK(t->below.high == 0.40625);
    CHECK(t->rounded == 0.375);
    CHECK_THROWS_AS(gui::number_line(core::parse_format("fp32"), core::RoundingMode::NearestEven), Error);
}
