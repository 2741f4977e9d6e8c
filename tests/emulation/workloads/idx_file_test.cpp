// Tests of the IDX reader and the Fashion-MNIST loader, on files written here and on the installed dataset.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <zlib.h>

#include "core/error.hpp"
#include "emulation/workloads/data/idx_file.hpp"
#include "emulation/workloads/data/image_dataset.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

/// An IDX header (LeCun et al.'s layout, written out byte by byte) followed by `values`.
std::string idx_bytes(unsigned char type, const std::vector<std::uint32_t>& dims, const std::string& values) {
    std::string s = {'\0', '\0', static_cast<char>(type), static_cast<char>(dims.size())};
    for (std::uint32_t d : dims)
        for (int shift : {24, 16, 8, 0}) s += static_cast<char>((d >> shift) & 0xFF);
    return s + values;
}

std::filesystem::path write_gzip(const test::TempDir& dir, const std::string& name, const std::string& bytes) {
    const std::filesystem::path path = dir.path() / name;
    gzFile file = gzopen(path.c_str(), "wb");
    REQUIRE(file != nullptr);
    REQUIRE(gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size())) == static_cast<int>(bytes.size()));
    gzclose(file);
    return path;
}

std::string counting(std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(i);
    return s;
}

}  // namespace

TEST_CASE("read_idx reads plain and gzip files of unsigned bytes", "[idx]") {
    test::TempDir dir;
    const std::string bytes = idx_bytes(0x08, {2, 3, 2}, counting(12));
    for (const std::filesystem::path& path : {dir.write("plain.idx", bytes), write_gzip(dir, "packed.idx.gz", bytes)}) {
        const IdxArray a = read_idx(path);
        CHECK(a.dimensions == std::vector<std::uint32_t>{2, 3, 2});
        REQUIRE(a.values.size() == 12);
        for (std::size_t i = 0; i < 12; ++i) CHECK(a.values[i] == i);
        const IdxArray first = read_idx(path, 1);
        CHECK(first.dimensions == std::vector<std::uint32_t>{1, 3, 2});
        CHECK(first.values == std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5});
    }
}

TEST_CASE("read_idx names the file and the defect of malformed files", "[idx]") {
    test::TempDir dir;
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(read_idx(dir.path() / "absent.idx"), Contains("cannot open IDX file") && Contains("absent.idx"));
    CHECK_THROWS_WITH(read_idx(dir.write("text.idx", "hello world")), Contains("not an IDX file"));
    CHECK_THROWS_WITH(read_idx(dir.write("floats.idx", idx_bytes(0x0D, {1}, "abcd"))),
                      Contains("type 0x0d") && Contains("unsigned bytes"));
    CHECK_THROWS_WITH(read_idx(dir.write("rank0.idx", idx_bytes(0x08, {}, ""))), Contains("0 dimensions"));
    CHECK_THROWS_WITH(read_idx(dir.write("short.idx", idx_bytes(0x08, {2, 3}, counting(5)))),
                      Contains("truncated") && Contains("6 values"));
    CHECK_THROWS_WITH(read_idx(dir.write("long.idx", idx_bytes(0x08, {2, 3}, counting(7)))), Contains("longer"));
    CHECK_THROWS_WITH(read_idx(dir.write("header.idx", idx_bytes(0x08, {2, 3}, "").substr(0, 9))),
                      Contains("ends inside its header"));
    CHECK_THROWS_WITH(read_idx(dir.write("huge.idx", idx_bytes(0x08, {65536, 65536}, ""))), Contains("2^31"));
}

TEST_CASE("load_fashion_mnist checks its files and says how to install them", "[idx]") {
    test::TempDir dir;
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(load_fashion_mnist(dir.path(), true),
                      Contains("apt install dataset-fashion-mnist") && Contains("train-images-idx3-ubyte.gz"));
    write_gzip(dir, "t10k-images-idx3-ubyte.gz", idx_bytes(0x08, {2, 2, 2}, counting(8)));
    write_gzip(dir, "t10k-labels-idx1-ubyte.gz", idx_bytes(0x08, {3}, std::string("\x01\x02\x03", 3)));
    CHECK_THROWS_WITH(load_fashion_mnist(dir.path(), false), Contains("2 images but 3 labels"));
    write_gzip(dir, "t10k-labels-idx1-ubyte.gz", idx_bytes(0x08, {2}, std::string("\x01\x0A", 2)));
    CHECK_THROWS_WITH(load_fashion_mnist(dir.path(), false), Contains("label 10"));
    write_gzip(dir, "t10k-labels-idx1-ubyte.gz", idx_bytes(0x08, {2}, std::string("\x07\x03", 2)));
    const ImageDataset data = load_fashion_mnist(dir.path(), false);
    CHECK(data.features == 4);
    CHECK(data.labels == std::vector<std::uint8_t>{7, 3});
    CHECK(data.pixels == std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("the installed Fashion-MNIST test split has its published shape", "[idx]") {
    if (!std::filesystem::exists(std::filesystem::path(fashion_mnist_directory) / "t10k-labels-idx1-ubyte.gz")) {
        WARN("Fashion-MNIST is not installed (apt install dataset-fashion-mnist); not checked");
        return;
    }
    // Xiao et al. (arXiv:1708.07747): 10000 test images of 28 x 28. The first ten labels were read
    // from the file with Python's gzip module: 9 2 1 1 6 1 4 6 5 7; the first image's pixels sum to 33456.
    const ImageDataset test = load_fashion_mnist(fashion_mnist_directory, false);
    CHECK(test.size() == 10000);
    CHECK(test.features == 784);
    CHECK(std::vector<std::uint8_t>(test.labels.begin(), test.labels.begin() + 10) ==
          std::vector<std::uint8_t>{9, 2, 1, 1, 6, 1, 4, 6, 5, 7});
    unsigned sum = 0;
    for (std::size_t i = 0; i < 784; ++i) sum += test.pixels[i];
    CHECK(sum == 33456);
    CHECK(load_fashion_mnist(fashion_mnist_directory, false, 5).size() == 5);
}
