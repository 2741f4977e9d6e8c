// The Bits view driven in-process: typed values give the right patterns, clicks and drags edit bits.
#include <catch2/catch.hpp>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>
#include <QUndoStack>

#include "app/gui/app_style.hpp"
#include "app/gui/lab/bit_cells_widget.hpp"
#include "app/gui/lab/bit_row_widget.hpp"
#include "app/gui/lab/bits_view.hpp"
#include "app/gui/lab/block_panel.hpp"
#include "app/gui/lab/format_reading.hpp"
#include "app/gui/lab/lab_state.hpp"
#include "app/gui/main_window.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "tests/app/gui_test_application.hpp"

using floatscope::gui::BitRowWidget;
using floatscope::gui::BitsView;
using floatscope::gui::LabState;

namespace {

void type_value(BitsView& view, const QString& text) {
    view.value_entry()->clear();
    QTest::keyClicks(view.value_entry(), text);
}

BitRowWidget& row(const BitsView& view, const std::string& format) {
    BitRowWidget* r = view.row(format);
    REQUIRE(r != nullptr);
    return *r;
}

std::uint64_t bits_of(const BitsView& view, const std::string& format) {
    return row(view, format).reading().rounded.bits;
}

double value_of(const BitsView& view, const std::string& format) { return row(view, format).reading().rounded.value; }

void send_mouse(QWidget* widget, QEvent::Type type, QPoint at, Qt::MouseButtons buttons) {
    QMouseEvent event(type, at, widget->mapToGlobal(at), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton,
                      buttons, Qt::NoModifier);
    QApplication::sendEvent(widget, &event);
}

}  // namespace

TEST_CASE("typing 0.3952 gives the bit patterns worked out by hand", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"bf16", "fp16", "fp8_e4m3", "fp8_e5m2"});
    BitsView view(state);
    type_value(view, "0.3952");
    CHECK(view.entry_error().isEmpty());
    // 0.3952 = 1.5808 x 2^-2, so every format stores the exponent -2 (field -2 + bias) and rounds
    // 0.5808 x 2^M to the nearest integer fraction f (no ties: 0.5808 x 2^M is never k + 1/2 here).
    // bf16  (bias 127, M 7):  0.5808 x 128  = 74.34 -> 74  = 1001010b:    0|01111101|1001010    = 0x3ECA
    // fp16  (bias 15, M 10):  0.5808 x 1024 = 594.7 -> 595 = 1001010011b: 0|01101|1001010011    = 0x3653
    // e4m3  (bias 7, M 3):    0.5808 x 8    = 4.646 -> 5   = 101b:        0|0101|101            = 0x2D
    // e5m2  (bias 15, M 2):   0.5808 x 4    = 2.323 -> 2   = 10b:         0|01101|10            = 0x36
    CHECK(bits_of(view, "bf16") == 0x3ECA);
    CHECK(bits_of(view, "fp16") == 0x3653);
    CHECK(bits_of(view, "fp8_e4m3") == 0x2D);
    CHECK(bits_of(view, "fp8_e5m2") == 0x36);
    // Their values: (1 + f / 2^M) / 4.
    CHECK(row(view, "fp16").reading().exact == "0.395263671875");  // (1 + 595/1024) / 4
    CHECK(row(view, "fp8_e4m3").reading().exact == "0.40625");  // (1 + 5/8) / 4
    CHECK(row(view, "fp8_e5m2").reading().exact == "0.375");  // (1 + 2/4) / 4
    CHECK(row(view, "fp16").reading().shortest == "0.3953");
    // |0.395263671875 - 0.3952| = 0.000063671875 = 0.2608 of fp16's spacing 2^-12 there.
    CHECK(row(view, "fp16").reading().absolute_error == "6.36719e-05");
    CHECK(row(view, "fp16").reading().ulp_error == "0.2608");
    CHECK(row(view, "fp16").reading().formula == "(-1)^0 x 2^(13 - 15) x 1.1001010011b = 0.395263671875");
}

