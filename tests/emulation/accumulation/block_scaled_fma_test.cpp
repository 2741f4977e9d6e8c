// Blackwell's block-scaled MMA presets: the frozen B200 words, and the MPFR reference of the model on drawn operands.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/block_scaled_gemm.hpp"
#include "emulation/accumulation/dot.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

namespace {

double binary32(std::uint32_t bits) { return static_cast<double>(std::bit_cast<float>(bits)); }

/// A scale code's value (UE4M3 without its sign bit).
double scale_value(const emu::BlockScaling& scaling, std::uint64_t code) {
    return core::decode_bits(scaling.scale, scaling.kind == emu::BlockScaledKind::Nvfp4 ? code & 0x7F : code).value;
}

/// One instruction of tests/data/tensor-cores/b200_block_scaled.txt (scripts/b200-block-scaled-words.py).
struct FrozenWord {
    std::string name, preset;
    std::vector<double> a, b, sa, sb;
    double c = 0;
    std::uint32_t d = 0;
};

std::vector<FrozenWord> frozen_words() {
    std::ifstream in(std::string(FLOATSCOPE_TEST_DATA) + "/tensor-cores/b200_block_scaled.txt");
    REQUIRE(in.good());
    std::vector<FrozenWord> words;
    for (std::string line; std::getline(in, line);) {
        FrozenWord w;
        std::istringstream head(line.substr(0, line.find(':')));
        head >> w.name >> w.preset;
        std::vector<std::vector<std::string>> fields;
        std::istringstream split(line.substr(line.find(':') + 1));
        for (std::string field; std::getline(split, field, ';');) {
            std::istringstream words_in(field);
            fields.emplace_back();
            for (std::string word; words_in >> word;) fields.back().push_back(word);
        }
        REQUIRE(fields.size() == 6);
        const emu::BlockScaling& scaling = emu::find_accumulation_preset(w.preset).model.block_scaling;
        for (const std::string& h : fields[0]) w.a.push_back(binary32(std::stoul(h, nullptr, 16)));
        for (const std::string& h : fields[1]) w.b.push_back(binary32(std::stoul(h, nullptr, 16)));
        w.c = binary32(std::stoul(fields[2][0], nullptr, 16));
        for (const std::string& h : fields[3]) w.sa.push_back(scale_value(scaling, std::stoul(h, nullptr, 16)));
        for (const std::string& h : fields[4]) w.sb.push_back(scale_value(scaling, std::stoul(h, nullptr, 16)));
        w.d = static_cast<std::uint32_t>(std::stoul(fields[5][0], nullptr, 16));
        words.push_back(std::move(w));
    }
    return words;
}

/// D of one instruction through block_scaled_gemm (1 x K times K x 1, C the addend).
double instruction(const emu::AccumulationModel& model, const std::vector<double>& a, const std::vector<double>& sa,
                   const std::vector<double>& b, const std::vector<double>& sb, double c) {
    double d = 0;
    emu::block_scaled_gemm(model, {a, sa}, {b, sb}, std::span<double>(&d, 1), 1, a.size(), 1,
                           std::span<const double>(&c, 1));
    return d;
}

bool same_word(double d, std::uint32_t word) {
    const double expected = binary32(word);
    return std::isnan(expected) ? std::isnan(d) : test::same_result(d, expected);
}

const char* const block_scaled_presets[] = {
    "nvidia_b200_mxfp8",         "nvidia_b200_mxfp8_e5m2", "nvidia_b200_mxfp6_e2m3", "nvidia_b200_mxfp6_e3m2",
    "nvidia_b200_mxf8f6f4_e2m1", "nvidia_b200_mxfp4",      "nvidia_b200_mxfp4_4x",   "nvidia_b200_nvfp4",
};

/// Drawn operands of one preset: element codes of every kind (subnormals, both signs, zeros; an
/// inf or NaN now and then where the format has them), scales around 1 and at the ends of their
/// range, and C across the binades that decide the windows (C-dominant, per-group, subnormal).
struct Draw {
    const emu::AccumulationModel& model;
    std::mt19937_64& random;

