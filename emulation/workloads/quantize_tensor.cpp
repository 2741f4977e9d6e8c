// quantize: one tensor in every quantization scheme side by side, against the unquantized tensor.
#include <cmath>
#include <numbers>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/ground_truth.hpp"
#include "emulation/quantize/block_format.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/integer_quantizer.hpp"
#include "emulation/quantize/packing.hpp"
#include "emulation/quantize/quantization_metrics.hpp"
#include "emulation/workloads/builtin_workloads.hpp"
#include "emulation/workloads/random_values.hpp"
#include "emulation/workloads/seeded_random.hpp"

namespace floatscope::emu {

namespace {

constexpr std::size_t max_values = std::size_t{1} << 20;

/// The schemes of the `schemes` parameter: "intN" (symmetric, one FP32 scale per row, max
/// calibration) or any block format name (block_format.hpp).
std::vector<std::string> scheme_names(const std::string& text) {
    std::vector<std::string> names;
    std::stringstream stream(text);
    std::string name;
    while (std::getline(stream, name, ',')) {
        if (name.empty()) throw Error("quantize: empty scheme name in '" + text + "'");
        names.push_back(name);
    }
    if (names.empty()) throw Error("quantize: no schemes given");
    return names;
}

bool is_integer_scheme(const std::string& name) { return name.starts_with("int"); }

IntegerQuantizerConfig integer_config(const std::string& name) {
    IntegerQuantizerConfig config;
    const std::string digits = name.substr(3);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 2)
        throw Error("quantize: scheme '" + name + "' is not intN (N in 2..8 or 16) or a block format (" +
                    fmt::format("{}", fmt::join(block_format_names(), ", ")) + ")");
    config.bits = std::stoi(digits);
    config.granularity = Granularity::PerRow;
    return config;
}

/// The tensor (rows x cols, row-major) as floats: what a model would store.
std::vector<float> make_tensor(const Parameters& p) {
    const auto rows = static_cast<std::size_t>(p.integer("rows"));
    const auto cols = static_cast<std::size_t>(p.integer("cols"));
    const std::string& distribution = p.text("distribution");
    SeededRandom random(static_cast<std::uint64_t>(p.integer("seed")));
    std::vector<float> x(rows * cols);
    const auto dof = static_cast<int>(p.integer("dof"));
    for (float& v : x) {
        double value = 0;
        if (distribution == "laplace") {
            // Inverse CDF of the unit Laplace: u uniform on (-1/2, 1/2), -sign(u) log(1 - 2|u|).
            const double u = random.uniform() - 0.5;
            value = -std::copysign(std::log(1 - 2 * std::fabs(u)), u);
        } else if (distribution == "student-t") {
            // Z / sqrt(V / nu) with V a sum of nu squared normals (chi-square with nu degrees).
            const double z = random.normal();
            double chi_square = 0;
            for (int k = 0; k < dof; ++k) {
                const double n = random.normal();
                chi_square += n * n;
            }
            value = z / std::sqrt(chi_square / dof);
        } else {
            value = random.normal();
        }
        v = static_cast<float>(value);
    }
    if (distribution == "outlier-channels") {
        // LLM-style activations: a few columns (channels) many times larger than the rest.
        const auto count = static_cast<std::size_t>(std::ceil(p.real("outlier-fraction") * static_cast<double>(cols)));
        const auto scale = static_cast<float>(p.real("outlier-scale"));
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t c = random.below(cols);
            for (std::size_t r = 0; r < rows; ++r) x[r * cols + c] *= scale;
        }
    }
    return x;
}

