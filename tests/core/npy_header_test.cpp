// Tests of core/npy_header.hpp: headers written out byte by byte here by the .npy format's rule.
#include <catch2/catch.hpp>

#include <string>

#include "core/error.hpp"
#include "core/npy_header.hpp"

using namespace floatscope;

namespace {

/// An .npy file of format `major`: magic, version, the header length (2 bytes for 1.0, 4 after),
/// the dictionary padded to 64 bytes, then `data`.
std::string npy_file(int major, std::string dictionary, const std::string& data = "") {
    const std::size_t length_bytes = major == 1 ? 2 : 4;
    while ((8 + length_bytes + dictionary.size() + 1) % 64 != 0) dictionary += ' ';
    dictionary += '\n';
    std::string file = std::string("\x93NUMPY", 6) + char(major) + '\0';
    for (std::size_t i = 0; i < length_bytes; ++i) file += char((dictionary.size() >> (8 * i)) & 0xFF);
    return file + dictionary + data;
}

std::string message(const std::string& bytes) {
    try {
        core::parse_npy_header(bytes, "a.npy");
    } catch (const Error& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("npy headers of every rank give their dtype, shape and data offset") {
    // Without data, the data start where the file ends: after the padded header.
    const std::string scalar_file = npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }");
    const core::NpyHeader scalar = core::parse_npy_header(scalar_file + "12345678", "s.npy");
    CHECK(scalar.descr == "<f8");
    CHECK(scalar.shape.empty());
    CHECK(scalar.data_offset == scalar_file.size());
    CHECK(scalar.data_offset % 64 == 0);
    const core::NpyHeader vector =
        core::parse_npy_header(npy_file(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (7,), }"), "v.npy");
    CHECK(vector.shape == std::vector<std::uint64_t>{7});
    // Version 2 and 3 headers have a four-byte length: the data start after 12 + the dictionary.
    const std::string cube_file = npy_file(3, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 0, 5), }");
    const core::NpyHeader cube = core::parse_npy_header(cube_file, "c.npy");
    CHECK(cube.descr == "<i8");
    CHECK(cube.shape == std::vector<std::uint64_t>{2, 0, 5});
    CHECK(cube.data_offset == cube_file.size());
    CHECK(cube.dictionary.find("(2, 0, 5)") != std::string::npos);
}

TEST_CASE("npy headers that FloatScope cannot read are refused with the reason") {
    CHECK(message("PK\x03\x04").find("a.npy: not an .npy file") != std::string::npos);
    CHECK(message(npy_file(4, "{}")).find("version 4 is not supported") != std::string::npos);
    CHECK(message(npy_file(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }"))
              .find("not in C (row-major) order") != std::string::npos);
    CHECK(message(npy_file(1, "{'fortran_order': False, 'shape': (2, 2), }")).find("no 'descr'") != std::string::npos);
    CHECK(message(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [2], }"))
              .find("the value of 'shape' is no string, True, False or tuple") != std::string::npos);
    CHECK(message(npy_file(1, "{'descr': '<f4', 'fortran_order': False, }")).find("no 'shape' tuple") !=
          std::string::npos);
    // 2^62 and a number past 2^64 are both refused as dimensions, not thrown as std::out_of_range.
    CHECK(message(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904,), }"))
              .find("too large") != std::string::npos);
    CHECK(message(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 1), }"))
              .find("too large") != std::string::npos);
    CHECK(message(std::string("\x93NUMPY\x02\x00\xFF\xFF", 10)).find("header is cut short") != std::string::npos);
    // A dictionary that never closes, or with text after it, is no header numpy wrote.
    CHECK(message(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), "))
              .find("the dictionary is never closed") != std::string::npos);
    CHECK(message(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x"))
              .find("text after the dictionary's closing brace") != std::string::npos);
}

TEST_CASE("a key given twice keeps its last value, as Python's dict does") {
    const core::NpyHeader h = core::parse_npy_header(
        npy_file(1, "{'descr': '<f8', 'shape': (9,), 'fortran_order': False, 'shape': (2, 3), 'descr': '<f4', }"),
        "d.npy");
    CHECK(h.descr == "<f4");
    CHECK(h.shape == std::vector<std::uint64_t>{2, 3});
}

TEST_CASE("a header of 60 KiB (v1 allows 64) parses in one pass, and messages quote at most 200 characters") {
    // Spaces inside the shape tuple and a long padding: a regular expression that recursed per
    // character ran out of stack on such headers.
    const std::string wide =
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2," + std::string(60000, ' ') + "3), }";
    CHECK(core::parse_npy_header(npy_file(1, wide), "w.npy").shape == std::vector<std::uint64_t>{2, 3});
    const std::string bad = "{'descr': '<f4', 'fortran_order': False, 'shape': [" + std::string(60000, '2') + "], }";
    const std::string refused = message(npy_file(1, bad));
    CHECK(refused.find("no string, True, False or tuple") != std::string::npos);
    CHECK(refused.size() < 500);
}
