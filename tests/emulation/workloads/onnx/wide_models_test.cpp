// The onnx workload under policies with formats wider than binary64 (onnx::WideNumerics): a small
// MLP (MatMul, Add, Relu, Gemm, Softmax, Exp) and the reference CNN (Conv, Relu, MaxPool, Gemm) in
// binary128, binary256 and e5m120 (subnormals, overflow), every checked node's output bit for bit
// against an MPFR evaluation of that node from the run's own inputs to it (wide_reference.hpp);
// a mixed policy (fp32 with a binary128 accumulator); what cannot be taken is refused.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/simulation/trace.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/model_writer.hpp"
#include "emulation/workloads/onnx/npy_writer.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/emulation/workloads/onnx/wide_reference.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using floatscope::test::onnx::mismatches;
using floatscope::test::onnx::ReferenceFormat;

namespace {

using Values = std::vector<TruthNumber>;

const std::filesystem::path reference_models = FLOATSCOPE_REFERENCE_MODELS;

onnx::Tensor<double> doubles(onnx::Shape shape, std::vector<double> values) {
    return onnx::number_tensor<double>(onnx::ElementType::Double, std::move(shape), std::move(values));
}

std::vector<double> uniform(std::mt19937_64& random, std::size_t count, double low, double high) {
    std::uniform_real_distribution<double> draw(low, high);
    std::vector<double> v(count);
    for (double& x : v) x = draw(random);
    return v;
}

onnx::Node make_node(std::string name, std::string op, std::vector<std::string> inputs, std::string output) {
    onnx::Node n;
    n.name = std::move(name);
    n.op_type = std::move(op);
    n.inputs = std::move(inputs);
    n.outputs = {std::move(output)};
    return n;
}

onnx::ValueInfo value_info(std::string name, onnx::Shape shape) {
    onnx::ValueInfo v;
    v.name = std::move(name);
    v.type = onnx::ElementType::Double;
    v.shape = std::move(shape);
    v.dimension_names.assign(v.shape.size(), "");
    return v;
}

/// x [2, 4] -> MatMul W1 [4, 3] -> Add b1 -> Relu -> Gemm (W2 [5, 3], transB, b2) -> z;
/// Softmax(z) and Exp(z) are the outputs. Weights with all 53 bits, drawn from a fixed seed.
onnx::Graph mlp_graph() {
    std::mt19937_64 random(42);
    onnx::Graph g;
    g.opset = 17;
    g.inputs.push_back(value_info("x", {2, 4}));
    g.initializers["W1"] = doubles({4, 3}, uniform(random, 12, -1, 1));
    g.initializers["b1"] = doubles({3}, uniform(random, 3, -1, 1));
    g.initializers["W2"] = doubles({5, 3}, uniform(random, 15, -1, 1));
    g.initializers["b2"] = doubles({5}, uniform(random, 5, -1, 1));
    g.nodes.push_back(make_node("matmul", "MatMul", {"x", "W1"}, "h1"));
    g.nodes.push_back(make_node("add", "Add", {"h1", "b1"}, "h2"));
    g.nodes.push_back(make_node("relu", "Relu", {"h2"}, "h3"));
    onnx::Node gemm = make_node("gemm", "Gemm", {"h3", "W2", "b2"}, "z");
    onnx::Attribute trans_b;
    trans_b.kind = onnx::Attribute::Kind::Int;
    trans_b.i = 1;
    gemm.attributes["transB"] = trans_b;
    g.nodes.push_back(gemm);
    g.nodes.push_back(make_node("softmax", "Softmax", {"z"}, "p"));
    g.nodes.push_back(make_node("exp", "Exp", {"z"}, "e"));
    g.outputs = {value_info("p", {2, 5}), value_info("e", {2, 5})};
    return g;
}

/// The model and its input written to `folder`; `x` the input's 8 values.
Parameters mlp_parameters(const test::TempDir& folder, const std::vector<double>& x) {
    onnx::write_model(mlp_graph(), folder.path() / "mlp.onnx");
    onnx::write_npy(folder.path() / "x.npy", doubles({2, 4}, x));
    return Parameters::parse(find_workload("onnx").parameters(),
                             {"model=" + (folder.path() / "mlp.onnx").string(),
                              "inputs=" + (folder.path() / "x.npy").string()});
}

Trace run(const Parameters& p, const std::string& policy) {
    Trace trace;
    RunControl control;
    find_workload("onnx").run(p, parse_policy(policy), trace, control);
    return trace;
}

/// The exact values of the node region labelled `label`.
const Values& node_values(const Trace& trace, const std::string& label) {
    const auto it = std::find_if(trace.regions().begin(), trace.regions().end(),
                                 [&](const TraceRegion& r) { return r.kind == "node" && r.label == label; });
    REQUIRE(it != trace.regions().end());
    REQUIRE(it->wide_values.size() == it->values.size());
    return it->wide_values;
}

Values rounded_doubles(const ReferenceFormat& f, const std::vector<double>& values) {
    Values out;
    for (double v : values) out.push_back(f.from_double(v));
    return out;
}

/// C = A B^T (+ bias per column) with A m x k and B n x k, each entry a sequential fma sum from +0
/// then the bias added in one more rounding.
Values dot_rows(const ReferenceFormat& f, const Values& a, const Values& b, std::size_t m, std::size_t k,
                std::size_t n, const Values* bias) {
    Values c;
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            std::vector<const TruthNumber*> x, y;
            for (std::size_t kk = 0; kk < k; ++kk) x.push_back(&a[i * k + kk]), y.push_back(&b[j * k + kk]);
            TruthNumber s = f.dot(x, y);
            c.push_back(bias ? f.add(s, (*bias)[j]) : s);
        }
    return c;
}

