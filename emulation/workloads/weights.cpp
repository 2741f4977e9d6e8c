// weights: a real checkpoint (safetensors or GGUF) quantized tensor by tensor with each scheme: the
// error of every tensor, and the memory the model needs under each scheme beside fp32, bf16, fp16.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fnmatch.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "emulation/quantize/quantization_metrics.hpp"
#include "emulation/quantize/quantization_scheme.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/weights/checkpoint.hpp"
#include "emulation/weights/llama_names.hpp"
#include "emulation/weights/tensor_difference.hpp"
#include "emulation/workloads/data/random_values.hpp"
#include "emulation/workloads/registry.hpp"

namespace floatscope::emu {

namespace {

/// Bytes one sampled value holds while its tensor is analysed: the exact value (double), the
/// quantizers' float input and output, their codes and scales.
constexpr double bytes_per_sampled_value = 8 + 4 + 4 + 4;

/// Tensors the schemes leave alone (norms, biases) count at 16 bits, as deployments keep them.
constexpr int unquantized_bits = 16;

struct Reference {
    const char* name;
    int bits;
};
/// The seed's memory table: 4 bytes per parameter in fp32, 2 in bf16 and fp16.
constexpr Reference references[] = {{"fp32", 32}, {"bf16", 16}, {"fp16", 16}};

std::vector<QuantizationScheme> schemes_of(const Parameters& p) {
    return parse_scheme_list(p.text("schemes"), "weights");
}

/// Whether `name` matches one of the comma-separated shell globs of `patterns`.
bool matches(std::string_view patterns, const std::string& name) {
    std::size_t start = 0;
    while (start <= patterns.size()) {
        const std::size_t comma = std::min(patterns.find(',', start), patterns.size());
        const std::string glob(patterns.substr(start, comma - start));
        if (!glob.empty() && ::fnmatch(glob.c_str(), name.c_str(), 0) == 0) return true;
        start = comma + 1;
    }
    return false;
}

/// A tensor the schemes quantize: its rows (all dimensions but the last) and the leading rows sampled.
struct Selected {
    const WeightTensor* tensor = nullptr;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    std::uint64_t sampled_rows = 0;

    std::uint64_t sampled_values() const { return sampled_rows * cols; }
};

/// Tensors of two dimensions or more whose name matches `tensors`, in the checkpoint's order.
std::vector<Selected> select(const Checkpoint& c, const Parameters& p) {
    const auto cap = static_cast<std::uint64_t>(p.integer("max-values"));
    std::vector<Selected> selected;
    for (const WeightTensor& t : c.tensors) {
        if (t.shape.size() < 2 || t.count == 0 || !matches(p.text("tensors"), t.name)) continue;
        Selected s{&t, t.rows(), t.row_length(), t.rows()};
        if (cap > 0) s.sampled_rows = std::clamp<std::uint64_t>(cap / s.cols, 1, s.rows);
        selected.push_back(s);
    }
    if (selected.empty()) {
        std::string names;
        for (std::size_t i = 0; i < c.tensors.size() && i < 8; ++i) names += (i ? ", " : "") + c.tensors[i].name;
        throw Error(
            fmt::format("weights: no tensor of 2 or more dimensions in '{}' matches tensors='{}' (its tensors: "
                        "{}{})",
                        c.path, p.text("tensors"), names, c.tensors.size() > 8 ? ", ..." : ""));
    }
    return selected;
}

Checkpoint open_model(const Parameters& p) {
    const std::string& model = p.text("model");
    if (model.empty())
        throw Error(
            "weights: give the checkpoint with --set model=FILE|DIR (.safetensors, .gguf, "
            "model.safetensors.index.json or a directory of shards)");
    return open_checkpoint(model);
}

/// A selected tensor's version in the reference: the tensor, and where the rows are in another
/// order (llama.cpp's Q and K projections against Hugging Face's), the reference row of each model row.
struct Counterpart {
    const WeightTensor* tensor = nullptr;  ///< nullptr: the reference has none
    std::uint64_t heads = 0;  ///< 0: the same row order; else the heads of llama.cpp's permutation
    bool model_is_gguf = false;  ///< which side holds llama.cpp's row order