TEST_CASE("overflow, NaN, saturation and underflow show as the issue describes", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"bf16", "fp16", "fp8_e4m3"});
    state.add_custom_format(floatscope::core::parse_format("fp8_e4m3:sat"));
    BitsView view(state);

    type_value(view, "100000000");
    // fp16's largest finite value is 65504 (IEEE 754 binary16), so 1e8 overflows to infinity.
    CHECK(row(view, "fp16").reading().decoded.value_class == floatscope::core::ValueClass::Infinite);
    CHECK(row(view, "fp16").reading().rounded.flags.has(floatscope::core::ExceptionFlags::overflow));
    // OCP E4M3 has no infinity: overflow is NaN, or its max 448 = 1.75 x 2^8 when saturating.
    CHECK(row(view, "fp8_e4m3").reading().decoded.value_class == floatscope::core::ValueClass::NaN);
    CHECK(value_of(view, "fp8_e4m3:sat") == 448);
    // 1e8 = 1.49 x 2^26; bf16 keeps 8 bits, spacing 2^19 = 524288: 1e8 / 524288 = 190.73 -> 191 x 524288.
    CHECK(value_of(view, "bf16") == 100139008);

    // fp16's smallest subnormal is 2^-24 = 5.96e-8: 1e-8 is below half of it and rounds to zero,
    // 5e-8 is above half of it and rounds up to it.
    type_value(view, "1e-8");
    CHECK(row(view, "fp16").reading().decoded.value_class == floatscope::core::ValueClass::Zero);
    CHECK(row(view, "fp16").reading().rounded.flags.has(floatscope::core::ExceptionFlags::underflow));
    type_value(view, "5e-8");
    CHECK(row(view, "fp16").reading().exact == "5.9604644775390625e-08");
    CHECK(bits_of(view, "fp16") == 0x0001);
}

TEST_CASE("a bit flip shows in its row against the value, which the other rows keep", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"fp32", "bf16", "fp16"});
    BitsView view(state);
    type_value(view, "0.3952");
    REQUIRE(bits_of(view, "fp16") == 0x3653);
    const std::uint64_t fp32_before = bits_of(view, "fp32"), bf16_before = bits_of(view, "bf16");

    // fp16 0x3653's top fraction bit (bit 9) is set and weighs 2^-1 x 2^-2 = 0.125 at exponent -2:
    // clearing it gives 0x3453 = 0.395263671875 - 0.125 = 0.270263671875.
    floatscope::gui::BitCellsWidget* cells = row(view, "fp16").cells();
    QTest::mouseClick(cells, Qt::LeftButton, Qt::NoModifier, cells->cell_centre(9));
    CHECK(bits_of(view, "fp16") == 0x3453);
    CHECK(value_of(view, "fp16") == 0.270263671875);
    CHECK(row(view, "fp16").is_edited());
    // The reference stays: the entry, the other rows, and the edited row's errors measured against it:
    // |0.270263671875 - 0.3952| = 0.124936328125; in fp16's spacing 2^-12 at the stored value, -511.74.
    CHECK(view.value_entry()->text() == "0.3952");
    CHECK(state.value().text == "0.3952");
    CHECK(bits_of(view, "fp32") == fp32_before);
    CHECK(bits_of(view, "bf16") == bf16_before);
    CHECK_FALSE(row(view, "fp32").is_edited());
    CHECK(row(view, "fp16").reading().absolute_error == "0.124936");
    CHECK(row(view, "fp16").reading().ulp_error.rfind("-511.7", 0) == 0);

    // next up from the edited 0x3453 is 0x3454, still against the reference.
    row(view, "fp16").next_up_button()->click();
    CHECK(bits_of(view, "fp16") == 0x3454);
    CHECK(bits_of(view, "fp32") == fp32_before);

    // Undo steps back through the edits to the reference's own rounding; redo reapplies them.
    state.undo_stack()->undo();
    CHECK(bits_of(view, "fp16") == 0x3453);
    state.undo_stack()->undo();
    CHECK(bits_of(view, "fp16") == 0x3653);
    CHECK_FALSE(row(view, "fp16").is_edited());
    state.undo_stack()->redo();
    CHECK(bits_of(view, "fp16") == 0x3453);
    CHECK(row(view, "fp16").is_edited());
    state.undo_stack()->redo();
    CHECK(bits_of(view, "fp16") == 0x3454);

    // Use as value: every row rounds the edited pattern; fp32 holds 0x3454's value exactly:
    // 0.395263671875 - 0.125 + 2^-12 = 0.270507812.
    state.adopt_edit();
    CHECK(view.value_entry()->text() == "fp16:3454");
    CHECK(value_of(view, "fp32") == 0.2705078125);
    CHECK_FALSE(row(view, "fp16").is_edited());
    // Undo of typing: a typed value is one step, however many keys it took.
    type_value(view, "1/3");
    CHECK(bits_of(view, "fp16") == 0x3555);
    state.undo_stack()->undo();
    CHECK(view.value_entry()->text() == "fp16:3454");
    CHECK(value_of(view, "fp32") == 0.2705078125);
}