/// The MLP's nodes in `policy` (one format f in every role) against the reference, node by node.
void check_mlp(const std::string& policy, const ReferenceFormat& f, const std::vector<double>& x_values,
               Values* matmul_out = nullptr, Values* exp_out = nullptr) {
    const test::TempDir folder;
    const Trace trace = run(mlp_parameters(folder, x_values), policy);
    const onnx::Graph g = mlp_graph();
    const auto weights = [&](const char* name) { return rounded_doubles(f, g.initializers.at(name).numbers); };
    const Values x = rounded_doubles(f, x_values), w1 = weights("W1"), b1 = weights("b1"), w2 = weights("W2"),
                 b2 = weights("b2");
    Values w1_transposed;
    for (std::size_t j = 0; j < 3; ++j)
        for (std::size_t i = 0; i < 4; ++i) w1_transposed.push_back(w1[i * 3 + j]);

    const Values& h1 = node_values(trace, "matmul (MatMul)");
    CHECK(mismatches(h1, dot_rows(f, x, w1_transposed, 2, 4, 3, nullptr)) == 0);
    const Values& h2 = node_values(trace, "add (Add)");
    Values expected;
    for (std::size_t i = 0; i < h1.size(); ++i) expected.push_back(f.add(h1[i], b1[i % 3]));
    CHECK(mismatches(h2, expected) == 0);
    const Values& h3 = node_values(trace, "relu (Relu)");
    expected.clear();
    for (const TruthNumber& v : h2) expected.push_back(mpfr_sgn(v.backend().data()) < 0 ? f.zero() : v);
    CHECK(mismatches(h3, expected) == 0);
    const Values& z = node_values(trace, "gemm (Gemm)");
    CHECK(mismatches(z, dot_rows(f, h3, w2, 2, 3, 5, &b2)) == 0);
    const Values& p = node_values(trace, "softmax (Softmax)");
    expected.clear();
    for (std::size_t row = 0; row < 2; ++row) {
        const auto begin = z.begin() + static_cast<std::ptrdiff_t>(row * 5);
        const TruthNumber& max = *std::max_element(begin, begin + 5, [](const TruthNumber& a, const TruthNumber& b) {
            return mpfr_less_p(a.backend().data(), b.backend().data()) != 0;
        });
        Values exps;
        TruthNumber sum = f.zero();
        for (auto it = begin; it != begin + 5; ++it) {
            exps.push_back(f.exp(f.sub(*it, max)));
            sum = f.add(sum, exps.back());
        }
        for (const TruthNumber& e : exps) expected.push_back(f.div(e, sum));
    }
    CHECK(mismatches(p, expected) == 0);
    const Values& e = node_values(trace, "exp (Exp)");
    expected.clear();
    for (const TruthNumber& v : z) expected.push_back(f.exp(v));
    CHECK(mismatches(e, expected) == 0);
    if (matmul_out) *matmul_out = h1;
    if (exp_out) *exp_out = e;
}

}  // namespace

TEST_CASE("an MLP in binary128 and binary256: every node's output bit for bit against MPFR", "[onnx][wide]") {
    std::mt19937_64 random(7);
    const std::vector<double> x = uniform(random, 8, -2, 2);
    SECTION("binary128") { check_mlp("binary128", ReferenceFormat::ieee_like(15, 112), x); }
    SECTION("binary256") { check_mlp("binary256", ReferenceFormat::ieee_like(19, 236), x); }
}