    std::uint64_t below(std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); }

    double element(const core::FormatSpec& format, bool specials) {
        for (;;) {
            const double v = core::decode_bits(format, below(std::uint64_t{1} << format.total_bits())).value;
            if (std::isfinite(v) || (specials && below(50) == 0)) return v;
        }
    }

    /// Scales for `blocks` blocks: near 1 (regime 0), anywhere (1), where D is an fp32 subnormal (2),
    /// or alternating between high and far lower blocks (3: the groups a window truncates, the
    /// per-group C window and the subnormal floor).
    std::vector<double> scales(std::size_t blocks, int regime) {
        const bool nvfp4 = model.block_scaling.kind == emu::BlockScaledKind::Nvfp4;
        std::vector<double> s;
        for (std::size_t i = 0; i < blocks; ++i) {
            std::uint64_t code = 0;
            if (nvfp4) {
                const std::uint64_t high = 0x70 + below(0xF), low = below(0x10);
                code = regime == 0   ? 0x30 + below(0x10)
                       : regime == 1 ? below(0x7F)
                       : regime == 2 ? low
                       : i % 2 == 0  ? high
                                     : low;
            } else {
                const std::uint64_t high = 55 + below(30);
                code = regime == 0   ? 120 + below(16)
                       : regime == 1 ? below(0xFF)
                       : regime == 2 ? high
                       : i % 2 == 0  ? high
                                     : high - 15 - below(30);
            }
            s.push_back(scale_value(model.block_scaling, code));
        }
        return s;
    }

    /// C: zero, a random subnormal or fp32, or a value a few binades from `near` (a scale product).
    double addend(double near) {
        switch (below(5)) {
            case 0: return 0;
            case 1:
                return binary32(static_cast<std::uint32_t>(below(std::uint64_t{1} << 32)) & 0x807FFFFFu);  // subnormal
            case 2: {
                const auto v = binary32(static_cast<std::uint32_t>(below(std::uint64_t{1} << 32)));
                return std::isfinite(v) ? v : 1.0;
            }
            default: {
                const double v =
                    std::ldexp(1.0 + static_cast<double>(below(1 << 23)) / (1 << 23),
                               std::max(std::ilogb(near == 0 ? 1.0 : near), -140) + static_cast<int>(below(10)) - 3);
                return static_cast<float>(below(2) ? v : -v);
            }
        }
    }
};

}  // namespace

TEST_CASE("the block-scaled presets reproduce sf-tensor's frozen B200 result words") {
    const std::vector<FrozenWord> words = frozen_words();
    REQUIRE(words.size() == 27);
    for (const FrozenWord& w : words) {
        INFO(w.name << " under " << w.preset);
        const emu::AccumulationModel& model = emu::find_accumulation_preset(w.preset).model;
        const double d = instruction(model, w.a, w.sa, w.b, w.sb, w.c);
        CHECK(same_word(d, w.d));
        CHECK(same_word(test::ref_block_scaled_dot(model, w.a, w.sa, w.b, w.sb, w.c), w.d));
        // The words with unit scales are those of dot on plain values.
        if (std::all_of(w.sa.begin(), w.sa.end(), [](double s) { return s == 1; }) &&
            std::all_of(w.sb.begin(), w.sb.end(), [](double s) { return s == 1; }))
            CHECK(same_word(emu::dot(model, w.a, w.b, w.c), w.d));
    }
}