TEST_CASE("Ctrl+Z and Ctrl+Shift+Z undo and redo in the main window, in the value field too", "[gui]") {
    floatscope::test::gui_application();
    floatscope::gui::MainWindow window(false);
    window.state().set_chosen(QStringList{"fp16"});
    window.show();
    QApplication::setActiveWindow(&window);
    REQUIRE(QTest::qWaitForWindowActive(&window));
    BitsView& view = *window.bits_view();
    window.state().set_value_text("1");
    floatscope::gui::BitCellsWidget* cells = row(view, "fp16").cells();
    QTest::mouseClick(cells, Qt::LeftButton, Qt::NoModifier, cells->cell_centre(9));
    REQUIRE(bits_of(view, "fp16") == 0x3E00);
    SECTION("with the focus on the bit cells") {
        cells->setFocus();
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        CHECK(bits_of(view, "fp16") == 0x3C00);
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        CHECK(bits_of(view, "fp16") == 0x3E00);
    }
    SECTION("in the value field: the lab's history, not the field's text") {
        view.value_entry()->setFocus();
        type_value(view, "2");
        REQUIRE(bits_of(view, "fp16") == 0x4000);
        QTest::keyClick(view.value_entry(), Qt::Key_Z, Qt::ControlModifier);  // the typed 2 goes
        CHECK(bits_of(view, "fp16") == 0x3E00);
        CHECK(view.value_entry()->text().toStdString() == "1");  // the value again, which the edit is against
        QTest::keyClick(view.value_entry(), Qt::Key_Z, Qt::ControlModifier);  // then the bit flip
        CHECK(bits_of(view, "fp16") == 0x3C00);
        QTest::keyClick(view.value_entry(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        CHECK(bits_of(view, "fp16") == 0x3E00);
        QTest::keyClick(view.value_entry(), Qt::Key_Y, Qt::ControlModifier);
        CHECK(bits_of(view, "fp16") == 0x4000);
        CHECK(view.value_entry()->text() == "2");
    }
}

TEST_CASE("an entry error says its sentence once", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    BitsView view(state);
    type_value(view, "0.1x");
    const QString error = view.entry_error();
    CHECK(error.count("0.1x") == 1);
    CHECK(error.count("a decimal") <= 1);
    CHECK(error.count("bit pattern") == 1);
}

TEST_CASE("dragging across bit cells paints the value of the first one", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"fp16"});
    BitsView view(state);
    type_value(view, "1");
    REQUIRE(bits_of(view, "fp16") == 0x3C00);
    floatscope::gui::BitCellsWidget* cells = row(view, "fp16").cells();
    // Press on fraction bit 9 (clear: the drag paints ones), move over bits 8 and 7, release:
    // 1.111b = 1.875, pattern 0x3C00 + 0x200 + 0x100 + 0x080 = 0x3F80.
    send_mouse(cells, QEvent::MouseButtonPress, cells->cell_centre(9), Qt::LeftButton);
    send_mouse(cells, QEvent::MouseMove, cells->cell_centre(8), Qt::LeftButton);
    send_mouse(cells, QEvent::MouseMove, cells->cell_centre(7), Qt::LeftButton);
    send_mouse(cells, QEvent::MouseButtonRelease, cells->cell_centre(7), Qt::NoButton);
    CHECK(bits_of(view, "fp16") == 0x3F80);
    CHECK(value_of(view, "fp16") == 1.875);
    // The drag was one edit: one undo returns to the pattern before it.
    state.undo_stack()->undo();
    CHECK(bits_of(view, "fp16") == 0x3C00);
    state.undo_stack()->redo();
    // After the release, moving does nothing.
    send_mouse(cells, QEvent::MouseMove, cells->cell_centre(6), Qt::NoButton);
    CHECK(bits_of(view, "fp16") == 0x3F80);
}