    std::uint64_t reference_row(std::uint64_t model_row, std::uint64_t rows) const {
        if (heads == 0) return model_row;
        return model_is_gguf ? hf_row_of_gguf_row(model_row, rows, heads) : gguf_row_of_hf_row(model_row, rows, heads);
    }
};

/// The text of GGUF metadata `key` of `c`; throws naming the tensor and the key when it is missing.
const std::string& metadata_value(const Checkpoint& c, const std::string& key, const std::string& tensor) {
    const auto at = std::find_if(c.metadata.begin(), c.metadata.end(), [&](const auto& kv) { return kv.first == key; });
    if (at == c.metadata.end())
        throw Error(
            fmt::format("weights: tensor '{}' of '{}' holds llama.cpp's permuted rows; undoing that needs the "
                        "metadata key '{}', which the file lacks",
                        tensor, c.path, key));
    return at->second;
}

/// The heads llama.cpp's converter permuted the rows of `gguf_tensor` (attn_q or attn_k) with, from its
/// file's metadata: {general.architecture}.attention.head_count (Q) or .head_count_kv (K).
/// The permutation is llama.cpp's LlamaModel's (general.architecture "llama": Llama, and Mistral
/// and others converted as it); other architectures are compared in their stored order, 0, which
/// has not been checked against each converter.
std::uint64_t permutation_heads(const Checkpoint& gguf, const WeightTensor& gguf_tensor, LlamaRowOrder order) {
    const std::string& architecture = metadata_value(gguf, "general.architecture", gguf_tensor.name);
    if (architecture != "llama") return 0;
    const std::string key =
        architecture + (order == LlamaRowOrder::Query ? ".attention.head_count" : ".attention.head_count_kv");
    const std::string& text = metadata_value(gguf, key, gguf_tensor.name);
    std::uint64_t heads = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), heads);
    if (error != std::errc() || end != text.data() + text.size() || heads == 0)
        throw Error(fmt::format("weights: tensor '{}' of '{}': metadata '{}' is '{}', not a positive head count",
                                gguf_tensor.name, gguf.path, key, text));
    if (gguf_tensor.rows() % (2 * heads) != 0)
        throw Error(fmt::format("weights: tensor '{}' of '{}': its {} rows are not {} heads of an even head size ({})",
                                gguf_tensor.name, gguf.path, gguf_tensor.rows(), heads, key));
    return heads;
}

/// With `reference`: the reference checkpoint's tensor of each selected tensor's name, else, where it
/// has none of that name, of its Llama name in the other naming (Hugging Face's or llama.cpp's GGUF
/// names, with the Q/K rows in llama.cpp's order); its shape must be the same. Throws when no tensor
/// has a counterpart.
std::vector<Counterpart> counterparts(const std::vector<Selected>& selected, const Checkpoint& model,
                                      const Checkpoint& reference) {
    std::map<std::string, const WeightTensor*> by_name;
    for (const WeightTensor& t : reference.tensors) by_name[t.name] = &t;
    std::vector<Counterpart> found;
    bool any = false;
    for (const Selected& s : selected) {
        Counterpart c;
        auto at = by_name.find(s.tensor->name);
        std::optional<LlamaCounterpart> mapped;
        if (at == by_name.end() && (mapped = llama_counterpart(s.tensor->name))) at = by_name.find(mapped->name);
        c.tensor = at == by_name.end() ? nullptr : at->second;
        if (c.tensor == nullptr) mapped.reset();
        if (c.tensor != nullptr && c.tensor->shape != s.tensor->shape)
            throw Error(fmt::format(
                "weights: tensor '{}' has shape [{}] in the model, [{}] in the reference '{}'{}", s.tensor->name,
                fmt::join(s.tensor->shape, ", "), fmt::join(c.tensor->shape, ", "), reference.path,
                mapped ? fmt::format(" (as '{}', its name there)", c.tensor->name) : std::string()));
        if (mapped && mapped->rows != LlamaRowOrder::Same) {
            // The GGUF side is the one whose name starts "blk.".
            c.model_is_gguf = s.tensor->name.starts_with("blk.");
            c.heads = c.model_is_gguf ? permutation_heads(model, *s.tensor, mapped->rows)
                                      : permutation_heads(reference, *c.tensor, mapped->rows);
        }
        found.push_back(c);
        any = any || c.tensor != nullptr;
    }
    if (!any)
        throw Error(
            fmt::format("weights: the reference '{}' holds none of the tensors selected from the model (its "
                        "tensors are named apart: '{}' ...)",
                        reference.path, reference.tensors.empty() ? "" : reference.tensors.front().name));
    return found;
}

