// ONNX's MelWeightMatrix (opset 17): triangular filters that map a onesided spectrum's
// dft_length / 2 + 1 bins to num_mel_bins mel bands, as ONNX's reference and ONNX Runtime build
// them: num_mel_bins + 2 edges equally spaced on mel(f) = 2595 log10(1 + f / 700) from
// lower_edge_hertz, spaced by (mel(upper) - mel(lower)) / (num_mel_bins + 2), each edge's bin
// floor((dft_length + 1) hz / sample_rate); band i rises from edge i to 1 at edge i + 1 and falls to
// edge i + 2. Each operation is the node's (the truth's in MPFR, an emulated run's rounded to its
// compute format), so an edge close to a bin's boundary may fall in another bin in an emulated run:
// the matrix then differs where the arithmetic makes it differ.
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

template <class Numerics>
Outputs<Numerics> mel_weight_matrix(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    const Numerics& m = call.numerics;
    node.check_attributes({"output_datatype"});
    const auto scalar_number = [&](std::size_t index) {
        const Tensor<Number>& t = call.input(index);
        require_floating(t, index, node);
        if (t.numbers.size() != 1) throw Error(fmt::format("{}: input {} must hold one value", node.describe(), index));
        return t.numbers[0];
    };
    const std::int64_t bands = integer_scalar(call.input(0), 0, node),
                       dft_length = integer_scalar(call.input(1), 1, node),
                       sample_rate = integer_scalar(call.input(2), 2, node);
    if (bands < 1 || dft_length < 1 || sample_rate < 1)
        throw Error(fmt::format("{}: num_mel_bins ({}), dft_length ({}) and sample_rate ({}) must be >= 1",
                                node.describe(), bands, dft_length, sample_rate));
    const Number lower_hertz = scalar_number(3), upper_hertz = scalar_number(4);
    const ElementType type = element_type_from_onnx(static_cast<int>(node.int_attribute("output_datatype", 1)),
                                                    node.describe() + ": output_datatype");
    if (!is_floating(type))
        throw Unsupported(fmt::format("{}: output_datatype {} is not supported (FloatScope makes floating matrices)",
                                      node.describe(), to_string(type)));
    const std::int64_t spectrum_bins = dft_length / 2 + 1;
    const Shape shape{spectrum_bins, bands};
    require_output(node, shape, true);

    const Number log_10 = m.apply(Function::Log, m.from_double(10));
    const Number mel_scale = m.from_double(2595), hertz_scale = m.from_double(700), one = m.from_double(1);
    const auto mel = [&](const Number& hertz) {
        return m.mul(mel_scale, m.div(m.apply(Function::Log, m.add(one, m.div(hertz, hertz_scale))), log_10));
    };
    const Number lower_mel = mel(lower_hertz);
    const Number mel_step = m.div(m.sub(mel(upper_hertz), lower_mel), m.from_double(static_cast<double>(bands + 2)));
    std::vector<std::int64_t> edges;
    for (std::int64_t i = 0; i < bands + 2; ++i) {
        const Number edge_mel = m.add(m.mul(m.from_double(static_cast<double>(i)), mel_step), lower_mel);
        const Number hertz =
            m.mul(hertz_scale, m.sub(m.apply(Function::Exp, m.mul(m.div(edge_mel, mel_scale), log_10)), one));
        const double bin =
            m.to_double(m.apply(Function::Floor, m.div(m.mul(m.from_double(static_cast<double>(dft_length + 1)), hertz),
                                                       m.from_double(static_cast<double>(sample_rate)))));
        if (!(bin >= 0 && bin < static_cast<double>(spectrum_bins)))
            throw Error(
                fmt::format("{}: edge {} of the mel bands falls in bin {} of a spectrum of {} bins; "
                            "lower_edge_hertz and upper_edge_hertz must lie in 0 .. sample_rate / 2",
                            node.describe(), i, bin, spectrum_bins));
        edges.push_back(static_cast<std::int64_t>(bin));
    }

    std::vector<Number> values(element_count(shape), m.from_double(0));
    const auto at = [&](std::int64_t bin, std::int64_t band) -> Number& {
        return values[static_cast<std::size_t>(bin * bands + band)];
    };
    const auto ratio = [&](std::int64_t numerator, std::int64_t denominator) {
        return m.div(m.from_double(static_cast<double>(numerator)), m.from_double(static_cast<double>(denominator)));
    };
    for (std::int64_t band = 0; band < bands; ++band) {
        const std::int64_t low = edges[static_cast<std::size_t>(band)];
        const std::int64_t center = edges[static_cast<std::size_t>(band + 1)];
        const std::int64_t high = edges[static_cast<std::size_t>(band + 2)];
        if (center == low) at(center, band) = one;
        for (std::int64_t j = low; j <= center && center > low; ++j) at(j, band) = ratio(j - low, center - low);
        for (std::int64_t j = center; j < high; ++j) at(j, band) = ratio(high - j, high - center);
    }
    m.to_output(values);
    return {number_tensor<Number>(type, shape, std::move(values))};
}

}  // namespace

void add_mel_weight_operators(OperatorTable& table) {
    table.add("MelWeightMatrix", [](const auto& call) { return mel_weight_matrix(call); });
}

}  // namespace floatscope::emu::onnx