TEST_CASE("bit patterns can be typed for a named format, and bad text is explained", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"fp16", "fp32"});
    BitsView view(state);
    type_value(view, "fp16:7E01");  // a NaN with payload: the fp16 row keeps the pattern
    CHECK(bits_of(view, "fp16") == 0x7E01);
    CHECK(row(view, "fp32").reading().decoded.value_class == floatscope::core::ValueClass::NaN);
    type_value(view, "0x3C00");  // 0x... without an exponent: a pattern of the first chosen format (fp32)
    CHECK(bits_of(view, "fp32") == 0x3C00);
    type_value(view, "0x1.8p-3");  // a hex float: 0.1875
    CHECK(value_of(view, "fp16") == 0.1875);
    type_value(view, "1.2.3");
    CHECK(view.entry_error().contains("1.2.3"));
    // The entry reads as one types: the rows keep "1.2", the last prefix that was a number, in fp16
    // 1.2 x 1024 = 1228.8 -> 1229 / 1024 = 1.2001953125.
    CHECK(value_of(view, "fp16") == 1.2001953125);
}

TEST_CASE("the tooltip of a bit names its role and weight", "[gui]") {
    const auto spec = floatscope::core::parse_format("fp16");
    // 0x3653: exponent field 13 (unbiased -2); fraction bit 9 is the top one, weight 2^-1 x 2^-2 = 2^-3.
    CHECK(floatscope::gui::describe_bit(spec, 0x3653, 9) ==
          "mantissa bit 1 of 10 (set): weight 2^-1 of the significand, 2^-3 at this exponent");
    CHECK(floatscope::gui::describe_bit(spec, 0x3653, 15) == "sign bit (clear): the value is negative when set");
    CHECK(floatscope::gui::describe_bit(spec, 0x3653, 10).find("2^0 = 1 to the biased exponent field (bias 15)") !=
          std::string::npos);
    CHECK(floatscope::gui::describe_bit(floatscope::core::parse_format("int8"), 0, 7) ==
          "integer bit 7 (clear): weight -2^7 (two's complement sign)");
}

TEST_CASE("binary128 and wider formats show in the Bits view through MPFR", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"fp16"});
    state.add_custom_format(floatscope::core::parse_format("binary128"));  // as the sidebar's entry adds it
    BitsView view(state);
    type_value(view, "0.1");
    const floatscope::gui::FormatReading& quad = row(view, "binary128").reading();
    // 0.1 = 1.6 x 2^-4: exponent field 16383 - 4 = 0x3FFB, 112 fraction bits of 0.6 (0x999...9 with
    // the last digit rounded up to A, as 0.6 x 2^112 ends in ...9.99); IEEE 754-2019 binary128.
    CHECK(quad.wide);
    CHECK(quad.hex == "3FFB999999999999999999999999999A");
    CHECK(quad.exact.rfind("0.1000000000000000000000000000000000048148248609680896326399448564623", 0) == 0);
    CHECK(quad.value_class == "normal");
    CHECK(quad.relative_error.rfind("4.81482e-35", 0) == 0);  // (stored - 0.1) / 0.1
    CHECK(row(view, "binary128").cells() == nullptr);  // read as text, not clicked
    // Next up: one ulp, 2^-4 x 2^-112 = 2^-116, above the stored value.
    const std::string before = quad.exact;
    QPushButton* up = row(view, "binary128").next_up_button();
    REQUIRE(up->isEnabled());
    QTest::mouseClick(up, Qt::LeftButton);
    CHECK(row(view, "binary128").reading().hex == "3FFB999999999999999999999999999B");
    CHECK(row(view, "binary128").reading().exact != before);
    // A binary128 pattern typed as FORMAT:HEX enters as its exact value.
    type_value(view, "binary128:3FFF0000000000000000000000000000");
    CHECK(view.entry_error().isEmpty());
    CHECK(row(view, "binary128").reading().exact == "1");
    CHECK(value_of(view, "fp16") == 1);
}

