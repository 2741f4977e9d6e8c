// Tests of core/npy.hpp: files written out byte by byte here by the .npy format's rule.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/npy.hpp"

using namespace floatscope;

namespace {

/// A version-1.0 .npy file: magic, version, header length, the header padded to 64 bytes, data.
std::string npy_file(const std::string& dictionary, const std::string& data) {
    std::string header = dictionary;
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    return std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + char(header.size() >> 8) + header + data;
}

}  // namespace

TEST_CASE("an .npy float16 matrix reads as its exact values, row after row") {
    // 1, -2, 65504 (the largest fp16), 2^-24 (the smallest subnormal): little-endian fp16 patterns.
    const std::string data("\x00\x3C\x00\xC0\xFF\x7B\x01\x00", 8);
    const core::Matrix m =
        core::parse_npy(npy_file("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }", data), "test");
    CHECK(m.rows == 2);
    CHECK(m.cols == 2);
    REQUIRE(m.values.size() == 4);
    CHECK(m.values[0] == 1);
    CHECK(m.values[1] == -2);
    CHECK(m.values[2] == 65504);
    CHECK(m.values[3] == std::ldexp(1.0, -24));
}

TEST_CASE("npy_bytes writes what parse_npy and the format's rule read") {
    const core::Matrix m{1, 3, {1.5, -0.25, 3}};
    const std::string bytes = core::npy_bytes(m, core::parse_format("fp32"));
    // 1.5 = 0x3FC00000, -0.25 = 0xBE800000, 3 = 0x40400000, little-endian, after a header padded to
    // a multiple of 64 bytes and ended by a line break.
    REQUIRE(bytes.size() % 64 == 12);
    CHECK(bytes[bytes.size() - 13] == '\n');
    CHECK(bytes.substr(bytes.size() - 12) == std::string("\x00\x00\xC0\x3F\x00\x00\x80\xBE\x00\x00\x40\x40", 12));
    CHECK(bytes.find("'descr': '<f4', 'fortran_order': False, 'shape': (1, 3)") != std::string::npos);
    CHECK(core::parse_npy(bytes, "round trip").values == m.values);
    const std::string half = core::npy_bytes(m, core::parse_format("fp16"));
    CHECK(half.substr(half.size() - 6) == std::string("\x00\x3E\x00\xB4\x00\x42", 6));
    CHECK_THROWS_AS(core::npy_bytes(m, core::parse_format("bf16")), Error);
}

TEST_CASE("files that are not 2-D C-order float matrices are refused with the reason") {
    const auto message = [](const std::string& bytes) {
        try {
            core::parse_npy(bytes, "m.npy");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(message("1,2,3\n").find("m.npy: not an .npy file") != std::string::npos);
    CHECK(message(npy_file("{'descr': '>f4', 'fortran_order': False, 'shape': (1, 1), }", "abcd"))
              .find("dtype '>f4' is not supported") != std::string::npos);
    CHECK(message(npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 1), }", "abcd"))
              .find("not in C (row-major) order") != std::string::npos);
    CHECK(message(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", "abcd")).find("not 2-D") !=
          std::string::npos);
    CHECK(message(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", "abcd"))
              .find("need 16 bytes of data, the file has 4") != std::string::npos);
    CHECK(message(std::string("\x93NUMPY\x01\x00\xFF\x00{", 11)).find("header is cut short") != std::string::npos);
}
