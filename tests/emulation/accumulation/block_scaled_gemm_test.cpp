// block_scaled_gemm's vectorized windows against the scalar instruction chained entry by entry, on adversarial blocks.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "core/codec.hpp"
#include "core/format.hpp"
#include "emulation/accumulation/accumulation_presets.hpp"
#include "emulation/accumulation/block_scaled_fma.hpp"
#include "emulation/accumulation/block_scaled_gemm.hpp"
#include "tests/emulation/accumulation/accumulation_reference.hpp"

using namespace floatscope;

namespace {

/// What a trial's operands stress. The fast path (columns in float and int8 lanes) must take each
/// or hand it to the scalar instruction; the reference path is that instruction for every entry.
enum class Regime {
    Drawn,  ///< element codes of every kind, scales near 1
    ZeroScales,  ///< some blocks at the smallest scale (UE8M0 2^-127; UE4M3 0)
    MaxScales,  ///< some blocks at the largest scale (2^127; 448): sums beyond fp32
    Subnormal,  ///< subnormal elements only, tiny scales: fp32-subnormal D and the group floor
    CDominant,  ///< C far above the products (and just above: the window's boundary)
    Cancellation,  ///< B's columns the negated rows of A, and pairs that cancel within a block
    ScaleSpan,  ///< scales alternating high and far lower: FP4 windows that truncate groups
    Saturated,  ///< every element the format's largest, one sign: the most units a window sums
};

struct Draw {
    const emu::AccumulationModel& model;
    std::mt19937_64 random;

    std::uint64_t below(std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); }

    /// A finite element; `subnormal`: its exponent field 0 (sign and mantissa drawn).
    double element(Regime regime) {
        const core::FormatSpec& f = model.x.rounding.format;
        if (regime == Regime::Saturated) return core::binary_geometry(f).max_finite;
        const bool subnormal = regime == Regime::Subnormal;
        for (;;) {
            const std::uint64_t code =
                subnormal ? (below(2) << (f.total_bits() - 1)) | below(std::uint64_t{1} << f.mantissa_bits)
                          : below(std::uint64_t{1} << f.total_bits());
            const double v = core::decode_bits(f, code).value;
            if (std::isfinite(v)) return v;
        }
    }

    double scale(Regime regime) {
        const bool nvfp4 = model.block_scaling.kind == emu::BlockScaledKind::Nvfp4;
        const std::uint64_t smallest = 0, largest = nvfp4 ? 0x7E : 0xFE;
        std::uint64_t code = nvfp4 ? 0x30 + below(0x10) : 120 + below(16);
        if (regime == Regime::ZeroScales && below(3) == 0) code = smallest;
        if (regime == Regime::MaxScales && below(3) == 0) code = largest;
        if (regime == Regime::Subnormal) code = nvfp4 ? below(0x10) : below(40);
        if (regime == Regime::ScaleSpan)
            code = below(2) ? (nvfp4 ? 0x70 + below(0xE) : 150 + below(30)) : below(nvfp4 ? 0x20 : 100);
        return core::decode_bits(model.block_scaling.scale, code).value;
    }
};

/// D (m x n) by the scalar instruction chained along k for each entry: the reference path.
std::vector<double> chained_instructions(const emu::AccumulationModel& model, const std::vector<double>& a,
                                         const std::vector<double>& sa, const std::vector<double>& b,
                                         const std::vector<double>& sb, const std::vector<double>& c, std::size_t m,
                                         std::size_t k, std::size_t n) {
    const emu::BlockScaledFma instruction(model);
    const auto block = static_cast<std::size_t>(model.block_scaling.scale_block);
    const auto instruction_k = static_cast<std::size_t>(model.block_size);
    const std::size_t blocks = (k + block - 1) / block;
    std::vector<double> d(m * n);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            double acc = c[i * n + j];
            for (std::size_t begin = 0; begin < k; begin += instruction_k) {
                const std::size_t end = std::min(k, begin + instruction_k);
                std::vector<double> row(a.begin() + static_cast<std::ptrdiff_t>(i * k + begin),
                                        a.begin() + static_cast<std::ptrdiff_t>(i * k + end));
                std::vector<double> column, row_scales, column_scales;
                for (std::size_t t = begin; t < end; ++t) column.push_back(b[t * n + j]);
                for (std::size_t s = begin / block; s < (end + block - 1) / block; ++s) {
                    row_scales.push_back(sa[i * blocks + s]);
                    column_scales.push_back(sb[s * n + j]);
                }
                acc = instruction(acc, row, row_scales, column, column_scales);
            }
            d[i * n + j] = acc;
        }
    return d;
}