TEST_CASE("posits, takums and HiF8 show their own fields for each code", "[gui][tapered]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"posit16", "takum16", "hifloat8"});
    BitsView view(state);
    type_value(view, "3.14159");
    CHECK(view.entry_error().isEmpty());
    // posit16: 3.14159 = 1.5708 x 2^1: k = 0 (regime 10), e = 01, 11 fraction bits of 0.5708 x 2^11
    // = 1169.0 -> 10010010001b: 0|10|01|10010010001 = 0x4C91.
    CHECK(bits_of(view, "posit16") == 0x4C91);
    // takum16: c = 1: D = 1, R = 001, C = 0 (r = 1), 10 mantissa bits of 0.5708 x 2^10 = 584.5... -> 584
    // (3.140625; 3.142578125 is farther): 0|1|001|0|1001001000 = 0x4A48.
    CHECK(bits_of(view, "takum16") == 0x4A48);
    // HiF8: |E| = 1: dot 001, exponent sign 0 (the magnitude 1 implicit), 3 mantissa bits: 0.5708 x 8
    // = 4.57 -> 5 = 101b: 0|001|0|101 = 0x15 = 3.25.
    CHECK(bits_of(view, "hifloat8") == 0x15);
    CHECK(value_of(view, "hifloat8") == 3.25);
    using floatscope::gui::bit_field;
    using floatscope::gui::BitField;
    const auto posit16 = floatscope::core::parse_format("posit16");
    CHECK(bit_field(posit16, 0x4C91, 15) == BitField::Sign);
    CHECK(bit_field(posit16, 0x4C91, 14) == BitField::Regime);
    CHECK(bit_field(posit16, 0x4C91, 13) == BitField::Regime);
    CHECK(bit_field(posit16, 0x4C91, 12) == BitField::Exponent);
    CHECK(bit_field(posit16, 0x4C91, 10) == BitField::Mantissa);
    // Near maxpos the regime takes every bit: 0x7FFF is sign and a run of fifteen ones.
    CHECK(bit_field(posit16, 0x7FFF, 0) == BitField::Regime);
    const auto hif8 = floatscope::core::parse_format("hifloat8");
    CHECK(bit_field(hif8, 0x15, 6) == BitField::Dot);
    CHECK(bit_field(hif8, 0x15, 4) == BitField::Dot);
    CHECK(bit_field(hif8, 0x15, 3) == BitField::Exponent);
    CHECK(bit_field(hif8, 0x15, 2) == BitField::Mantissa);
    CHECK(bit_field(hif8, 0x01, 3) == BitField::Dot);  // denormal: dot 0000, then 3 bits
    const auto takum16 = floatscope::core::parse_format("takum16");
    CHECK(bit_field(takum16, 0x4A48, 14) == BitField::Regime);  // the direction bit
    CHECK(bit_field(takum16, 0x4A48, 10) == BitField::Exponent);  // the characteristic bit
    CHECK(bit_field(takum16, 0x4A48, 9) == BitField::Mantissa);
    CHECK(floatscope::gui::describe_bit(posit16, 0x4C91, 14).rfind("regime bit 1 of 2 (set)", 0) == 0);
    CHECK(row(view, "posit16").reading().exponent_field == "fields 0|10|01|10010010001");
    CHECK(row(view, "posit16").reading().formula.find("= 3.1416015625") == std::string::npos);
    CHECK(row(view, "posit16").reading().formula.find(": 3.1416015625") != std::string::npos);
}

