// The desktop application renders each view to a PNG headless (QT_QPA_PLATFORM=offscreen).
#include <catch2/catch.hpp>

#include <QGuiApplication>
#include <QImage>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

int run_gui(const std::string& arguments) {
    const std::string command = "QT_QPA_PLATFORM=offscreen '" + std::string(FLOATSCOPE_GUI_BINARY) + "' " + arguments +
                                " >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("the formats view renders to a PNG listing the catalog", "[gui]") {
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "floatscope_formats_view.png";
    std::filesystem::remove(file);
    REQUIRE(run_gui("--screenshot '" + file.string() + "' --view formats") == 0);
    const QImage image(QString::fromStdString(file.string()));
    REQUIRE(!image.isNull());
    CHECK(image.width() >= 800);
    CHECK(image.height() >= 400);
    // Not a blank canvas: the table draws text and grid lines in more than one colour.
    const QRgb corner = image.pixel(image.width() / 2, image.height() / 8);
    bool varied = false;
    for (int y = 0; y < image.height() && !varied; y += 7)
        for (int x = 0; x < image.width() && !varied; x += 7) varied = image.pixel(x, y) != corner;
    CHECK(varied);
    std::filesystem::remove(file);
}

TEST_CASE("an unknown view is refused with exit code 2", "[gui]") {
    CHECK(run_gui("--screenshot /tmp/never_written.png --view nosuchview") == 2);
    CHECK(!std::filesystem::exists("/tmp/never_written.png"));
}
