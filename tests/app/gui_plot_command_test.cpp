// `floatscope --plot REPORT --out DIR` and `--screenshot --story` as separate processes, as users run them.
#include <catch2/catch.hpp>

#include <QImage>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "core/atomic_file.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;

namespace {

int run_gui(const std::string& arguments) {
    const std::string command =
        "QT_QPA_PLATFORM=offscreen '" + std::string(FLOATSCOPE_GUI_BINARY) + "' " + arguments + " >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::size_t count_with_extension(const std::filesystem::path& dir, const std::string& extension) {
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) count += entry.path().extension() == extension;
    return count;
}

}  // namespace

TEST_CASE("floatscope --plot renders a report's plots to PNG and SVG and exits 2 on a bad report", "[gui]") {
    test::TempDir dir;
    emu::RunRequest request;
    request.workload = &emu::find_workload("sum");
    request.parameters = emu::Parameters::parse(request.workload->parameters(), {"n=300"});
    request.policies = {emu::parse_policy("fp16"), emu::parse_policy("fp32")};
    emu::RunControl control;
    std::ostringstream json;
    emu::write_json(emu::run(request, control), json);
    const std::filesystem::path report = dir.path() / "report.json";
    core::write_file_atomically(report, json.str());

    const std::filesystem::path out = dir.path() / "plots";
    REQUIRE(run_gui("--plot '" + report.string() + "' --out '" + out.string() + "'") == 0);
    const std::size_t png = count_with_extension(out, ".png");
    CHECK(png >= 2);  // at least error growth (normwise error, bits correct)
    CHECK(count_with_extension(out, ".svg") == png);
    const QImage image(QString::fromStdString((out / "error_growth_normwise_rel_error_terms.png").string()));
    REQUIRE_FALSE(image.isNull());
    CHECK(image.width() == 1000);

    CHECK(run_gui("--plot '" + dir.write("bad.json", "{\"rows\": 3}").string() + "' --out '" + out.string() + "'") ==
          2);
    CHECK(run_gui("--plot '" + (dir.path() / "missing.json").string() + "' --out '" + out.string() + "'") == 2);
    CHECK(run_gui("--plot '" + report.string() + "'") == 2);  // no --out
}

TEST_CASE("floatscope --screenshot --story renders the simulator views after the story's run", "[gui]") {
    test::TempDir dir;
    for (const char* view : {"stories", "runner", "results", "compare"}) {
        INFO(view);
        const std::filesystem::path file = dir.path() / (std::string(view) + ".png");
        REQUIRE(run_gui("--screenshot '" + file.string() + "' --view " + view +
                        " --story harmonic-stall --size 1280x800") == 0);
        const QImage image(QString::fromStdString(file.string()));
        REQUIRE_FALSE(image.isNull());
        CHECK(image.width() == 1280);
        CHECK(image.height() == 800);
    }
    CHECK(run_gui("--screenshot '" + (dir.path() / "x.png").string() + "' --view results --story no-such-story") == 2);
}