const char* const block_scaled_presets[] = {
    "nvidia_b200_mxfp8",         "nvidia_b200_mxfp8_e5m2", "nvidia_b200_mxfp6_e2m3", "nvidia_b200_mxfp6_e3m2",
    "nvidia_b200_mxf8f6f4_e2m1", "nvidia_b200_mxfp4",      "nvidia_b200_mxfp4_4x",   "nvidia_b200_nvfp4",
};

}  // namespace

TEST_CASE("block-scaled GEMM's vectorized windows equal the scalar instruction on adversarial blocks") {
    const Regime regimes[] = {Regime::Drawn,     Regime::ZeroScales,   Regime::MaxScales, Regime::Subnormal,
                              Regime::CDominant, Regime::Cancellation, Regime::ScaleSpan, Regime::Saturated};
    for (const char* name : block_scaled_presets) {
        const emu::AccumulationModel& model = emu::find_accumulation_preset(name).model;
        // 70 columns: a whole group of the kernel's and a partial one; k: two instructions and a partial third.
        const std::size_t m = 3, n = 70, k = 2 * static_cast<std::size_t>(model.block_size) + 16;
        const std::size_t blocks = (k + static_cast<std::size_t>(model.block_scaling.scale_block) - 1) /
                                   static_cast<std::size_t>(model.block_scaling.scale_block);
        Draw draw{model, std::mt19937_64(41)};
        for (const Regime regime : regimes)
            for (int trial = 0; trial < 6; ++trial) {
                std::vector<double> a(m * k), b(k * n), sa(m * blocks), sb(blocks * n), c(m * n);
                for (double& v : a) v = draw.element(regime);
                for (double& v : b) v = draw.element(regime);
                for (double& s : sa) s = draw.scale(regime);
                for (double& s : sb) s = draw.scale(regime);
                if (regime == Regime::Cancellation)
                    for (std::size_t t = 0; t < k; ++t) {
                        b[t * n + 2 * static_cast<std::size_t>(trial)] = -a[t];  // a row against its negation
                        if (t % 2 == 1) b[t * n + 1] = b[(t - 1) * n + 1], a[k + t] = -a[k + t - 1];  // pairs
                    }
                for (double& v : c) switch (regime) {
                        case Regime::CDominant:
                            v = std::ldexp(draw.below(2) ? 1.5 : -1.25, static_cast<int>(draw.below(60)) - 10);
                            break;
                        case Regime::Subnormal:
                            v = draw.below(2) ? 0 : 0x1p-140 * static_cast<double>(draw.below(64));
                            break;
                        default:
                            v = draw.below(3) == 0 ? 0 : static_cast<float>(std::ldexp(draw.element(Regime::Drawn), 4));
                    }
                if (trial == 5) a[1] = INFINITY, sb[n + 3] = NAN;  // a row and a column that take the scalar path
                std::vector<double> d(m * n);
                emu::block_scaled_gemm(model, {a, sa}, {b, sb}, d, m, k, n, c);
                const std::vector<double> expected = chained_instructions(model, a, sa, b, sb, c, m, k, n);
                std::size_t differing = 0;
                for (std::size_t e = 0; e < m * n; ++e) {
                    if (test::same_result(d[e], expected[e])) continue;
                    if (differing++ == 0)
                        UNSCOPED_INFO(name << ", regime " << static_cast<int>(regime) << ", trial " << trial
                                           << ", entry " << e << ": " << d[e] << " vs " << expected[e]);
                }
                CHECK(differing == 0);
            }
    }
}