TEST_CASE("an MLP in e5m120: subnormal products and overflowing exponentials as the format rounds them",
          "[onnx][wide]") {
    // Row 0 large (z beyond log(2^16), where exp overflows to inf), row 1 tiny (products below
    // e5m120's smallest normal 2^-14).
    const std::vector<double> x = {19.75, -13.5, 17.25, 11.125, 3.1e-5, -2.7e-5, 1.9e-5, 2.3e-5};
    Values matmul, exps;
    check_mlp("e5m120", ReferenceFormat::ieee_like(5, 120), x, &matmul, &exps);
    const auto subnormal = [](const TruthNumber& v) {
        return !mpfr_zero_p(v.backend().data()) && mpfr_cmp_d(v.backend().data(), std::ldexp(1.0, -14)) < 0 &&
               mpfr_cmp_d(v.backend().data(), -std::ldexp(1.0, -14)) > 0;
    };
    CHECK(std::count_if(matmul.begin(), matmul.end(), subnormal) > 0);
    CHECK(std::count_if(exps.begin(), exps.end(), [](const TruthNumber& v) { return mpfr_inf_p(v.backend().data()); }) >
          0);
}

namespace {

const Values& values_of_node(const Trace& trace, std::size_t id) {
    const auto it = std::find_if(trace.regions().begin(), trace.regions().end(), [&](const TraceRegion& r) {
        return r.kind == "node" && r.index == static_cast<int>(id);
    });
    REQUIRE(it != trace.regions().end());
    REQUIRE(it->wide_values.size() == it->values.size());
    return it->wide_values;
}

/// Conv with a 3 x 3 kernel, pads 1, strides 1: each output a sequential fma sum over (channel,
/// kernel row, kernel column) from +0, the padding's taps reading +0, then its channel's bias added.
Values conv3x3(const ReferenceFormat& f, const Values& x, const onnx::Shape& shape, const Values& w,
               std::size_t out_channels, const Values& bias) {
    const auto batch = static_cast<std::size_t>(shape[0]), channels = static_cast<std::size_t>(shape[1]);
    const auto height = static_cast<std::int64_t>(shape[2]), width = static_cast<std::int64_t>(shape[3]);
    const TruthNumber zero = f.zero();
    Values y;
    for (std::size_t n = 0; n < batch; ++n)
        for (std::size_t m = 0; m < out_channels; ++m)
            for (std::int64_t oy = 0; oy < height; ++oy)
                for (std::int64_t ox = 0; ox < width; ++ox) {
                    std::vector<const TruthNumber*> xs, ws;
                    for (std::size_t c = 0; c < channels; ++c)
                        for (std::int64_t ky = 0; ky < 3; ++ky)
                            for (std::int64_t kx = 0; kx < 3; ++kx) {
                                const std::int64_t iy = oy + ky - 1, ix = ox + kx - 1;
                                const bool inside = iy >= 0 && iy < height && ix >= 0 && ix < width;
                                xs.push_back(inside ? &x[((n * channels + c) * static_cast<std::size_t>(height) +
                                                          static_cast<std::size_t>(iy)) *
                                                             static_cast<std::size_t>(width) +
                                                         static_cast<std::size_t>(ix)]
                                                    : &zero);
                                ws.push_back(&w[(m * channels + c) * 9 + static_cast<std::size_t>(ky * 3 + kx)]);
                            }
                    y.push_back(f.add(f.dot(ws, xs), bias[m]));
                }
    return y;
}

/// MaxPool 2 x 2, strides 2: exact.
Values max_pool2x2(const Values& x, const onnx::Shape& shape) {
    const auto planes = static_cast<std::size_t>(shape[0] * shape[1]);
    const auto height = static_cast<std::size_t>(shape[2]), width = static_cast<std::size_t>(shape[3]);
    Values y;
    for (std::size_t p = 0; p < planes; ++p)
        for (std::size_t oy = 0; oy < height / 2; ++oy)
            for (std::size_t ox = 0; ox < width / 2; ++ox) {
                const TruthNumber* best = nullptr;
                for (std::size_t dy = 0; dy < 2; ++dy)
                    for (std::size_t dx = 0; dx < 2; ++dx) {
                        const TruthNumber& v = x[(p * height + 2 * oy + dy) * width + 2 * ox + dx];
                        if (!best || mpfr_less_p(best->backend().data(), v.backend().data())) best = &v;
                    }
                y.push_back(*best);
            }
    return y;
}

/// The reference CNN's Conv, Relu, MaxPool and Gemm nodes against the reference, each from the
/// run's own values of its inputs (BatchNormalization and GlobalAveragePool are taken as they ran).
void check_cnn(const std::string& policy, const ReferenceFormat& f) {
    const Parameters p = Parameters::parse(find_workload("onnx").parameters(),
                                           {"model=" + (reference_models / "cnn.onnx").string(),
                                            "inputs=" + (reference_models / "cnn_input.npy").string()});
    const Trace trace = run(p, policy);
    const onnx::Graph g = onnx::read_model(reference_models / "cnn.onnx");
    const onnx::Tensor<double> input = onnx::read_input_file(reference_models / "cnn_input.npy");
    std::map<std::string, Values> values{{g.inputs.at(0).name, rounded_doubles(f, input.numbers)}};
    std::map<std::string, onnx::Shape> shapes{{g.inputs.at(0).name, input.shape}};
    const auto weights = [&](const std::string& name) { return rounded_doubles(f, g.initializers.at(name).numbers); };
    int checked = 0;
    for (const onnx::Node& node : g.nodes) {
        const Values& x = values.at(node.inputs.at(0));
        onnx::Shape shape = shapes.at(node.inputs.at(0));
        const Values& y = values_of_node(trace, node.id);
        INFO(policy << ", " << node.describe());
        if (node.op_type == "Conv") {
            const onnx::Tensor<double>& w = g.initializers.at(node.inputs.at(1));
            REQUIRE(w.shape.size() == 4);
            REQUIRE(w.shape[2] == 3);
            REQUIRE(node.ints_attribute("pads") == std::vector<std::int64_t>{1, 1, 1, 1});
            const auto out_channels = static_cast<std::size_t>(w.shape[0]);
            CHECK(mismatches(y, conv3x3(f, x, shape, weights(node.inputs[1]), out_channels, weights(node.inputs[2]))) ==
                  0);
            shape[1] = w.shape[0];
            ++checked;
        } else if (node.op_type == "Relu") {
            Values expected;
            for (const TruthNumber& v : x) expected.push_back(mpfr_sgn(v.backend().data()) < 0 ? f.zero() : v);
            CHECK(mismatches(y, expected) == 0);
            ++checked;
        } else if (node.op_type == "MaxPool") {
            CHECK(mismatches(y, max_pool2x2(x, shape)) == 0);
            shape[2] /= 2;
            shape[3] /= 2;
            ++checked;
        } else if (node.op_type == "GlobalAveragePool") {
            shape[2] = shape[3] = 1;
        } else if (node.op_type == "Flatten") {
            shape = {shape[0], shape[1]};
        } else if (node.op_type == "Gemm") {
            const onnx::Tensor<double>& w = g.initializers.at(node.inputs.at(1));
            const Values bias = weights(node.inputs.at(2));
            CHECK(mismatches(y, dot_rows(f, x, weights(node.inputs[1]), static_cast<std::size_t>(shape[0]),
                                         static_cast<std::size_t>(shape[1]), static_cast<std::size_t>(w.shape[0]),
                                         &bias)) == 0);
            shape = {shape[0], w.shape[0]};
            ++checked;
        }
        values[node.outputs.at(0)] = y;
        shapes[node.outputs.at(0)] = shape;
    }
    CHECK(checked == 6);  // two Convs, two Relus, the MaxPool, the Gemm
}

}  // namespace

