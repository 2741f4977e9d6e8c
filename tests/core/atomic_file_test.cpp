// write_file_atomically (core/atomic_file.hpp): the whole content or nothing, never a truncated
// file, never a temporary file left behind.
#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <thread>

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

/// The kind of file `path` names itself, links not followed (S_IFREG, S_IFCHR, S_IFIFO, S_IFLNK).
mode_t kind_of(const fs::path& path) {
    struct stat status {};
    REQUIRE(::lstat(path.c_str(), &status) == 0);
    return status.st_mode & S_IFMT;
}

/// A character device node of the test's own (never the system's /dev): Linux's null (1, 3) or
/// full (1, 7) device. Making one needs root, as CI and the project's machines run.
fs::path make_device(const TempDir& dir, const std::string& name, unsigned minor) {
    const fs::path node = dir.path() / name;
    INFO("mknod " << node << " needs root (CAP_MKNOD)");
    REQUIRE(::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0);
    return node;
}

}  // namespace

TEST_CASE("a device is written, never replaced", "[atomic_file]") {
    TempDir dir;
    SECTION("a null device takes the content and stays a device") {
        const fs::path null = make_device(dir, "null", 3);
        write_file_atomically(null, "a,b\n1,2\n");
        CHECK(kind_of(null) == S_IFCHR);
    }
    SECTION("a full device's error is reported, and it stays a device") {
        const fs::path full = make_device(dir, "full", 7);
        const std::string message = error_of([&] { write_file_atomically(full, "a,b\n"); });
        INFO(message);
        CHECK(message.find("No space left on device") != std::string::npos);
        CHECK(kind_of(full) == S_IFCHR);
    }
    CHECK(entries(dir.path()).size() == 1);  // no temporary file beside it
}

TEST_CASE("a FIFO's reader gets the content, and the FIFO stays", "[atomic_file]") {
    TempDir dir;
    const fs::path fifo = dir.path() / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = read_file(fifo); });
    write_file_atomically(fifo, "row 1\nrow 2\n");
    reader.join();
    CHECK(received == "row 1\nrow 2\n");
    CHECK(kind_of(fifo) == S_IFIFO);
    CHECK(entries(dir.path()) == std::set<std::string>{"pipe"});
}

TEST_CASE("a symbolic link leads to the file replaced, and the link stays a link", "[atomic_file]") {
    TempDir dir;
    fs::create_directory(dir.path() / "reports");
    fs::create_directory(dir.path() / "links");
    const fs::path file = dir.write("reports/report.csv", "old\n");
    ::chmod(file.c_str(), 0600);
    // links/latest -> chain -> ../reports/report.csv, relative links resolved from their folders.
    fs::create_symlink("../reports/report.csv", dir.path() / "links" / "chain");
    fs::create_symlink("chain", dir.path() / "links" / "latest");
    write_file_atomically(dir.path() / "links" / "latest", "new\n");
    CHECK(read_file(file) == "new\n");
    CHECK(kind_of(dir.path() / "links" / "latest") == S_IFLNK);
    CHECK(kind_of(dir.path() / "links" / "chain") == S_IFLNK);
    CHECK(kind_of(file) == S_IFREG);
    CHECK((fs::status(file).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
    CHECK(entries(dir.path() / "reports") == std::set<std::string>{"report.csv"});
    CHECK(entries(dir.path() / "links") == std::set<std::string>{"chain", "latest"});

    SECTION("a dangling link: the file it names is made") {
        fs::create_symlink(dir.path() / "reports" / "new.json", dir.path() / "links" / "next");
        write_file_atomically(dir.path() / "links" / "next", "{}\n");
        CHECK(read_file(dir.path() / "reports" / "new.json") == "{}\n");
        CHECK(kind_of(dir.path() / "links" / "next") == S_IFLNK);
    }
    SECTION("a loop of links is refused, nothing made") {
        fs::create_symlink("b", dir.path() / "links" / "a");
        fs::create_symlink("a", dir.path() / "links" / "b");
        const std::string message = error_of([&] { write_file_atomically(dir.path() / "links" / "a", "x\n"); });
        INFO(message);
        CHECK(message.find("Too many levels of symbolic links") != std::string::npos);
        CHECK(entries(dir.path() / "links") == std::set<std::string>{"a", "b", "chain", "latest"});
    }
}

TEST_CASE("this process's descriptors are written through, not replaced", "[atomic_file]") {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    for (const std::string& name : {"/dev/fd/" + std::to_string(ends[1]), "/proc/self/fd/" + std::to_string(ends[1])})
        write_file_atomically(name, "to the pipe\n");
    ::close(ends[1]);
    std::string received;
    char buffer[256];
    for (ssize_t n; (n = ::read(ends[0], buffer, sizeof buffer)) > 0;)
        received.append(buffer, static_cast<std::size_t>(n));
    ::close(ends[0]);
    CHECK(received == "to the pipe\nto the pipe\n");
}

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
        CHECK(message.find("it is a folder") != std::string::npos);
        CHECK(read_file(target / "kept.txt") == "kept");
        CHECK(entries(dir.path()) == std::set<std::string>{"exports"});
    }
    SECTION("its name is empty") {
        CHECK(error_of([] { write_file_atomically("", "a\n"); }).find("empty name") != std::string::npos);
    }
}
