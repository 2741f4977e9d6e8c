// Test inputs for accumulation models: random families that reach cancellation, overflow and underflow.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/catalog.hpp"
#include "emulation/accumulation/accumulation_model.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"

namespace floatscope::test {

/// Operand pairs of one family, scaled to the model's formats.
struct OperandPair {
    std::string family;
    std::vector<double> x, y;
};

/// Exponent range of a binary or integer format's values, for scaling the families.
inline int format_emin(const core::FormatSpec& f) { return f.kind == core::FormatKind::Binary ? 1 - f.bias : 0; }
inline int format_emax(const core::FormatSpec& f) {
    if (f.kind == core::FormatKind::Binary) return core::binary_geometry(f).emax;
    return f.kind == core::FormatKind::Integer ? f.integer_bits - 2 : 0;
}

/// Families of n operand pairs:
/// - normal: N(0, 1) entries;
/// - spread: random signs, binades spread over the inputs' normal range;
/// - cancel: the second half repeats the first with y negated (exact sum zero);
/// - overflow: positive products near the top of the accumulator's range (fp16 sums reach inf);
/// - underflow: products around the accumulator's smallest normal number;
/// - integers: small integers.
inline std::vector<OperandPair> operand_families(const emu::AccumulationModel& m, std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> unit(1.0, 2.0);
    std::uniform_int_distribution<int> coin(0, 1);
    const int in_emin = std::max(format_emin(m.x.rounding.format), format_emin(m.y.rounding.format));
    const int in_emax = std::min(format_emax(m.x.rounding.format), format_emax(m.y.rounding.format));
    const int acc_emin = format_emin(m.accumulator.format);
    const int acc_emax = format_emax(emu::result_rounding(m).format);
    auto signed_unit = [&] { return coin(rng) ? -unit(rng) : unit(rng); };
    auto spread = [&](int lo, int hi) {
        std::uniform_int_distribution<int> e(lo, std::max(lo, hi));
        return std::ldexp(signed_unit(), e(rng));
    };
    std::vector<OperandPair> families;
    auto family = [&](std::string name, auto make_x, auto make_y) {
        OperandPair p{std::move(name), {}, {}};
        for (std::size_t i = 0; i < n; ++i) {
            p.x.push_back(make_x(i));
            p.y.push_back(make_y(i));
        }
        families.push_back(std::move(p));
    };
    family(
        "normal", [&](std::size_t) { return normal(rng); }, [&](std::size_t) { return normal(rng); });
    family(
        "spread", [&](std::size_t) { return spread(in_emin / 2, in_emax / 2); },
        [&](std::size_t) { return spread(in_emin / 2, in_emax / 2); });
    {
        OperandPair p{"cancel", {}, {}};
        const std::size_t half = n / 2;
        for (std::size_t i = 0; i < n; ++i) {
            if (i < half || i >= 2 * half) {
                p.x.push_back(normal(rng) * 8);
                p.y.push_back(normal(rng));
            } else {
                p.x.push_back(p.x[i - half]);
                p.y.push_back(-p.y[i - half]);
            }
        }
        families.push_back(std::move(p));
    }
    // Products of about 2^(acc_emax - 6): a few dozen of them overflow the accumulator.
    const int top = std::min(acc_emax - 6, 2 * in_emax - 2);
    family(
        "overflow", [&](std::size_t) { return std::ldexp(unit(rng), top / 2); },
        [&](std::size_t) { return std::ldexp(unit(rng), top - top / 2); });
    // Products of about 2^(acc_emin - 3), when the inputs reach that low.
    const int bottom = std::max(acc_emin - 3, 2 * in_emin);
    family(
        "underflow", [&](std::size_t) { return std::ldexp(signed_unit(), bottom / 2); },
        [&](std::size_t) { return std::ldexp(unit(rng), bottom - bottom / 2); });
    std::uniform_int_distribution<int> small(-12, 12);
    family(
        "integers", [&](std::size_t) { return double(small(rng)); }, [&](std::size_t) { return double(small(rng)); });
    return families;
}

/// Every preset, and custom models for the orders and options the presets do not use.
inline std::vector<std::pair<std::string, emu::AccumulationModel>> models_under_test() {
    std::vector<std::pair<std::string, emu::AccumulationModel>> models;
    for (const auto& preset : emu::accumulation_presets()) models.emplace_back(preset.name, preset.model);
    auto parse = [](const char* name, core::RoundingMode mode = core::RoundingMode::NearestEven) {
        return core::FormatRounding{core::parse_format(name), mode};
    };
    auto base = [&](const char* input, const char* accumulator,
                    core::RoundingMode mode = core::RoundingMode::NearestEven) {
        emu::AccumulationModel m;
        m.x.rounding = parse(input);
        m.y.rounding = m.x.rounding;
        m.accumulator = parse(accumulator, mode);
        m.output = parse(accumulator);
        return m;
    };
    {
        auto m = base("fp32", "fp32");
        m.multiply_add = emu::MultiplyAdd::Separate;
        m.product = parse("fp32");
        models.emplace_back("fp32 mul+add", m);
    }
    {
        auto m = base("bf16", "fp32");
        m.order = emu::AccumulationOrder::Blocked;
        m.block_size = 5;
        m.combine = parse("fp32");
        models.emplace_back("bf16 blocked 5", m);
    }
    {
        auto m = base("fp16", "fp16");
        m.multiply_add = emu::MultiplyAdd::Separate;
        m.product = parse("fp16");
        models.emplace_back("fp16 mul+add", m);
    }
    {
        auto m = base("fp16", "fp16");
        m.order = emu::AccumulationOrder::Blocked;
        m.block_size = 16;
        m.combine = parse("fp16");
        models.emplace_back("fp16 blocked 16 in fp16", m);
    }
    models.emplace_back("fp8_e5m2 into bf16 rtz", base("fp8_e5m2", "bf16", core::RoundingMode::TowardZero));
    models.emplace_back("fp16 into fp16 rup", base("fp16", "fp16", core::RoundingMode::Upward));
    models.emplace_back("fp16 into fp16 rdn", base("fp16", "fp16", core::RoundingMode::Downward));
    models.emplace_back("bf16 into bf16 rto", base("bf16", "bf16", core::RoundingMode::ToOdd));
    models.emplace_back("fp32 into fp32 rtz", base("fp32", "fp32", core::RoundingMode::TowardZero));
    {
        auto m = base("fp16", "fp16");
        m.compensated = true;
        models.emplace_back("fp16 kahan", m);
    }
    {
        auto m = base("bf16", "bf16");
        m.multiply_add = emu::MultiplyAdd::Separate;
        m.product = parse("bf16");
        m.compensated = true;
        m.order = emu::AccumulationOrder::Blocked;
        m.block_size = 32;
        m.combine = parse("fp32");
        models.emplace_back("bf16 mul+add kahan blocked", m);
    }
    {
        auto m = base("bf16", "bf16");
        m.order = emu::AccumulationOrder::Pairwise;
        models.emplace_back("bf16 pairwise", m);
    }
    {
        auto m = base("fp16", "fp32");
        m.order = emu::AccumulationOrder::Pairwise;
        models.emplace_back("fp16 pairwise into fp32", m);
    }
    {
        auto m = base("fp32", "fp32");
        m.compensated = true;
        models.emplace_back("fp32 kahan", m);
    }
    {
        auto m = base("bf16", "fp32");
        m.multiply_add = emu::MultiplyAdd::Separate;
        m.product = parse("fp32");
        m.compensated = true;
        m.order = emu::AccumulationOrder::Blocked;
        m.block_size = 10;
        m.combine = parse("fp32");
        models.emplace_back("bf16 mul+add kahan blocked into fp32", m);
    }
    {
        auto m = base("bf16", "fp32");
        m.order = emu::AccumulationOrder::Pairwise;
        models.emplace_back("bf16 pairwise into fp32 (products beyond float)", m);
        m.multiply_add = emu::MultiplyAdd::Separate;
        m.product = parse("fp32");
        models.emplace_back("bf16 mul+add pairwise into fp32", m);
    }
    {
        auto m = emu::tensor_core_model("bf16", core::RoundingMode::NearestEven, 3, 3);
        m.output = parse("bf16");
        models.emplace_back("block fma 3, 3 extra bits, bf16 output", m);
    }
    models.emplace_back("scaled fp8", emu::fp8_promoted_model("fp8_e4m3", 10, 48, 0.0078125f * 3, 5.5f));
    {
        auto m = base("fp8_e4m3", "fp16");
        m.x.scale = 0.75;
        m.y.scale = 448;
        models.emplace_back("scaled fp8 into fp16", m);
    }
    {
        auto m = base("int8", "int16");
        m.order = emu::AccumulationOrder::Pairwise;
        models.emplace_back("int8 pairwise into int16", m);
    }
    // Inputs beyond 26 bits (wide_inputs): products of up to 106 bits, exact, in every order that
    // takes them; fp64 with rne takes the native binary64 kernels, the rest the scalar path.
    models.emplace_back("fp64", base("fp64", "fp64"));
    {
        auto m = base("fp64", "fp64");
        m.multiply_add = emu::MultiplyAdd::Separate;
        m.product = parse("fp64");
        models.emplace_back("fp64 mul+add", m);
        m.order = emu::AccumulationOrder::Pairwise;
        models.emplace_back("fp64 mul+add pairwise", m);
    }
    {
        auto m = base("fp64", "fp64");
        m.compensated = true;
        models.emplace_back("fp64 kahan", m);
        m.order = emu::AccumulationOrder::Blocked;
        m.block_size = 7;
        m.combine = parse("fp64");
        models.emplace_back("fp64 kahan blocked 7", m);
        m.compensated = false;
        models.emplace_back("fp64 blocked 7", m);
        m.block_order = emu::AccumulationOrder::Pairwise;
        m.accumulator = parse("fp16");
        m.combine = parse("fp32");
        models.emplace_back("fp64 pairwise blocks of 7 into fp16, combined in fp32", m);
    }
    {
        auto m = base("fp64", "fp64");
        m.order = emu::AccumulationOrder::Pairwise;
        models.emplace_back("fp64 pairwise", m);
        m.accumulator = parse("bf16", core::RoundingMode::Downward);
        models.emplace_back("fp64 pairwise into bf16 rdn", m);
    }
    {
        auto m = base("fp32", "fp64");
        m.order = emu::AccumulationOrder::Pairwise;
        models.emplace_back("fp32 pairwise into fp64", m);
    }
    models.emplace_back("fp64 into fp32", base("fp64", "fp32"));
    models.emplace_back("fp64 into fp64 rtz", base("fp64", "fp64", core::RoundingMode::TowardZero));
    {
        auto m = base("fp64", "fp64", core::RoundingMode::Upward);
        m.compensated = true;
        models.emplace_back("fp64 kahan rup", m);
    }
    {
        auto m = base("int32", "fp64");
        m.output = parse("fp32");
        models.emplace_back("int32 into fp64, fp32 output", m);
    }
    return models;
}

}  // namespace floatscope::test