TEST_CASE("the Bits view shows a block of a block format: its scale cell and element rows", "[gui][block]") {
    using floatscope::gui::BlockPanel;
    floatscope::test::gui_application();
    LabState state;
    BitsView view(state);
    BlockPanel& block = *view.block_panel();
    auto type_block = [&](const QString& text) {
        block.values_entry()->clear();
        QTest::keyClicks(block.values_entry(), text);
    };
    block.format_choice()->setCurrentText(QStringLiteral("mxfp4"));
    // OCP MX v1.0 6.3: amax 6 gives the shared exponent floor(log2 6) - emax(E2M1) = 2 - 2 = 0, scale
    // 1 (E8M0 7F); the E2M1 codes of 1, 6, -3 are 2, 7, B; 0.3 rounds to 0.5 (1) and 0.1 to 0.
    type_block(QStringLiteral("0.1, 1, 6, -3, 0.3"));
    REQUIRE(block.error().isEmpty());
    REQUIRE(block.block().has_value());
    CHECK(block.scale_cells()->bits() == 0x7F);
    CHECK(block.scale_factor() == 1);
    const std::uint64_t codes[] = {0x0, 0x2, 0x7, 0xD, 0x1};
    for (std::size_t i = 0; i < 5; ++i) CHECK(block.element_cells(i)->bits() == codes[i]);
    CHECK(block.stored_value(4) == 0.5);
    // amax 12: scale 2 (80), 12 = 6 x 2 (7), -3 = -1.5 x 2 (B).
    type_block(QStringLiteral("12, -3"));
    CHECK(block.scale_cells()->bits() == 0x80);
    CHECK(block.element_cells(0)->bits() == 0x7);
    CHECK(block.element_cells(1)->bits() == 0xB);
    // Clicking an element's last bit: code 6 is E2M1 4, times the scale 2.
    QTest::mouseClick(block.element_cells(0), Qt::LeftButton, Qt::NoModifier, block.element_cells(0)->cell_centre(0));
    CHECK(block.element_cells(0)->bits() == 0x6);
    CHECK(block.stored_value(0) == 8);
    // Clicking the scale's last bit: E8M0 81 is 4, every element rescaled.
    QTest::mouseClick(block.scale_cells(), Qt::LeftButton, Qt::NoModifier, block.scale_cells()->cell_centre(0));
    CHECK(block.scale_factor() == 4);
    CHECK(block.stored_value(1) == -6);
    CHECK(block.csv().find("format,input,scale_bits,scale,bits,value,error\nmxfp4,12,81,4,6,16,") == 0);
    // bitsandbytes FP4: the absmax, 3, is the scale, as fp32 (32 cells, 40400000).
    block.format_choice()->setCurrentText(QStringLiteral("bnb_fp4"));
    type_block(QStringLiteral("0.5, -1, 3"));
    CHECK(block.scale_cells()->bits() == 0x40400000);
    CHECK(block.scale_factor() == 3);
    // More values than a block holds: the message, and the last block read stays (typed one key at
    // a time, the 64 ones before: absmax 1).
    type_block(QString(QStringLiteral("1,")).repeated(65) + QStringLiteral("1"));
    CHECK(block.error().contains(QStringLiteral("66 values; bnb_fp4 blocks hold at most 64")));
    CHECK(block.scale_factor() == 1);
    CHECK(block.block()->codes.size() == 64);
}

TEST_CASE("the Bits view reads expressions exactly: 1/3, 2^-24", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"fp16", "fp32"});
    BitsView view(state);
    type_value(view, "1/3");
    CHECK(view.entry_error().isEmpty());
    // 1/3 = 1.010101...b x 2^-2: fp16 keeps 10 fraction bits 0101010101, the next bit is 0 (down):
    // 0|01101|0101010101 = 0x3555; fp32 keeps 23, 0101...010, the next bit is 1 and more follow
    // (up): ...011, 0x3EAAAAAB.
    CHECK(bits_of(view, "fp16") == 0x3555);
    CHECK(bits_of(view, "fp32") == 0x3EAAAAAB);
    type_value(view, "2^-24");
    CHECK(bits_of(view, "fp16") == 0x0001);
    type_value(view, "1/0");
    CHECK(view.entry_error().contains("division by zero"));
}