TEST_CASE("the reference CNN in binary128 and binary256: Conv, Relu, MaxPool and Gemm bit for bit against MPFR",
          "[onnx][wide]") {
    SECTION("binary128") { check_cnn("binary128", ReferenceFormat::ieee_like(15, 112)); }
    SECTION("binary256") { check_cnn("binary256", ReferenceFormat::ieee_like(19, 236)); }
}

TEST_CASE("fp32 with a binary128 accumulator: fp32 operands and outputs, sums rounded in binary128", "[onnx][wide]") {
    std::mt19937_64 random(11);
    const std::vector<double> x = uniform(random, 8, -2, 2);
    const test::TempDir folder;
    const Trace trace = run(mlp_parameters(folder, x), "fp32; accumulate=binary128");
    const ReferenceFormat fp32 = ReferenceFormat::ieee_like(8, 23), quad = ReferenceFormat::ieee_like(15, 112);
    const onnx::Graph g = mlp_graph();
    const Values xs = rounded_doubles(fp32, x), w1 = rounded_doubles(fp32, g.initializers.at("W1").numbers);
    Values w1_transposed;
    for (std::size_t j = 0; j < 3; ++j)
        for (std::size_t i = 0; i < 4; ++i) w1_transposed.push_back(w1[i * 3 + j]);
    Values expected;
    for (const TruthNumber& v : dot_rows(quad, xs, w1_transposed, 2, 4, 3, nullptr))
        expected.push_back(fp32.rounded([&](mpfr_ptr r) { return mpfr_set(r, v.backend().data(), MPFR_RNDN); }));
    const auto it = std::find_if(trace.regions().begin(), trace.regions().end(),
                                 [](const TraceRegion& r) { return r.label == "matmul (MatMul)"; });
    REQUIRE(it != trace.regions().end());
    CHECK(it->wide_values.empty());  // an fp32 region: its doubles are its values
    Values made;
    for (double v : it->values) made.push_back(fp32.from_double(v));
    CHECK(mismatches(made, expected) == 0);
}

