// core/memory_budget.hpp: sizes in binary units (IEC 80000-13: Ki = 2^10, Mi = 2^20, Gi = 2^30,
// Ti = 2^40), and a refusal that says what was asked for and what the limit is.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <mpfr.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"

using floatscope::Error;
using namespace floatscope::core;

TEST_CASE("memory sizes are read in binary units", "[memory_budget]") {
    const std::uint64_t Mi = std::uint64_t{1} << 20, Gi = std::uint64_t{1} << 30;
    CHECK(parse_memory_size("512M", "--memory-limit") == 512 * Mi);
    CHECK(parse_memory_size("16G", "--memory-limit") == 16 * Gi);
    CHECK(parse_memory_size("16g", "--memory-limit") == 16 * Gi);
    CHECK(parse_memory_size("16GiB", "--memory-limit") == 16 * Gi);
    CHECK(parse_memory_size("16GB", "--memory-limit") == 16 * Gi);
    CHECK(parse_memory_size("1.5G", "--memory-limit") == 3 * Gi / 2);
    CHECK(parse_memory_size("2T", "--memory-limit") == 2 * 1024 * Gi);
    CHECK(parse_memory_size("1024K", "--memory-limit") == Mi);
    CHECK(parse_memory_size("1048576", "--memory-limit") == Mi);
}

TEST_CASE("bad memory sizes are refused with the source and the valid form", "[memory_budget]") {
    for (const char* text : {"", "abc", "G", "16X", "16 G", "-1G", "0", "nan", "inf", "12", "1023K", "2000000T"}) {
        INFO(text);
        CHECK_THROWS_WITH(parse_memory_size(text, "FLOATSCOPE_MEMORY_LIMIT"),
                          Catch::StartsWith(std::string("FLOATSCOPE_MEMORY_LIMIT '") + text + "'") &&
                              Catch::Contains("such as 512M or 16G"));
    }
}

TEST_CASE("memory sizes are printed in the largest binary unit", "[memory_budget]") {
    CHECK(format_memory_size(512) == "512 bytes");
    CHECK(format_memory_size(8.0 * (1 << 30)) == "8 GiB");
    CHECK(format_memory_size(1.5 * (1 << 20)) == "1.5 MiB");
    CHECK(format_memory_size(12.3 * (1 << 30)) == "12.3 GiB");
}

TEST_CASE("a request beyond the limit names what was asked for and the limit", "[memory_budget]") {
    const std::uint64_t previous = memory_limit();
    set_memory_limit(std::uint64_t{1} << 30);
    CHECK_NOTHROW(require_memory("a tensor", double(1 << 30)));
    CHECK_THROWS_WITH(require_memory("mlp-forward with width=8192", 1.5 * double(1 << 30)),
                      "mlp-forward with width=8192 needs 1.5 GiB; the limit is 1 GiB (raise it with --memory-limit or "
                      "FLOATSCOPE_MEMORY_LIMIT)");
    set_memory_limit(previous);
}

TEST_CASE("an MPFR number's estimate covers its limbs and their heap block", "[memory_budget]") {
    // MPFR stores a number of p bits in ceil(p / mp_bits_per_limb) limbs (MPFR manual, 5.1), behind
    // a limb holding their count, in a block glibc's malloc pads by 8 bytes to a multiple of 16, at
    // least 32: what getrusage shows 2^21 numbers of 53 bits take (64 bytes each, not 40).
    CHECK(mpfr_number_bytes(53) == sizeof(mpfr_t) + 32);
    CHECK(mpfr_number_bytes(256) == sizeof(mpfr_t) + 48);
    CHECK(mpfr_number_bytes(2048) == sizeof(mpfr_t) + 2048 / 8 + 16);
}