TEST_CASE("at 1024x700 the default rows fit the Bits view's width, fp64's 64 cells included", "[gui]") {
    floatscope::gui::apply_app_style(floatscope::test::gui_application());  // the font the application has
    floatscope::gui::MainWindow window(false);
    window.resize(1024, 700);
    window.show();
    QApplication::processEvents();
    BitsView& view = *window.bits_view();
    auto* scroll = view.findChild<QScrollArea*>();
    REQUIRE(scroll != nullptr);
    REQUIRE(view.row("fp64") != nullptr);
    floatscope::gui::BitCellsWidget* cells = row(view, "fp64").cells();
    // Every cell of the widest row is on screen, not under the viewport's right edge; each cell
    // is where bit_at finds it.
    auto all_cells_on_screen = [&] {
        CHECK(scroll->horizontalScrollBar()->maximum() == 0);
        for (int bit = 0; bit < 64; ++bit) {
            const QPoint centre = cells->cell_centre(bit);
            CHECK(cells->mapTo(scroll->viewport(), centre).x() < scroll->viewport()->width());
            CHECK(cells->bit_at(centre) == bit);
            CHECK(cells->rect().contains(centre));
        }
    };
    all_cells_on_screen();
    const int one_line = cells->height();
    // In presentation mode the cells no longer fit one line: they take two of 32, and clicking the
    // second line still toggles its bit.
    window.set_presentation(true);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    all_cells_on_screen();
    CHECK(cells->height() > 2 * one_line);
    CHECK(cells->cell_centre(0).y() > cells->cell_centre(63).y());
    CHECK(cells->cell_centre(32).y() == cells->cell_centre(63).y());
    const std::uint64_t before = bits_of(view, "fp64");
    QTest::mouseClick(cells, Qt::LeftButton, Qt::NoModifier, cells->cell_centre(3));
    CHECK(cells->bits() == (before ^ 8));
    window.set_presentation(false);
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    all_cells_on_screen();
    CHECK(cells->height() == one_line);
}

TEST_CASE("a long value does not widen the window past 1024 pixels", "[gui]") {
    floatscope::gui::apply_app_style(floatscope::test::gui_application());
    floatscope::gui::MainWindow window(false);
    window.state().set_value_text("0x3FB999999999999A");  // fp64's 0.1, 55 digits exactly
    window.resize(1024, 700);
    window.show();
    QApplication::processEvents();
    CHECK(window.width() == 1024);
    CHECK(window.minimumSizeHint().width() <= 1024);
}

TEST_CASE("on its own, the Bits view's value field still undoes into the lab's history", "[gui]") {
    floatscope::test::gui_application();
    LabState state;
    state.set_chosen(QStringList{"fp16"});
    BitsView view(state);
    state.set_value_text("1");
    type_value(view, "3");
    REQUIRE(bits_of(view, "fp16") == 0x4200);
    QTest::keyClick(view.value_entry(), Qt::Key_Z, Qt::ControlModifier);
    CHECK(bits_of(view, "fp16") == 0x3C00);
}

TEST_CASE("on the dark palette the entry's error reads light red on dark, not the light palette's dark red", "[gui]") {
    QApplication& app = floatscope::test::gui_application();
    floatscope::gui::apply_app_style(app, floatscope::gui::PaletteChoice::Dark);
    LabState state;
    BitsView view(state);
    type_value(view, "0.1x");
    auto* error = view.findChild<QLabel*>(QString(), Qt::FindDirectChildrenOnly);
    for (QLabel* label : view.findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly))
        if (label->text() == view.entry_error()) error = label;
    REQUIRE(error->text() == view.entry_error());
    const QColor text = error->palette().color(QPalette::WindowText);
    CHECK(text.red() > text.green() + 40);  // red
    CHECK(text.lightness() > error->palette().color(QPalette::Window).lightness() + 80);  // on a darker ground
    floatscope::gui::apply_app_style(app, floatscope::gui::PaletteChoice::Light);
}
