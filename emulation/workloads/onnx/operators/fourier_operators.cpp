// ONNX's Fourier transforms (DFT-17 and 20, STFT-17): DFT along one axis and STFT of a batch of signals, real (a
// trailing dimension of 1) or complex (2: real, imaginary). Each is the direct O(N^2) sum
// X[k] = sum_n x[n] exp(-+ 2 pi i k n / N), written as one matrix product of the twiddles and the
// signals, so its sums go through the node's matmul accumulation model (the truth's exact, rounded
// once). Each twiddle is cos and sin of 2 pi j / N, j = k n mod N reduced exactly to an angle in
// [0, pi / 4]: the truth's in MPFR at its precision, an emulated run's rounded once to its compute
// format from double (a precomputed twiddle table, as FFT libraries keep one).
#include <cmath>
#include <cstdint>
#include <numbers>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"

namespace floatscope::emu::onnx {

namespace {

/// The signals to transform, as the columns of a matrix: row n * components + c holds component c
/// (0 real, 1 imaginary) of sample n of every signal.
template <class Number>
struct SignalColumns {
    std::int64_t length = 0;  ///< N, the samples of each signal (the DFT's length)
    std::int64_t components = 1;  ///< 1 real, 2 complex
    std::size_t signals = 0;  ///< the matrix's columns
    std::vector<Number> values;  ///< (length * components) x signals, row-major
};

/// The angle 2 pi numerator / denominator, in [0, pi / 4], of a twiddle reduced to the first octant.
struct OctantAngle {
    std::int64_t numerator = 0, denominator = 1;
    bool swap = false;  ///< cos and sin trade places
    bool negate_cos = false, negate_sin = false;
};

/// 2 pi j / n reduced exactly, in integers, by the symmetries of cos and sin: the twiddles of pi / 2,
/// pi, 3 pi / 2 are exactly 0 and +-1 in every format, and each twiddle is one function value of an
/// angle in [0, pi / 4].
OctantAngle reduce_to_octant(std::int64_t j, std::int64_t n) {
    OctantAngle a{j % n, n};
    if (2 * a.numerator > a.denominator) {  // 2 pi - x
        a.numerator = a.denominator - a.numerator;
        a.negate_sin = true;
    }
    if (4 * a.numerator > a.denominator) {  // pi - x
        a.numerator = a.denominator - 2 * a.numerator;
        a.denominator *= 2;
        a.negate_cos = true;
    }
    if (8 * a.numerator > a.denominator) {  // pi / 2 - x
        a.numerator = a.denominator - 4 * a.numerator;
        a.denominator *= 4;
        a.swap = true;
    }
    return a;
}

/// cos and sin of an angle in [0, pi / 4] as an emulated run's twiddle table holds them, as FFT
/// libraries precompute theirs: evaluated in double and rounded once to the compute format.
std::pair<double, double> octant_cos_sin(const EmulatedNumerics& m, const OctantAngle& a) {
    const double angle = 2 * std::numbers::pi * static_cast<double>(a.numerator) / static_cast<double>(a.denominator);
    return {m.operand(std::cos(angle)), m.operand(std::sin(angle))};
}

/// The truth's: in MPFR at its precision.
std::pair<TruthNumber, TruthNumber> octant_cos_sin(const TruthNumerics& m, const OctantAngle& a) {
    const TruthNumber two_pi = m.mul(m.from_double(8), m.apply(Function::Atan, m.from_double(1)));
    const TruthNumber angle = m.div(m.mul(two_pi, m.from_double(static_cast<double>(a.numerator))),
                                    m.from_double(static_cast<double>(a.denominator)));
    return {m.apply(Function::Cos, angle), m.apply(Function::Sin, angle)};
}

/// A wide run's: the truth's at its constants' precision, rounded once to the compute format.
std::pair<TruthNumber, TruthNumber> octant_cos_sin(const WideNumerics& m, const OctantAngle& a) {
    const auto [cos, sin] = octant_cos_sin(TruthNumerics(m.precision()), a);
    return {m.operand(cos), m.operand(sin)};
}

/// The transform's frequency bins k = 0 .. bins - 1 of every signal: row 2 k + p holds part p (0
/// real, 1 imaginary) of bin k, each signal a column, as the node's matmul gives them; an inverse
/// transform divided by N.
template <class Numerics>
std::vector<typename Numerics::Number> fourier_transform(const Numerics& m,
                                                         const SignalColumns<typename Numerics::Number>& x,
                                                         std::int64_t bins, bool inverse) {
    using Number = typename Numerics::Number;
    const std::int64_t n_length = x.length;
    // cos and sin of 2 pi j / N for each j = k n mod N, and -sin. The forward transform's twiddle
    // is exp(-i angle), the inverse's exp(+i angle).
    std::vector<Number> cosines, sines, negated_sines;
    for (std::int64_t j = 0; j < n_length; ++j) {
        const OctantAngle octant = reduce_to_octant(inverse ? j : n_length - j, n_length);
        auto [cosine, sine] = octant_cos_sin(m, octant);
        if (octant.swap) std::swap(cosine, sine);
        cosines.push_back(octant.negate_cos ? m.apply(Function::Neg, cosine) : cosine);
        sines.push_back(octant.negate_sin ? m.apply(Function::Neg, sine) : sine);
        negated_sines.push_back(m.apply(Function::Neg, sines.back()));
    }
    // (re + i im)(cos + i sin) = (re cos - im sin) + i (re sin + im cos): the twiddle matrix's rows
    // 2 k and 2 k + 1 against the signal's rows n * components + c.
    const auto columns = static_cast<std::size_t>(n_length * x.components);
    std::vector<Number> twiddles(static_cast<std::size_t>(2 * bins) * columns, m.from_double(0));
    for (std::int64_t k = 0; k < bins; ++k)
        for (std::int64_t n = 0; n < n_length; ++n) {
            const auto j = static_cast<std::size_t>((k % n_length) * n % n_length);
            Number* real_row = &twiddles[static_cast<std::size_t>(2 * k) * columns];
            Number* imaginary_row = real_row + columns;
            const auto column = static_cast<std::size_t>(n * x.components);
            real_row[column] = cosines[j];
            imaginary_row[column] = sines[j];
            if (x.components == 2) {
                real_row[column + 1] = negated_sines[j];
                imaginary_row[column + 1] = cosines[j];
            }
        }
    std::vector<Number> spectra = m.matmul(twiddles, x.values, static_cast<std::size_t>(2 * bins), columns, x.signals);
    if (inverse) {
        const Number length = m.from_double(static_cast<double>(n_length));
        for (Number& v : spectra) v = m.div(v, length);
    }
    m.to_output(spectra);
    return spectra;
}

/// The components (1 real, 2 complex) of a signal whose last dimension holds them.
template <class Number>
std::int64_t signal_components(const Tensor<Number>& x, std::size_t min_rank, const Node& node) {
    require_floating(x, 0, node);
    if (x.shape.size() < min_rank || (x.shape.back() != 1 && x.shape.back() != 2))
        throw Error(
            fmt::format("{}: input 0 has shape {}; the signal needs rank >= {} and a last dimension of 1 "
                        "(real) or 2 (complex)",
                        node.describe(), describe(x.shape), min_rank));
    return x.shape.back();
}

/// onesided: the bins 0 .. N / 2 of a real signal's transform (the others are their conjugates).
std::int64_t bin_count(std::int64_t length, bool onesided, std::int64_t components, const Node& node) {
    if (onesided && components == 2)
        throw Error(
            fmt::format("{}: onesided is 1 and the signal is complex; a complex signal's transform has no "
                        "conjugate symmetry (onesided applies to real signals)",
                        node.describe()));
    return onesided ? length / 2 + 1 : length;
}

/// DFT-20: the transform along axis (input 2, -2 by default: the last before the components; DFT-17's
/// attribute, 1 by default, moves there: operator_versions.cpp), of dft_length (input 1) samples: the
/// signal zero-padded or cut to it.
template <class Numerics>
Outputs<Numerics> dft(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"inverse", "onesided"});
    const Tensor<Number>& x = call.input(0);
    const std::int64_t components = signal_components(x, 3, node);
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    const auto* axis_input = call.optional_input(2);
    const std::int64_t given_axis = axis_input ? integer_scalar(*axis_input, 2, node) : -2;
    std::int64_t axis = given_axis;
    if (axis < 0) axis += rank;
    if (axis < 0 || axis > rank - 2)
        throw Error(
            fmt::format("{}: axis {} is out of range for a signal of rank {} (0 .. {}: not the last "
                        "dimension, which holds the components)",
                        node.describe(), given_axis, rank, rank - 2));
    const std::int64_t available = x.shape[static_cast<std::size_t>(axis)];
    std::int64_t length = available;
    if (const auto* dft_length = call.optional_input(1)) length = integer_scalar(*dft_length, 1, node);
    if (length < 1) throw Error(fmt::format("{}: dft_length is {}; it must be >= 1", node.describe(), length));
    const bool inverse = node.int_attribute("inverse", 0) != 0;
    const std::int64_t bins = bin_count(length, node.int_attribute("onesided", 0) != 0, components, node);