class QuantizeTensor final : public Workload {
public:
    std::string name() const override { return "quantize"; }
    std::string summary() const override {
        return "one tensor in INT-n, NF4, bitsandbytes FP4, OCP MX and NVFP4 side by side: error, clipping, bits";
    }
    std::string help() const override {
        return "Draws a rows x cols tensor (standard normal, unit Laplace, Student-t with `dof` degrees of "
               "freedom, or normal with a fraction of columns scaled up: outlier channels), stores it as "
               "floats, and quantizes and dequantizes it with each scheme of `schemes`: intN (symmetric, one "
               "FP32 scale per row, scale = row max / (2^(N-1) - 1)), nf4 and bnb_fp4 (bitsandbytes blockwise "
               "absmax, ':dq' for double quantization), mxfp8_e4m3 mxfp8_e5m2 mxfp6_e2m3 mxfp6_e3m2 mxfp4 "
               "mxint8 (OCP MX v1.0, ':ceil' for the round-up scale, ':rna' for the reference emulator's "
               "rounding) and nvfp4 (Transformer Engine's recipe). One region (kind 'scheme') per scheme "
               "holds the dequantized tensor, with the metrics mse, sqnr_db, max_abs_error, "
               "relative_frobenius, fraction_clipped, fraction_flushed and bits_per_value (storage including "
               "scales). The policy's formats are not used: the schemes are the comparison. The ground "
               "truth of every region is the unquantized tensor, exactly.";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"distribution", ParameterType::Choice, "normal", 0, 0,
             {"normal", "laplace", "student-t", "outlier-channels"}, "the distribution of the tensor's values"},
            {"rows", ParameterType::Integer, "256", 1, 65536, {}, "rows (output channels) of the tensor"},
            {"cols", ParameterType::Integer, "256", 1, 65536, {}, "columns (input channels); rows * cols <= 2^20"},
            {"dof", ParameterType::Integer, "3", 1, 100, {}, "Student-t degrees of freedom (heavier tails when small)"},
            {"outlier-fraction", ParameterType::Real, "0.01", 0, 1, {}, "outlier-channels: fraction of columns scaled"},
            {"outlier-scale", ParameterType::Real, "20", 1, 1e6, {}, "outlier-channels: their scale factor"},
            {"schemes", ParameterType::Text,
             "int8,int4,nf4,nf4:dq,bnb_fp4,mxfp8_e4m3,mxfp8_e5m2,mxfp6_e2m3,mxfp6_e3m2,mxfp4,mxint8,nvfp4", 0, 0, {},
             "comma-separated schemes: intN or block format names with modifiers"},
            {"seed", ParameterType::Integer, "1", 0, 9007199254740991.0, {},
             "seed of the tensor and of stochastic rounding"},
        };
        return schema;
    }

    void check(const Parameters& parameters) const override {
        const auto count = static_cast<std::size_t>(parameters.integer("rows") * parameters.integer("cols"));
        if (count > max_values)
            throw Error(fmt::format("quantize: rows * cols = {} values; at most {} (2^20)", count, max_values));
        for (const std::string& name : scheme_names(parameters.text("schemes"))) {
            if (is_integer_scheme(name)) {
                validate(integer_config(name));
            } else {
                parse_block_format(name);
            }
        }
    }

    void run(const Parameters& parameters, const PrecisionPolicy&, Trace& trace, RunControl& control) const override {
        check(parameters);
        const std::vector<float> x = make_tensor(parameters);
        const auto rows = static_cast<std::size_t>(parameters.integer("rows"));
        const auto cols = static_cast<std::size_t>(parameters.integer("cols"));
        core::StochasticSource random(rounding_seed(static_cast<std::uint64_t>(parameters.integer("seed"))));
        const std::vector<std::string> names = scheme_names(parameters.text("schemes"));
        const core::FormatSpec fp32 = core::parse_format("fp32");
        std::vector<float> out(x.size());
        for (std::size_t s = 0; s < names.size(); ++s) {
            const std::string& name = names[s];
            std::size_t clipped = 0;
            double bits = 0;
            if (is_integer_scheme(name)) {
                const IntegerQuantizerConfig config = integer_config(name);
                const IntegerQuantized q = quantize_integer(config, x, rows, cols, &random);
                dequantize_integer(q, out);
                clipped = count_clipped(q, x);
                // Codes plus one FP32 scale per row.
                bits = config.bits + 32.0 * static_cast<double>(rows) / static_cast<double>(x.size());
            } else {
                const BlockFormat format = parse_block_format(name);
                const BlockQuantized q = quantize_blocks(format, x, &random);
                dequantize_blocks(q, out);
                clipped = count_clipped(q, x);
                bits = static_cast<double>(storage_bits(format, x.size())) / static_cast<double>(x.size());
            }
            TraceRegion& region = trace.add_region("scheme", static_cast<int>(s), name, fp32);
            region.values.assign(out.begin(), out.end());
            const QuantizationError e = measure_quantization_error(x, out, clipped);
            region.metrics = {{"mse", e.mse},
                              {"sqnr_db", e.sqnr_db},
                              {"max_abs_error", e.max_abs_error},
                              {"relative_frobenius", e.relative_frobenius},
                              {"fraction_clipped", e.fraction_clipped},
                              {"fraction_flushed", e.fraction_flushed},
                              {"bits_per_value", bits}};
            control.checkpoint(static_cast<double>(s + 1) / static_cast<double>(names.size()), name);
        }
    }

    void run_ground_truth(const Parameters& parameters, int precision, TruthTrace& truth,
                          RunControl& control) const override {
        const std::vector<float> x = make_tensor(parameters);
        const std::vector<TruthNumber> exact = to_truth(std::vector<double>(x.begin(), x.end()), precision);
        const std::vector<std::string> names = scheme_names(parameters.text("schemes"));
        for (std::size_t s = 0; s < names.size(); ++s) {
            truth.add_region("scheme", static_cast<int>(s), names[s]).values = exact;
            control.checkpoint(static_cast<double>(s + 1) / static_cast<double>(names.size()), names[s]);
        }
    }
};

}  // namespace

const Workload& quantize_workload() {
    static const QuantizeTensor workload;
    return workload;
}

}  // namespace floatscope::emu
