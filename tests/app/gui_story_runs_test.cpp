// Stories driven in-process (offscreen): their buttons, and a story run landing on the plot that
// tells it, its claim checked on the data.
#include <catch2/catch.hpp>

#include <QSignalSpy>
#include <QTest>
#include <map>

#include "app/gui/simulator/results_view.hpp"
#include "app/gui/simulator/stories.hpp"
#include "app/gui/simulator/stories_view.hpp"
#include "app/gui/simulator/story_button.hpp"
#include "tests/app/gui_test_application.hpp"
#include "tests/app/gui_workspace_fixture.hpp"

using namespace floatscope;
using floatscope::test::Workspace;

TEST_CASE(
    "story buttons show their whole text in the view's font, presentation size too, and a click asks for the story",
    "[gui]") {
    test::gui_application();
    gui::StoriesView view;
    view.resize(1024, 700);
    view.show();
    QApplication::processEvents();
    gui::StoryButton* button = view.button("fp16-overflow");
    REQUIRE(button != nullptr);
    CHECK(button->text().toStdString() == gui::stories().front().title);
    CHECK(button->height() >= button->heightForWidth(button->width()));  // no line cut off
    const int normal_height = button->heightForWidth(600);
    // Presentation mode enlarges the font 1.6 times: the text, and so the button, grow with it.
    QFont larger = view.font();
    larger.setPointSizeF(larger.pointSizeF() * 1.6);
    view.setFont(larger);
    for (int i = 0; i < 3; ++i) QApplication::processEvents();
    CHECK(button->heightForWidth(600) > normal_height * 1.5);
    CHECK(button->height() >= button->heightForWidth(button->width()));
    QSignalSpy requested(&view, &gui::StoriesView::story_requested);
    QTest::mouseClick(button, Qt::LeftButton);
    REQUIRE(requested.count() == 1);
    CHECK(requested.front().front().toString() == "fp16-overflow");
}

TEST_CASE("a story runs its preset and lands on the plot that tells it", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.ws.run_story_and_wait("fp16-overflow").isEmpty());
    CHECK(w.window.current_view_name() == "results");
    // Results states the story's claim above its plot.
    CHECK(w.ws.results_view()->message().contains(QStringLiteral("10k x 10k in FP16")));
    CHECK(w.ws.results_view()->message().contains(QStringLiteral("65504")));
    CHECK(w.ws.results_view()->current_plot_id().rfind("nan_fraction", 0) == 0);
    const plots::HeatmapModel* nan = w.ws.results_view()->current_heatmap();
    REQUIRE(nan != nullptr);
    // overflow-demo under fp16: 10^4 x 10^4 = inf, then inf - inf = NaN (IEEE 754-2019 7.2): some
    // fp16 cell is all NaN; fp32 (max ~3.4e38) holds 10^8 and has no NaN at all.
    const auto column = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(nan->columns.begin(), nan->columns.end(), name) -
                                        nan->columns.begin());
    };
    REQUIRE(column("fp16") < nan->columns.size());
    REQUIRE(column("fp32") < nan->columns.size());
    double fp16_max = 0, fp32_max = 0;
    for (std::size_t row = 0; row < nan->rows.size(); ++row) {
        fp16_max = std::max(fp16_max, nan->at(row, column("fp16")));
        fp32_max = std::max(fp32_max, nan->at(row, column("fp32")));
    }
    CHECK(fp16_max == 1);
    CHECK(fp32_max == 0);

    CHECK_FALSE(w.ws.run_story("no-such-story"));
    CHECK(w.ws.runner_view()->message().contains("fp16-overflow"));
}

TEST_CASE("the 4-bit story lands on SQNR per scheme, where NF4 beats INT4 and FP4 on normal weights", "[gui]") {
    test::gui_application();
    Workspace w;
    REQUIRE(w.ws.run_story_and_wait("int4-nf4-fp4").isEmpty());
    CHECK(w.ws.results_view()->current_plot_id().rfind("quantization_sqnr_db", 0) == 0);
    const plots::PlotModel* sqnr = w.ws.results_view()->current_plot();
    REQUIRE(sqnr != nullptr);
    REQUIRE(sqnr->series.size() == 1);
    std::map<std::string, double> by_scheme;
    for (const plots::PlotPoint& p : sqnr->series[0].points)
        for (const plots::AxisTick& tick : sqnr->x_axis.ticks)
            if (tick.value == p.x) by_scheme[tick.label] = p.y;
    REQUIRE(by_scheme.size() == 5);
    // NF4's codes are the quantiles of N(0, 1) (Dettmers et al., QLoRA, 2023, section 3): on normal
    // data it keeps more signal than the evenly spaced INT4 and the floating-point FP4 codes.
    CHECK(by_scheme["nf4"] > by_scheme["int4"]);
    CHECK(by_scheme["nf4"] > by_scheme["bnb_fp4"]);
    CHECK(by_scheme["nf4"] > by_scheme["mxfp4"]);
}