    Shape shape = x.shape;
    shape[static_cast<std::size_t>(axis)] = bins;
    shape.back() = 2;
    require_output(node, shape, true);
    std::int64_t outer = 1, inner = 1;
    for (std::int64_t d = 0; d < axis; ++d) outer *= x.shape[static_cast<std::size_t>(d)];
    for (std::int64_t d = axis + 1; d < rank - 1; ++d) inner *= x.shape[static_cast<std::size_t>(d)];

    const Numerics& m = call.numerics;
    SignalColumns<Number> signals{length, components, static_cast<std::size_t>(outer * inner), {}};
    signals.values.assign(static_cast<std::size_t>(length * components) * signals.signals, m.from_double(0));
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t n = 0; n < std::min(length, available); ++n)
            for (std::int64_t i = 0; i < inner; ++i)
                for (std::int64_t c = 0; c < components; ++c)
                    signals.values[static_cast<std::size_t>(n * components + c) * signals.signals +
                                   static_cast<std::size_t>(o * inner + i)] =
                        x.numbers[static_cast<std::size_t>(((o * available + n) * inner + i) * components + c)];
    const std::vector<Number> spectra = fourier_transform(m, signals, bins, inverse);

    std::vector<Number> values(element_count(shape), m.from_double(0));
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t k = 0; k < bins; ++k)
            for (std::int64_t i = 0; i < inner; ++i)
                for (std::int64_t p = 0; p < 2; ++p)
                    values[static_cast<std::size_t>(((o * bins + k) * inner + i) * 2 + p)] =
                        spectra[static_cast<std::size_t>(2 * k + p) * signals.signals +
                                static_cast<std::size_t>(o * inner + i)];
    return {number_tensor<Number>(x.type, std::move(shape), std::move(values))};
}

