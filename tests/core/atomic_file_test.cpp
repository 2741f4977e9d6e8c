// write_file_atomically (core/atomic_file.hpp): the whole content or nothing, never a truncated
// file, never a temporary file left behind.
#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <sys/resource.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "tests/temp_dir.hpp"

namespace fs = std::filesystem;
using floatscope::Error;
using floatscope::core::write_file_atomically;
using floatscope::test::TempDir;

namespace {

std::string read_file(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The names in `dir`: a temporary file left behind shows up here.
std::set<std::string> entries(const fs::path& dir) {
    std::set<std::string> names;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
    return names;
}

/// The message of the floatscope::Error that `write` throws ("" if it throws none).
template <typename Write>
std::string error_of(Write write) {
    try {
        write();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

/// Limits the size of files this process writes, so that write() fails with EFBIG: a failing
/// write that works as root too (unlike a read-only directory). SIGXFSZ is ignored meanwhile, as
/// it would otherwise end the process.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &saved_);
        previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = saved_;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, previous_handler_);
    }

private:
    rlimit saved_{};
    void (*previous_handler_)(int) = nullptr;
};

}  // namespace

TEST_CASE("the content is written whole and replaces an existing file", "[atomic_file]") {
    TempDir dir;
    const fs::path file = dir.path() / "report.csv";
    std::string binary = "a,b\r\n";
    binary += '\0';
    binary += "\xff\n";
    write_file_atomically(file, binary);
    CHECK(read_file(file) == binary);

    // A shorter content leaves no tail of the longer one.
    write_file_atomically(file, "x\n");
    CHECK(read_file(file) == "x\n");
    write_file_atomically(file, "");
    CHECK(fs::exists(file));
    CHECK(fs::file_size(file) == 0);
    CHECK(entries(dir.path()) == std::set<std::string>{"report.csv"});
}

TEST_CASE("a failed write leaves an existing file as it was and no temporary file", "[atomic_file]") {
    TempDir dir;
    const fs::path file = dir.path() / "session.json";
    const std::string original = "{\"kept\": true}\n";
    dir.write("session.json", original);
    const std::string large(1 << 16, 'x');
    std::string message;
    {
        const FileSizeLimit limit(1024);
        message = error_of([&] { write_file_atomically(file, large); });
    }
    INFO(message);
    CHECK(message.find(file.string()) != std::string::npos);
    CHECK(message.find("write failed") != std::string::npos);
    CHECK(read_file(file) == original);
    CHECK(entries(dir.path()) == std::set<std::string>{"session.json"});
}

TEST_CASE("a path that cannot be written gives an Error naming it and creates nothing", "[atomic_file]") {
    TempDir dir;
    SECTION("its folder does not exist") {
        const fs::path file = dir.path() / "missing" / "out.csv";
        const std::string message = error_of([&] { write_file_atomically(file, "a\n"); });
        INFO(message);
        CHECK(message.find(file.string()) != std::string::npos);
        CHECK(message.find("No such file or directory") != std::string::npos);
        CHECK(entries(dir.path()).empty());
    }
    SECTION("it is a folder") {
        fs::create_directory(dir.path() / "exports");
        dir.write("exports/kept.txt", "kept");
        const fs::path target = dir.path() / "exports";
        const std::string message = error_of([&] { write_file_atomically(target, "a\n"); });
        INFO(message);
        CHECK(message.find(target.string()) != std::string::npos);
        CHECK(message.find("rename failed") != std::string::npos);
        CHECK(read_file(target / "kept.txt") == "kept");
        CHECK(entries(dir.path()) == std::set<std::string>{"exports"});
    }
    SECTION("its name is empty") {
        CHECK(error_of([] { write_file_atomically("", "a\n"); }).find("empty name") != std::string::npos);
    }
}
