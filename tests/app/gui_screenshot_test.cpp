// The desktop application renders each view to a PNG headless (QT_QPA_PLATFORM=offscreen).
#include <catch2/catch.hpp>

#include <QGuiApplication>
#include <QImage>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

int run_gui(const std::string& arguments) {
    const std::string command =
        "QT_QPA_PLATFORM=offscreen '" + std::string(FLOATSCOPE_GUI_BINARY) + "' " + arguments + " >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

/// Not a blank canvas: more than one colour across the image.
bool varied(const QImage& image) {
    const QRgb corner = image.pixel(image.width() / 2, image.height() / 8);
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            if (image.pixel(x, y) != corner) return true;
    return false;
}

TEST_CASE("every view renders to a PNG of the requested size", "[gui]") {
    for (const char* view : {"bits", "formats", "numberline", "learn", "designer", "hardware"}) {
        INFO(view);
        const std::filesystem::path file =
            std::filesystem::temp_directory_path() / ("floatscope_view_" + std::string(view) + ".png");
        std::filesystem::remove(file);
        REQUIRE(run_gui("--screenshot '" + file.string() + "' --view " + view +
                        " --value 0.3952 --formats fp32,bf16,fp16,fp8_e4m3 --size 1280x800") == 0);
        const QImage image(QString::fromStdString(file.string()));
        REQUIRE(!image.isNull());
        CHECK(image.width() == 1280);
        CHECK(image.height() == 800);
        CHECK(varied(image));
        std::filesystem::remove(file);
    }
}

TEST_CASE("a smaller size is honoured", "[gui]") {
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "floatscope_small_view.png";
    std::filesystem::remove(file);
    REQUIRE(run_gui("--screenshot '" + file.string() + "' --view formats --size 900x600") == 0);
    const QImage image(QString::fromStdString(file.string()));
    CHECK(image.width() == 900);
    CHECK(image.height() == 600);
    std::filesystem::remove(file);
}

TEST_CASE("an unknown view is refused with exit code 2", "[gui]") {
    CHECK(run_gui("--screenshot /tmp/never_written.png --view nosuchview") == 2);
    CHECK(!std::filesystem::exists("/tmp/never_written.png"));
}

TEST_CASE("bad --size, --value and --formats are refused with exit code 2", "[gui]") {
    CHECK(run_gui("--screenshot /tmp/never_written.png --view bits --size 12by8") == 2);
    CHECK(run_gui("--screenshot /tmp/never_written.png --view bits --value 1.2.3") == 2);
    CHECK(run_gui("--screenshot /tmp/never_written.png --view bits --formats fp16,fp18") == 2);
    CHECK(!std::filesystem::exists("/tmp/never_written.png"));
}

TEST_CASE("the state option opens a view link and presentation mode renders enlarged and a bad link exits 2", "[gui]") {
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "floatscope_state.png";
    std::filesystem::remove(file);
    REQUIRE(run_gui("--screenshot '" + file.string() +
                    "' --view numberline --size 1024x700 --presentation"
                    " --state 'floatscope:1?format=fp16&format=fp8_e4m3&rounding=rne&value=65510&view=bits'") == 0);
    CHECK(QImage(QString::fromStdString(file.string())).width() == 1024);
    std::filesystem::remove(file);
    CHECK(run_gui("--screenshot /tmp/never_written.png --view bits --state 'floatscope:1?value=1'") == 2);
    CHECK(run_gui("--screenshot /tmp/never_written.png --view bits --state nonsense") == 2);
    CHECK(!std::filesystem::exists("/tmp/never_written.png"));
}

TEST_CASE("the palette option forces the dark or the light palette and a bad name exits 2", "[gui]") {
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "floatscope_palette.png";
    auto window_lightness = [&](const std::string& palette) {
        std::filesystem::remove(file);
        REQUIRE(run_gui("--screenshot '" + file.string() + "' --view bits --size 1024x700 --palette " + palette) == 0);
        const QImage image(QString::fromStdString(file.string()));
        REQUIRE(image.width() == 1024);
        return image.pixelColor(image.width() - 4, image.height() - 4).lightness();  // the status bar's corner
    };
    CHECK(window_lightness("dark") < 80);
    CHECK(window_lightness("light") > 200);
    std::filesystem::remove(file);
    CHECK(run_gui("--screenshot /tmp/never_written.png --view bits --palette purple") == 2);
    CHECK(!std::filesystem::exists("/tmp/never_written.png"));
}