/// STFT-17: the transforms of frames of frame_length samples every frame_step samples of each
/// signal (batch, length, components), each frame multiplied by the window (input 2) when given.
template <class Numerics>
Outputs<Numerics> stft(const OperatorCall<Numerics>& call) {
    using Number = typename Numerics::Number;
    const Node& node = call.node;
    node.check_attributes({"onesided"});
    const Tensor<Number>& x = call.input(0);
    const std::int64_t components = signal_components(x, 3, node);
    if (x.shape.size() != 3)
        throw Error(fmt::format("{}: input 0 has shape {}; STFT takes (batch, length, 1 or 2)", node.describe(),
                                describe(x.shape)));
    const std::int64_t step = integer_scalar(call.input(1), 1, node);
    if (step < 1) throw Error(fmt::format("{}: frame_step is {}; it must be >= 1", node.describe(), step));
    const Tensor<Number>* window = call.optional_input(2);
    const Tensor<Number>* frame_length_input = call.optional_input(3);
    if (window) {
        require_floating(*window, 2, node);
        if (window->shape.size() != 1)
            throw Error(fmt::format("{}: the window (input 2) has shape {}; it must be rank 1", node.describe(),
                                    describe(window->shape)));
    }
    if (!window && !frame_length_input)
        throw Error(fmt::format("{}: STFT needs a window (input 2) or a frame_length (input 3)", node.describe()));
    const std::int64_t frame_length =
        frame_length_input ? integer_scalar(*frame_length_input, 3, node) : window->shape[0];
    if (window && window->shape[0] != frame_length)
        throw Error(fmt::format("{}: the window has {} values and frame_length is {}; they must agree", node.describe(),
                                window->shape[0], frame_length));
    const std::int64_t batch = x.shape[0], length = x.shape[1];
    if (frame_length < 1 || frame_length > length)
        throw Error(fmt::format("{}: frame_length is {}; it must be 1 .. the signal's length {}", node.describe(),
                                frame_length, length));
    const std::int64_t frames = (length - frame_length) / step + 1;
    const std::int64_t bins = bin_count(frame_length, node.int_attribute("onesided", 1) != 0, components, node);
    Shape shape{batch, frames, bins, 2};
    require_output(node, shape, true);

    const Numerics& m = call.numerics;
    SignalColumns<Number> signals{frame_length, components, static_cast<std::size_t>(batch * frames), {}};
    signals.values.reserve(static_cast<std::size_t>(frame_length * components) * signals.signals);
    for (std::int64_t n = 0; n < frame_length; ++n)
        for (std::int64_t c = 0; c < components; ++c)
            for (std::int64_t b = 0; b < batch; ++b)
                for (std::int64_t f = 0; f < frames; ++f) {
                    const Number& sample =
                        x.numbers[static_cast<std::size_t>((b * length + f * step + n) * components + c)];
                    signals.values.push_back(window ? m.mul(sample, window->numbers[static_cast<std::size_t>(n)])
                                                    : sample);
                }
    const std::vector<Number> spectra = fourier_transform(m, signals, bins, false);

    std::vector<Number> values;
    values.reserve(element_count(shape));
    for (std::size_t s = 0; s < signals.signals; ++s)
        for (std::int64_t k = 0; k < bins; ++k)
            for (std::int64_t p = 0; p < 2; ++p)
                values.push_back(spectra[static_cast<std::size_t>(2 * k + p) * signals.signals + s]);
    return {number_tensor<Number>(x.type, std::move(shape), std::move(values))};
}

}  // namespace

void add_fourier_operators(OperatorTable& table) {
    table.add("DFT", [](const auto& call) { return dft(call); });
    table.add("STFT", [](const auto& call) { return stft(call); });
}

}  // namespace floatscope::emu::onnx