TEST_CASE("block-scaled GEMMs equal the MPFR reference of the model on drawn and adversarial operands") {
    std::mt19937_64 random(41);
    for (const char* name : block_scaled_presets) {
        INFO(name);
        const emu::AccumulationModel& model = emu::find_accumulation_preset(name).model;
        const std::size_t m = 3, n = 3, k = 2 * static_cast<std::size_t>(model.block_size) + 16;  // a partial third
        const std::size_t block = static_cast<std::size_t>(model.block_scaling.scale_block);
        const std::size_t blocks = (k + block - 1) / block;
        Draw draw{model, random};
        for (int trial = 0; trial < 120; ++trial) {
            const int regime = trial % 4;
            const bool specials = trial % 10 == 9;
            std::vector<double> a(m * k), b(k * n), sa = draw.scales(m * blocks, regime),
                                                    sb = draw.scales(blocks * n, regime);
            for (double& v : a) v = draw.element(model.x.rounding.format, specials);
            for (double& v : b) v = draw.element(model.y.rounding.format, specials);
            if (trial % 4 == 1)  // cancellation: B's first column the negation of A's first row
                for (std::size_t t = 0; t < k; ++t) b[t * n] = -a[t];
            std::vector<double> c(m * n);
            for (std::size_t i = 0; i < m; ++i)
                for (std::size_t j = 0; j < n; ++j) {
                    double largest = 0;  // the entry's largest scale product
                    for (std::size_t s = 0; s < blocks; ++s)
                        largest = std::max(largest, sa[i * blocks + s] * sb[s * n + j]);
                    c[i * n + j] = draw.addend(largest);
                }
            std::vector<double> d(m * n);
            const double tensor_scale = trial % 5 == 4 ? 0.75 : 1;
            emu::block_scaled_gemm(model, {a, sa}, {b, sb}, d, m, k, n, c, tensor_scale);
            for (std::size_t i = 0; i < m; ++i)
                for (std::size_t j = 0; j < n; ++j) {
                    const test::BlockScaledEntry e = test::block_scaled_entry(a, sa, b, sb, k, n, i, j);
                    const double expected =
                        test::ref_block_scaled_dot(model, e.x, e.x_scales, e.y, e.y_scales, c[i * n + j], tensor_scale);
                    INFO("trial " << trial << " entry " << i << "," << j << ": " << d[i * n + j] << " vs " << expected);
                    CHECK(test::same_result(d[i * n + j], expected));
                }
        }
    }
}

TEST_CASE("the mxf8f6f4 window truncates each product on its own, below the exact sum's rounding") {
    // C = 1 sets the window at 2^-25; seven products 1.75 * 2^-24 (3.5 units each) keep 3 units each:
    // 1 + 21 * 2^-25 = 1 + 5.25 * 2^-23 gives 1 + 5 * 2^-23, where the exact sum (6.125) gives 6.
    const emu::AccumulationModel& model = emu::find_accumulation_preset("nvidia_b200_mxfp8").model;
    std::vector<double> a(32, 0.0), b(32, 0.0);
    for (int i = 0; i < 7; ++i) a[i] = 1.75, b[i] = 1;
    const std::vector<double> sa{std::ldexp(1.0, -24)}, sb{1};
    CHECK(instruction(model, a, sa, b, sb, 1.0) == 1 + 5 * std::ldexp(1.0, -23));
}

/// An FP4 instruction of K = 64 with elements (k, a, b) set and the rest zero, the scales of its blocks.
double fp4_instruction(const char* preset, std::initializer_list<std::tuple<int, double, double>> elements,
                       const std::vector<double>& scales, double c) {
    const emu::AccumulationModel& model = emu::find_accumulation_preset(preset).model;
    std::vector<double> a(64, 0.0), b(64, 0.0);
    for (const auto& [k, x, y] : elements) a[k] = x, b[k] = y;
    const double d = instruction(model, a, scales, b, scales, c);
    CHECK(test::same_result(test::ref_block_scaled_dot(model, a, scales, b, scales, c), d));
    return d;
}

