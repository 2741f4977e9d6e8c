// Nodes and tensors built in C++ for the shape and linear operator tests, run through
// operator_table() with the MPFR truth or an emulated run's numerics.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/catalog.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/onnx/operator_table.hpp"

namespace floatscope::emu::onnx::testing {

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
inline Attribute float_attribute(double f) {
    Attribute a;
    a.kind = Attribute::Kind::Float;
    a.f = f;
    return a;
}
inline Attribute floats_attribute(std::vector<double> floats) {
    Attribute a;
    a.kind = Attribute::Kind::Floats;
    a.floats = std::move(floats);
    return a;
}
inline Attribute string_attribute(std::string s) {
    Attribute a;
    a.kind = Attribute::Kind::String;
    a.s = std::move(s);
    return a;
}
inline Attribute tensor_attribute(Tensor<double> t) {
    Attribute a;
    a.kind = Attribute::Kind::Tensor;
    a.t = std::move(t);
    return a;
}

inline Tensor<double> floats(Shape shape, std::vector<double> values) {
    return number_tensor<double>(ElementType::Float, std::move(shape), std::move(values));
}
inline Tensor<double> int64s(Shape shape, std::vector<std::int64_t> values) {
    return integer_tensor<double>(ElementType::Int64, std::move(shape), std::move(values));
}

/// A node named `name` of `op_type` with `outputs` outputs; its inputs are named by position,
/// "" for an omitted one (a nullptr in the inputs given to run).
inline Node node(std::string op_type, std::map<std::string, Attribute> attributes = {}, std::size_t outputs = 1) {
    Node n;
    n.name = "test_" + op_type;
    n.op_type = std::move(op_type);
    n.attributes = std::move(attributes);
    for (std::size_t o = 0; o < outputs; ++o) n.outputs.push_back("output" + std::to_string(o));
    return n;
}

/// Every role of a node in `format` (rne), its matrix products the policy's model for it.
inline NodeFormats uniform_formats(const char* format) {
    const PrecisionPolicy policy = uniform_policy(core::parse_format(format));
    return {policy.at(Role::Compute), policy.at(Role::Accumulate), policy.at(Role::Output), policy.matmul_model()};
}

/// Runs `n` on `inputs` (nullptr: an omitted optional input) with `numerics`; the outputs with
/// their numbers as doubles (the truth's rounded to nearest).
template <class Numerics>
std::vector<Tensor<double>> run_with(const Numerics& numerics, Node n, const std::vector<const Tensor<double>*>& inputs,
                                     int opset = 17) {
    using Number = typename Numerics::Number;
    std::vector<Tensor<Number>> converted;
    converted.reserve(inputs.size());
    n.inputs.clear();
    for (const Tensor<double>* t : inputs) {
        n.inputs.push_back(t ? "input" + std::to_string(n.inputs.size()) : "");
        if (!t) continue;
        Tensor<Number> c;
        c.type = t->type;
        c.shape = t->shape;
        c.integers = t->integers;
        for (double x : t->numbers) c.numbers.push_back(numerics.from_double(x));
        converted.push_back(std::move(c));
    }
    OperatorCall<Numerics> call{n, opset, {}, numerics};
    std::size_t next = 0;
    for (const Tensor<double>* t : inputs) call.inputs.push_back(t ? &converted[next++] : nullptr);
    std::vector<Tensor<double>> results;
    for (const Tensor<Number>& r : operator_table().run(call)) {
        Tensor<double> d;
        d.type = r.type;
        d.shape = r.shape;
        d.integers = r.integers;
        for (const Number& x : r.numbers) d.numbers.push_back(numerics.to_double(x));
        results.push_back(std::move(d));
    }
    return results;
}

/// The truth (MPFR at 256 bits).
inline std::vector<Tensor<double>> run_truth(const Node& n, const std::vector<const Tensor<double>*>& inputs,
                                             int opset = 17) {
    return run_with(TruthNumerics(256), n, inputs, opset);
}

/// An emulated run in `formats` (seed 1).
inline std::vector<Tensor<double>> run_emulated(const NodeFormats& formats, const Node& n,
                                                const std::vector<const Tensor<double>*>& inputs, int opset = 17) {
    return run_with(EmulatedNumerics(formats, 1), n, inputs, opset);
}

}  // namespace floatscope::emu::onnx::testing
