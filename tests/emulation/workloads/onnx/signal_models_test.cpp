// Tests of DFT, STFT, MelWeightMatrix and TfIdfVectorizer on the models
// tests/data/onnx/write_signal_models.py writes (the branches ONNX's node tests leave out: onesided,
// dft_length padding and cutting, complex forward transforms, a window beside frame_length, IDF and
// TFIDF weights, int64 tokens), against the NumPy references that script computes.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "emulation/simulation/precision_policy.hpp"
#include "tests/emulation/workloads/onnx/model_evaluation.hpp"
#include "tests/emulation/workloads/onnx/operator_harness.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::test::onnx;

namespace {

const std::filesystem::path models = FLOATSCOPE_SIGNAL_MODELS;

}  // namespace

TEST_CASE("the signal and text operators reproduce NumPy's evaluation of ONNX's specification", "[onnx][signal]") {
    const std::string name =
        GENERATE(as<std::string>{}, "dft_onesided_padded", "dft_complex_truncated", "dft_inverse_padded",
                 "dft17_default_axis", "dft20_axis_input", "dft20_default_axis", "stft_complex_window", "stft_real_odd",
                 "mel_odd_length", "tfidf_idf_int64", "tfidf_tfidf_int32");
    INFO(name);
    const ModelEvaluation e = evaluate_model(models, name, uniform_policy(core::parse_format("fp32")));
    for (const ValueInfo& output : e.graph.outputs) {
        INFO("output " << output.name);
        const Tensor<double> reference = read_input_file(models / fmt::format("{}_{}.npy", name, output.name));
        // The truth's sums are exact and its twiddles correct at 256 bits; NumPy's FFT in float64.
        CHECK(relative_difference(e.truth.at(output.name), reference) < 1e-14);
        // fp32: twiddles and weights rounded to binary32, sums of at most 24 terms.
        CHECK(relative_difference(e.emulated.at(output.name), reference) < 1e-6);
    }
}

TEST_CASE("a onesided DFT of a complex signal is an error naming the node", "[onnx][signal]") {
    const auto evaluate = [] {
        evaluate_model(models, "dft_onesided_complex", uniform_policy(core::parse_format("fp32")));
    };
    CHECK_THROWS_WITH(evaluate(), Catch::Contains("DFT") && Catch::Contains("onesided is 1 and the signal is complex"));
}