TEST_CASE("the FP4 windows on hand-worked instructions: groups of 4, the per-group C window, the subnormal floor") {
    const double p = std::ldexp(1.0, 1);  // 2^1, for readable powers below
    SECTION("NVFP4 sums groups of 4 before their truncation") {
        // Block 1 (UE4M3 448 = 1.75 * 2^8 on both sides) sets S = 16 and q = 2^-19, its two products
        // cancelling; block 0 (2^-9 on both sides) holds products of 2^-20: three in the first group
        // of 4 (3 * 2^-20, one unit of 2^-19 kept) and one in the second (none kept): D = 2^-19, where
        // one group of 16 would keep 2^-18 and products truncated alone nothing.
        const double d = fp4_instruction(
            "nvidia_b200_nvfp4", {{0, 0.5, 0.5}, {1, 0.5, 0.5}, {2, 0.5, 0.5}, {4, 0.5, 0.5}, {16, 6, 6}, {17, -6, 6}},
            {std::ldexp(1.0, -9), 448, 1, 1}, 0);
        CHECK(d == std::ldexp(p, -20));
    }
    SECTION("MXFP4 truncates a group that C outranks in C's window") {
        // Block 0 (scales 2^10: S = 20) gives 36 * 2^20 - 24 * 2^20, R = 24, q = 2^-15; C = -1.5 * 2^23
        // cancels it (r(C) = 23 < R, not C-dominant). Group 2 (scales 2^-10) sums 16 * 36 * 2^-20 =
        // 1.125 * 2^-11; C outranks it, so it is truncated to 2^(23 - 35) = 2^-12: D = 2^-11, where
        // the window q alone would keep all of 1.125 * 2^-11.
        std::initializer_list<std::tuple<int, double, double>> elements = {
            {0, 6, 6},  {1, -4, 6}, {32, 6, 6}, {33, 6, 6}, {34, 6, 6}, {35, 6, 6}, {36, 6, 6}, {37, 6, 6}, {38, 6, 6},
            {39, 6, 6}, {40, 6, 6}, {41, 6, 6}, {42, 6, 6}, {43, 6, 6}, {44, 6, 6}, {45, 6, 6}, {46, 6, 6}, {47, 6, 6}};
        const double d =
            fp4_instruction("nvidia_b200_mxfp4", elements, {std::ldexp(1.0, 10), std::ldexp(1.0, -10)}, -1.5 * 0x1p23);
        CHECK(d == std::ldexp(p, -12));
    }
    SECTION("MXFP4 leaves a lower-scale group below 2^-174 out of a subnormal D") {
        // Block 0 (scales 2^-75 and 2^-72) gives 2^-147, block 1 (2^-90 and 2^-90) -2^-180: q = 2^-182,
        // the exact sum 2^-147 - 2^-180 would truncate to the subnormal 3 * 2^-149; the floor drops the
        // block-1 group (4 units, below 2^-174) and D = 2^-147.
        const emu::AccumulationModel& model = emu::find_accumulation_preset("nvidia_b200_mxfp4").model;
        std::vector<double> a(64, 0.0), b(64, 0.0);
        a[0] = 1, b[0] = 1, a[32] = -1, b[32] = 1;
        const std::vector<double> sa{std::ldexp(1.0, -75), std::ldexp(1.0, -90)},
            sb{std::ldexp(1.0, -72), std::ldexp(1.0, -90)};
        const double d = instruction(model, a, sa, b, sb, 0);
        CHECK(d == std::ldexp(1.0, -147));
        CHECK(test::same_result(test::ref_block_scaled_dot(model, a, sa, b, sb, 0), d));
    }
}

TEST_CASE("block-scaled presets refuse what their instruction does not take") {
    const emu::AccumulationModel& model = emu::find_accumulation_preset("nvidia_b200_nvfp4").model;
    std::vector<double> a(64, 1.0), sa(3, 1.0), d(1);  // 64 k take 4 scales
    CHECK_THROWS_WITH(emu::block_scaled_gemm(model, {a, sa}, {a, sa}, d, 1, 64, 1), Catch::Contains("scales per 16"));
    emu::AccumulationModel fp16 = model;
    fp16.output = {core::parse_format("fp16"), core::RoundingMode::NearestEven};
    CHECK_THROWS_WITH(emu::validate(fp16), Catch::Contains("fp32"));
    emu::AccumulationModel e4m3 = model;
    e4m3.x.rounding.format = core::parse_format("fp8_e4m3");
    CHECK_THROWS_WITH(emu::validate(e4m3), Catch::Contains("fp4_e2m1"));
}
