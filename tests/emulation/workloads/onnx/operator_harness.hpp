// Test-only: running one ONNX operator of the table on hand-built nodes and tensors, in the MPFR
// truth and in an emulated run of given formats, and MPFR references for the expected values.
#pragma once

#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <mpfr.h>

#include "core/catalog.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::test::onnx {

using namespace floatscope::emu::onnx;
using floatscope::emu::TruthNumber;

inline Attribute float_attribute(double f) {
    Attribute a;
    a.kind = Attribute::Kind::Float;
    a.f = f;
    return a;
}
inline Attribute int_attribute(std::int64_t i) {
    Attribute a;
    a.kind = Attribute::Kind::Int;
    a.i = i;
    return a;
}
inline Attribute ints_attribute(std::vector<std::int64_t> ints) {
    Attribute a;
    a.kind = Attribute::Kind::Ints;
    a.ints = std::move(ints);
    return a;
}
inline Attribute string_attribute(std::string s) {
    Attribute a;
    a.kind = Attribute::Kind::String;
    a.s = std::move(s);
    return a;
}

/// A node of `op` with `outputs` outputs (the inputs are the tensors given to run_*).
inline Node make_node(std::string op, std::map<std::string, Attribute> attributes = {}, std::size_t outputs = 1) {
    Node node;
    node.name = fmt::format("test_{}", op);
    node.op_type = std::move(op);
    for (std::size_t i = 0; i < outputs; ++i) node.outputs.push_back(fmt::format("y{}", i));
    node.attributes = std::move(attributes);
    return node;
}

inline Tensor<double> floats(Shape shape, std::vector<double> values, ElementType type = ElementType::Float) {
    return number_tensor<double>(type, std::move(shape), std::move(values));
}
inline Tensor<double> integers(Shape shape, std::vector<std::int64_t> values, ElementType type = ElementType::Int64) {
    return integer_tensor<double>(type, std::move(shape), std::move(values));
}
inline Tensor<double> bools(Shape shape, std::vector<std::int64_t> values) {
    return integers(std::move(shape), std::move(values), ElementType::Bool);
}

inline constexpr int truth_precision = 256;

inline Tensor<TruthNumber> to_truth_tensor(const Tensor<double>& t) {
    const TruthNumerics n(truth_precision);
    Tensor<TruthNumber> r;
    r.type = t.type;
    r.shape = t.shape;
    r.integers = t.integers;
    for (double v : t.numbers) r.numbers.push_back(n.from_double(v));
    return r;
}

/// The outputs of the node in the truth, from truth tensors (nullptr: an omitted input).
inline std::vector<Tensor<TruthNumber>> run_truth_tensors(const Node& node,
                                                          const std::vector<const Tensor<TruthNumber>*>& inputs,
                                                          int opset = 17) {
    const TruthNumerics numerics(truth_precision);
    const OperatorCall<TruthNumerics> call{node, opset, inputs, numerics};
    return operator_table().run(call);
}

/// The outputs of the node in the truth, the inputs' doubles exact; floating outputs as the
/// doubles nearest (the tests' values are far from where that rounding would matter).
inline std::vector<Tensor<double>> run_truth(const Node& node, const std::vector<Tensor<double>>& inputs,
                                             int opset = 17) {
    std::vector<Tensor<TruthNumber>> truth_inputs;
    for (const auto& t : inputs) truth_inputs.push_back(to_truth_tensor(t));
    std::vector<const Tensor<TruthNumber>*> pointers;
    for (const auto& t : truth_inputs) pointers.push_back(&t);
    const TruthNumerics n(truth_precision);
    std::vector<Tensor<double>> outputs;
    for (const auto& t : run_truth_tensors(node, pointers, opset)) {
        Tensor<double> d;
        d.type = t.type;
        d.shape = t.shape;
        d.integers = t.integers;
        for (const auto& v : t.numbers) d.numbers.push_back(n.to_double(v));
        outputs.push_back(std::move(d));
    }
    return outputs;
}

/// NodeFormats with compute, accumulate and output formats by catalog name (round to nearest even).
inline NodeFormats node_formats(const char* compute, const char* accumulate, const char* output) {
    NodeFormats f;
    f.compute = {core::parse_format(compute), core::RoundingMode::NearestEven};
    f.accumulate = {core::parse_format(accumulate), core::RoundingMode::NearestEven};
    f.output = {core::parse_format(output), core::RoundingMode::NearestEven};
    return f;
}
inline NodeFormats node_formats(const char* format) { return node_formats(format, format, format); }

/// The outputs of the node in an emulated run of `formats`, each floating output rounded to the
/// output format as the graph evaluation does. `inputs` entries may be omitted with nullptr.
inline std::vector<Tensor<double>> run_emulated_inputs(const Node& node,
                                                       const std::vector<const Tensor<double>*>& inputs,
                                                       const NodeFormats& formats, int opset = 17) {
    const EmulatedNumerics numerics(formats, 1);
    const OperatorCall<EmulatedNumerics> call{node, opset, inputs, numerics};
    auto outputs = operator_table().run(call);
    for (auto& t : outputs)
        if (t.floating()) numerics.to_output(t.numbers);
    return outputs;
}
inline std::vector<Tensor<double>> run_emulated(const Node& node, const std::vector<Tensor<double>>& inputs,
                                                const NodeFormats& formats = node_formats("fp32"), int opset = 17) {
    std::vector<const Tensor<double>*> pointers;
    for (const auto& t : inputs) pointers.push_back(&t);
    return run_emulated_inputs(node, pointers, formats, opset);
}

/// A function of one argument evaluated by MPFR with `bits` of precision (24: fp32's correctly
/// rounded value in its normal range, 53: double's, 8: bfloat16's), as a double.
inline double mpfr_function(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), double x, int bits = 53) {
    mpfr_t r;
    mpfr_init2(r, 300);
    mpfr_set_d(r, x, MPFR_RNDN);
    f(r, r, MPFR_RNDN);
    mpfr_t out;
    mpfr_init2(out, bits);
    mpfr_set(out, r, MPFR_RNDN);
    const double d = mpfr_get_d(out, MPFR_RNDN);
    mpfr_clear(r);
    mpfr_clear(out);
    return d;
}

/// x rounded to `bits` significant bits (to nearest even), as fp32 (24) or bf16 (8) round a normal value.
inline double round_to_bits(double x, int bits) {
    mpfr_t r;
    mpfr_init2(r, bits);
    mpfr_set_d(r, x, MPFR_RNDN);
    const double d = mpfr_get_d(r, MPFR_RNDN);
    mpfr_clear(r);
    return d;
}

}  // namespace floatscope::test::onnx