TEST_CASE("what a wide policy cannot take is refused before anything runs, naming the node and the role",
          "[onnx][wide]") {
    std::mt19937_64 random(3);
    const test::TempDir folder;
    const Parameters p = mlp_parameters(folder, uniform(random, 8, -1, 1));
    CHECK_THROWS_WITH(run(p, "binary128; matmul = nvidia_h100_fp8_e4m3"),
                      Catch::Contains("node 'matmul' (MatMul)") && Catch::Contains("a tensor-core matmul preset"));
    CHECK_THROWS_WITH(run(p, "binary128; ops Relu = fp8_e4m3fn"),
                      Catch::Contains("node 'relu' (Relu)") && Catch::Contains("the compute format 'fp8_e4m3'"));
    CHECK_THROWS_WITH(run(p, "binary128; weights = nf4"), Catch::Contains("needs formats within binary64"));
}

TEST_CASE("Sigmoid in binary128 is correctly rounded in every direction, near 1/2 and near 1 included",
          "[onnx][wide]") {
    // Tiny x: 1/2 plus less than binary128's last place, which a fixed-precision 1 / (1 + e^-x) gives as
    // 1/2 itself; x = +-200: 1 - e^-200, a fixed precision's 1. The reference: the four steps at 4000
    // bits, far closer than any of these values lies to a boundary, then rounded once.
    const std::vector<double> x = {1e-100, -1e-100, 1e-30, -2.5e-25, 200, -200, 0.75, -3.5, 40, 1e-5};
    onnx::Graph g;
    g.opset = 17;
    g.inputs.push_back(value_info("x", {static_cast<std::int64_t>(x.size())}));
    g.nodes.push_back(make_node("sigmoid", "Sigmoid", {"x"}, "y"));
    g.outputs = {value_info("y", {static_cast<std::int64_t>(x.size())})};
    const test::TempDir folder;
    onnx::write_model(g, folder.path() / "sigmoid.onnx");
    onnx::write_npy(folder.path() / "x.npy", doubles({static_cast<std::int64_t>(x.size())}, x));
    const Parameters p = Parameters::parse(find_workload("onnx").parameters(),
                                           {"model=" + (folder.path() / "sigmoid.onnx").string(),
                                            "inputs=" + (folder.path() / "x.npy").string()});
    const std::vector<std::pair<std::string, mpfr_rnd_t>> modes = {
        {"", MPFR_RNDN}, {"@rtz", MPFR_RNDZ}, {"@rup", MPFR_RNDU}, {"@rdn", MPFR_RNDD}};
    for (const auto& [mode, rnd] : modes) {
        INFO("binary128" << mode);
        const Trace trace = run(p, "binary128" + mode);
        const Values& y = node_values(trace, "sigmoid (Sigmoid)");
        REQUIRE(y.size() == x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            TruthNumber exact = truth_number(4000);
            mpfr_ptr e = exact.backend().data();
            mpfr_set_d(e, -x[i], MPFR_RNDN);
            mpfr_exp(e, e, MPFR_RNDN);
            mpfr_add_ui(e, e, 1, MPFR_RNDN);
            mpfr_ui_div(e, 1, e, MPFR_RNDN);
            TruthNumber expected = truth_number(113);
            mpfr_set(expected.backend().data(), e, rnd);
            INFO("x = " << x[i]);
            CHECK(mpfr_equal_p(y[i].backend().data(), expected.backend().data()));
        }
    }
}