/// Rows whose largest |x| exceeds `factor` times the median over rows of the largest |x|: the few
/// channels on which a per-tensor or per-block scale spends its range (a row of a weight stored
/// out x in is an output channel; LLM.int8() and SmoothQuant describe such channels in activations).
std::uint64_t outlier_rows(std::span<const double> x, std::uint64_t rows, std::uint64_t cols, double factor) {
    std::vector<double> row_max(rows, 0);
    for (std::uint64_t r = 0; r < rows; ++r)
        for (std::uint64_t j = 0; j < cols; ++j) row_max[r] = std::max(row_max[r], std::fabs(x[r * cols + j]));
    std::vector<double> sorted = row_max;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(rows / 2), sorted.end());
    const double median = sorted[rows / 2];
    return static_cast<std::uint64_t>(
        std::count_if(row_max.begin(), row_max.end(), [&](double m) { return m > factor * median; }));
}

class Weights final : public Workload {
public:
    std::string name() const override { return "weights"; }
    std::string summary() const override {
        return "a safetensors or GGUF checkpoint quantized tensor by tensor with each scheme: error per tensor, the "
               "model's bytes per scheme beside fp32/bf16/fp16";
    }
    std::string help() const override {
        return "Reads the checkpoint `model` through a memory mapping: a .safetensors file (F64 F32 F16 BF16 I8 U8 "
               "F8_E4M3 F8_E5M2 F8_E8M0 F4), a sharded model (its model.safetensors.index.json, or the directory "
               "holding it) or a GGUF file (F32 F16 BF16 and the blocks Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 MXFP4, decoded "
               "exactly). Every tensor of 2 or more dimensions whose name matches `tensors` (shell globs, comma-"
               "separated) is taken as rows (all dimensions but the last) x columns, its leading rows up to "
               "`max-values` values (0: all), and quantized and dequantized with each scheme of `schemes`, as the "
               "quantize workload does: one region (kind 'tensor') per tensor and scheme with mse, sqnr_db, "
               "max_abs_error, relative_frobenius (the normwise relative error), fraction_clipped, clipped_count, "
               "fraction_flushed, flushed_count, bits_per_value, parameter_count, sampled_values and "
               "outlier_channels (rows whose largest |x| exceeds outlier-factor times the median row's). One "
               "region (kind 'model') per scheme, then one each for fp32, bf16 and fp16, holds model_bytes and "
               "bits_per_value of the whole checkpoint: the quantized tensors at their exact storage (element "
               "codes, scales; intN: one FP32 scale per row), every other tensor at 16 bits. With `reference` (a "
               "second "
               "checkpoint, e.g. the same model as another quantizer wrote it), one region (kind 'reference') per "
               "tensor it holds under the same name, else under the tensor's Llama name in the other naming (Hugging "
               "Face's model.layers.N.self_attn.q_proj.weight, llama.cpp's GGUF blk.N.attn_q.weight, ...; the Q and K "
               "rows put back from llama.cpp's order with the GGUF file's attention.head_count and head_count_kv), "
               "labelled 'MODEL ~ REFERENCE' (the same shape, else an error), compares the model's values "
               "with the reference's: differing_values, differing_blocks of block_count (reference-block values "
               "along a row), ulp_difference_max (in ulps of the reference's element format, where it has one per "
               "value: not for ggml blocks), sqnr_db, relative_frobenius, max_abs_error. The ground truth is "
               "the decoded tensor itself, exact in double; the policy's formats are not used (without --formats or "
               "--policy it runs once, under fp32).";
    }
    const std::vector<ParameterSpec>& parameters() const override {
        static const std::vector<ParameterSpec> schema = {
            {"model",
             ParameterType::Text,
             "",
             0,
             0,
             {},
             "the checkpoint: .safetensors, .gguf, an index or a directory"},
            {"schemes",
             ParameterType::Text,
             "int8,int4,nf4,nf4:dq,bnb_fp4,mxfp8_e4m3,mxfp6_e2m3,mxfp4,mxint8,nvfp4",
             0,
             0,
             {},
             "comma-separated schemes, as the quantize workload takes them"},
            {"tensors", ParameterType::Text, "*", 0, 0, {}, "tensor names to quantize: comma-separated shell globs"},
            {"max-values",
             ParameterType::Integer,
             "0",
             0,
             9007199254740991.0,
             {},
             "values sampled per tensor, its leading rows (at least one); 0: all"},
            {"outlier-factor",
             ParameterType::Real,
             "6",
             1,
             1e6,
             {},
             "a row is an outlier channel when its largest |x| exceeds this times the median row's"},
            {"seed", ParameterType::Integer, "1", 0, 9007199254740991.0, {}, "seed of stochastic rounding"},
            {"reference",
             ParameterType::Text,
             "",
             0,
             0,
             {},
             "a second checkpoint: where its tensors of the same names (or Llama's Hugging Face/GGUF names) differ "
             "from the model's"},
            {"reference-block",
             ParameterType::Integer,
             "32",
             1,
             65536,
             {},
             "reference: values per block along a row in the differing_blocks count"},
        };
        return schema;
    }

    bool has_ground_truth() const override { return false; }
    bool uses_policy() const override { return false; }

    void check(const Parameters& parameters) const override {
        schemes_of(parameters);
        const Checkpoint c = open_model(parameters);
        const std::vector<Selected> selected = select(c, parameters);
        std::uint64_t largest = 0;
        const WeightTensor* which = nullptr;
        // The mapped pages a run reads stay resident while the checkpoint is open: every selected
        // tensor's sampled bytes (and as many of the reference's).
        double mapped = 0;
        for (const Selected& s : selected) {
            if (s.sampled_values() > largest) largest = s.sampled_values(), which = s.tensor;
            mapped += static_cast<double>(s.tensor->data.size()) * static_cast<double>(s.sampled_values()) /
                      static_cast<double>(s.tensor->count);
        }
        const bool compared = !parameters.text("reference").empty();
        if (compared) counterparts(selected, c, open_checkpoint(parameters.text("reference")));
        // A reference adds its tensor's values in double.
        core::require_memory(
            fmt::format("weights: tensor '{}' ({} values; max-values samples fewer)", which->name, largest),
            static_cast<double>(largest) * (bytes_per_sampled_value + (compared ? 8 : 0)) +
                (compared ? 2 : 1) * mapped);
    }

    void run(const Parameters& parameters, const PrecisionPolicy&, Trace& trace, RunControl& control) const override {
        check(parameters);
        const Checkpoint c = open_model(parameters);
        const std::vector<QuantizationScheme> schemes = schemes_of(parameters);
        const std::vector<Selected> selected = select(c, parameters);
        core::StochasticSource random(rounding_seed(static_cast<std::uint64_t>(parameters.integer("seed"))));
        const core::FormatSpec fp32 = core::parse_format("fp32");
        // Storage of the whole model per scheme: every tensor at 16 bits, then the quantized ones replaced.
        const std::uint64_t parameters_total = c.parameter_count();
        std::vector<double> model_bits(schemes.size(), static_cast<double>(parameters_total) * unquantized_bits);
        std::optional<Checkpoint> reference;
        std::vector<Counterpart> reference_of;
        if (!parameters.text("reference").empty()) {
            reference = open_checkpoint(parameters.text("reference"));
            reference_of = counterparts(selected, c, *reference);
        }
        // Over the sampled values of every tensor: sum x^2, and per scheme sum (q - x)^2, for the
        // model's SQNR and relative error (the decision plot's y).
        double signal = 0;
        std::vector<double> noise(schemes.size(), 0.0);
        std::vector<std::size_t> measured(schemes.size(), 0), nan_values(schemes.size(), 0);
        std::vector<double> truth;
        std::vector<double> other;
        std::vector<float> x;
        std::vector<float> out;
        for (std::size_t i = 0; i < selected.size(); ++i) {
            const Selected& s = selected[i];
            const WeightTensor& t = *s.tensor;
            const auto n = static_cast<std::size_t>(s.sampled_values());
            truth.resize(n);
            decode_elements(t, 0, truth);
            x.assign(truth.begin(), truth.end());
            out.resize(n);
            for (double v : truth)
                if (!std::isnan(v)) signal += v * v;
            const auto outliers =
                static_cast<double>(outlier_rows(truth, s.sampled_rows, s.cols, parameters.real("outlier-factor")));
            for (std::size_t k = 0; k < schemes.size(); ++k) {
                const QuantizationScheme& scheme = schemes[k];
                const FakeQuantization f = fake_quantize(scheme, x, s.sampled_rows, s.cols, out, &random);
                const QuantizationError e = measure_quantization_error(truth, out, f.clipped);
                TraceRegion& region = trace.add_region("tensor", static_cast<int>(i * schemes.size() + k),
                                                       fmt::format("{} [{}]", t.name, scheme.name), fp32);
                region.metrics = {{metric::mse, e.mse},
                                  {metric::sqnr_db, e.sqnr_db},
                                  {metric::max_abs_error, e.max_abs_error},
                                  {metric::relative_frobenius, e.relative_frobenius},
                                  {metric::fraction_clipped, e.fraction_clipped},
                                  {metric::clipped_count, static_cast<double>(f.clipped)},
                                  {metric::fraction_flushed, e.fraction_flushed},
                                  {metric::flushed_count, static_cast<double>(e.flushed)},
                                  {metric::nan_values, static_cast<double>(e.nan_values)},
                                  {metric::bits_per_value, f.bits_per_value},
                                  {metric::parameter_count, static_cast<double>(t.count)},
                                  {metric::sampled_values, static_cast<double>(n)},
                                  {metric::outlier_channels, outliers}};
                if (e.count > 0) noise[k] += e.mse * static_cast<double>(e.count);
                measured[k] += e.count;
                nan_values[k] += e.nan_values;
                model_bits[k] += static_cast<double>(scheme_storage_bits(scheme, s.rows, s.cols)) -
                                 static_cast<double>(t.count) * unquantized_bits;
            }
            if (reference && reference_of[i].tensor != nullptr) {
                const Counterpart& r = reference_of[i];
                other.resize(n);
                if (r.heads == 0) {
                    decode_elements(*r.tensor, 0, other);
                } else {
                    for (std::uint64_t row = 0; row < s.sampled_rows; ++row)
                        decode_elements(*r.tensor, r.reference_row(row, s.rows) * s.cols,
                                        std::span(other).subspan(row * s.cols, s.cols));
                }
                const std::string label =
                    r.tensor->name == t.name ? t.name : fmt::format("{} ~ {}", t.name, r.tensor->name);
                add_difference(trace, i, label, truth, other, s.cols, *r.tensor, parameters);
            }
            control.checkpoint(static_cast<double>(i + 1) / static_cast<double>(selected.size()), t.name);
        }
        const auto add_model = [&](std::size_t index, const std::string& label, double bits) {
            trace.add_region("model", static_cast<int>(index), label, fp32).metrics = {
                {metric::model_bytes, bits / 8},
                {metric::bits_per_value, bits / static_cast<double>(parameters_total)},
                {metric::parameter_count, static_cast<double>(parameters_total)}};
        };
        for (std::size_t k = 0; k < schemes.size(); ++k) {
            add_model(k, schemes[k].name, model_bits[k]);
            // The whole model's error over what was measured (as quantize defines them per tensor).
            std::vector<RegionMetric>& metrics = trace.regions().back().metrics;
            // Nothing measured (every value NaN) is NaN, not a perfect score.
            const double nothing = std::numeric_limits<double>::quiet_NaN();
            metrics.push_back({metric::sqnr_db, measured[k] == 0 ? nothing
                                                : noise[k] > 0   ? 10 * std::log10(signal / noise[k])
                                                                 : std::numeric_limits<double>::infinity()});
            metrics.push_back({metric::relative_frobenius, measured[k] == 0 ? nothing
                                                           : signal > 0     ? std::sqrt(noise[k] / signal)
                                                                            : 0.0});
            metrics.push_back({metric::nan_values, static_cast<double>(nan_values[k])});
        }
        for (std::size_t r = 0; r < std::size(references); ++r)
            add_model(schemes.size() + r, references[r].name,
                      static_cast<double>(parameters_total) * references[r].bits);
    }

private:
    /// One region (kind 'reference') per tensor the reference holds: the model's values against it.
    static void add_difference(Trace& trace, std::size_t index, const std::string& name, std::span<const double> values,
                               std::span<const double> reference, std::uint64_t cols,
                               const WeightTensor& reference_tensor, const Parameters& parameters) {
        const TensorDifference d =
            tensor_difference(values, reference, cols,
                              static_cast<std::uint64_t>(parameters.integer("reference-block")), reference_tensor);
        const QuantizationError e = measure_quantization_error(reference, values);
        TraceRegion& region = trace.add_region("reference", static_cast<int>(index), name, core::parse_format("fp64"));
        region.metrics = {{metric::differing_values, static_cast<double>(d.differing_values)},
                          {metric::differing_blocks, static_cast<double>(d.differing_blocks)},
                          {metric::block_count, static_cast<double>(d.blocks)},
                          {metric::sqnr_db, e.sqnr_db},
                          {metric::relative_frobenius, e.relative_frobenius},
                          {metric::max_abs_error, e.max_abs_error},
                          {metric::nan_values, static_cast<double>(e.nan_values)},
                          {metric::sampled_values, static_cast<double>(values.size())}};
        if (d.max_ulps) region.metrics.push_back({metric::ulp_difference_max, *d.max_ulps});
    }
};

}  // namespace

const Workload& weights_workload() {
    static const Weights workload;
    return workload;
}

}  // namespace floatscope::emu
