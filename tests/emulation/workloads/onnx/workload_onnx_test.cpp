// Tests of the onnx workload on the reference models (a CNN, a transformer encoder layer with fused
// and decomposed LayerNorm) that tests/data/onnx/write_reference_models.py writes with onnx.helper,
// against the float64 NumPy evaluation that script makes of each: the truth to double precision, the
// fp32 policy to fp32's; then how policies select nodes (ops, nodes, autocast, weights), and that
// the truth's lean data flow (constants read per node, regions measured as made) changes no number.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <mpfr.h>

#include "core/catalog.hpp"
#include "core/memory_budget.hpp"
#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/metric_vocabulary.hpp"
#include "emulation/simulation/region_measures.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/model_reader.hpp"
#include "emulation/workloads/onnx/model_writer.hpp"
#include "emulation/workloads/onnx/npy_writer.hpp"
#include "emulation/workloads/registry.hpp"
#include "tests/temp_dir.hpp"

using namespace floatscope;
using namespace floatscope::emu;

namespace {

const std::filesystem::path models = FLOATSCOPE_REFERENCE_MODELS;

const Workload& workload() { return find_workload("onnx"); }

Parameters parameters(const std::string& model, std::vector<std::string> more = {}) {
    more.push_back("model=" + (models / (model + ".onnx")).string());
    more.push_back("inputs=" + (models / (model + "_input.npy")).string());
    return Parameters::parse(workload().parameters(), more);
}

Trace run(const Parameters& p, const std::string& policy) {
    Trace trace;
    RunControl control;
    workload().run(p, parse_policy(policy), trace, control);
    return trace;
}

/// max |x - r| / max |r| of a region's values against NumPy's reference output.
double relative_difference(const std::vector<double>& x, const std::string& model) {
    const onnx::Tensor<double> reference = onnx::read_input_file(models / (model + "_reference.npy"));
    REQUIRE(reference.numbers.size() == x.size());
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        worst = std::max(worst, std::fabs(x[i] - reference.numbers[i]));
        scale = std::max(scale, std::fabs(reference.numbers[i]));
    }
    return worst / scale;
}

const TraceRegion& region_labelled(const Trace& trace, const std::string& label) {
    const auto it = std::find_if(trace.regions().begin(), trace.regions().end(),
                                 [&](const TraceRegion& r) { return r.label == label; });
    REQUIRE(it != trace.regions().end());
    return *it;
}

}  // namespace

TEST_CASE("the truth and the fp32 policy reproduce NumPy's float64 evaluation of each reference model") {
    for (const char* model : {"cnn", "encoder", "encoder_decomposed"}) {
        INFO(model);
        const Parameters p = parameters(model);
        const TruthPrecisionScope scope(256);
        TruthTrace truth;
        RunControl control;
        workload().run_ground_truth(p, 256, truth, control);
        const TruthRegion* output = truth.find("output", 0);
        REQUIRE(output != nullptr);
        std::vector<double> values;
        for (const TruthNumber& v : output->values) values.push_back(v.convert_to<double>());
        // NumPy's float64 evaluation rounds every operation: a few ulps of double apart.
        CHECK(relative_difference(values, model) < 1e-14);

        const Trace fp32 = run(p, "fp32");
        const TraceRegion& fp32_output = fp32.regions().back();
        CHECK(fp32_output.kind == "output");
        const double fp32_difference = relative_difference(fp32_output.values, model);
        CHECK(fp32_difference < 1e-5);  // binary32 throughout: 2^-24 per operation, grown over the graph
        CHECK(fp32_difference > 1e-9);  // and not the float64 evaluation

        // One region per node with a floating output, in graph order, labelled "name (Op)".
        const onnx::Graph graph = onnx::read_model(models / (std::string(model) + ".onnx"));
        std::size_t node_regions = 0;
        for (const TraceRegion& r : fp32.regions()) node_regions += r.kind == "node";
        CHECK(node_regions <= graph.nodes.size());
        CHECK(fp32.regions().front().label == graph.nodes.front().name + " (" + graph.nodes.front().op_type + ")");
    }
}

TEST_CASE("ops and nodes overrides change exactly the nodes they select") {
    const Parameters p = parameters("encoder");
    const Trace trace = run(p, "fp32; ops MatMul = bf16; nodes /encoder/layer.0/norm2/* = fp16");
    const core::FormatSpec bf16 = core::parse_format("bf16"), fp16 = core::parse_format("fp16"),
                           fp32 = core::parse_format("fp32");
    for (const TraceRegion& r : trace.regions()) {
        if (r.kind != "node") continue;
        INFO(r.label);
        const bool matmul = r.label.ends_with("(MatMul)");
        const bool norm2 = r.label.rfind("/encoder/layer.0/norm2/", 0) == 0;
        CHECK(r.format == (norm2 ? fp16 : matmul ? bf16 : fp32));
        // A MatMul's outputs are bf16 values.
        if (matmul)
            for (double v : r.values) CHECK(static_cast<double>(static_cast<float>(v)) == v);
    }
}

TEST_CASE("autocast: matrix products in the low format, softmax and layer norm in fp32, the rest promoted") {
    const Trace trace = run(parameters("encoder"), "autocast = fp16");
    const core::FormatSpec fp16 = core::parse_format("fp16"), fp32 = core::parse_format("fp32");
    CHECK(region_labelled(trace, "/encoder/layer.0/self_attn/q_proj/MatMul (MatMul)").format == fp16);
    CHECK(region_labelled(trace, "/encoder/layer.0/self_attn/Softmax (Softmax)").format == fp32);
    CHECK(region_labelled(trace, "/encoder/layer.0/norm1/LayerNormalization (LayerNormalization)").format == fp32);
    // The bias Add of an fp16 product and an fp32 bias promotes to fp32; so does the Div by the
    // 1-element fp32 divisor (rank 1: PyTorch's promotion leaves out only 0-d tensors); the Transpose
    // of an fp16 product stays fp16.
    CHECK(region_labelled(trace, "/encoder/layer.0/self_attn/q_proj/Add (Add)").format == fp32);
    CHECK(region_labelled(trace, "/encoder/layer.0/self_attn/MatMul (MatMul)").format == fp16);
    CHECK(region_labelled(trace, "/encoder/layer.0/self_attn/Div (Div)").format == fp32);
    CHECK(region_labelled(trace, "/encoder/layer.0/self_attn/Transpose_3 (Transpose)").format == fp16);
}

TEST_CASE("weights = SCHEME quantizes the matrix products' weights: fewer bits, larger error") {
    const Parameters p = parameters("cnn");
    const std::string label = run(p, "fp32").regions().front().label;
    REQUIRE(label.ends_with("(Conv)"));
    const auto error_of = [&](const std::string& policy) {
        return relative_difference(run(p, policy).regions().back().values, "cnn");
    };
    const double fp32 = error_of("fp32"), int8 = error_of("fp32; weights = int8"),
                 int4 = error_of("fp32; weights = int4");
    CHECK(fp32 < int8);
    CHECK(int8 < int4);
    CHECK_THROWS_WITH(run(p, "fp32; weights = int17"), Catch::Contains("weights = int17"));
}

TEST_CASE("the engine measures every node against the truth, save-outputs writes the outputs NumPy reads") {
    const test::TempDir out;
    RunRequest request;
    request.workload = &workload();
    request.parameters = parameters("encoder", {"save-outputs=" + out.path().string()});
    request.policies = {parse_policy("fp32"), parse_policy("bf16")};
    RunControl control;
    const Report report = run(request, control);
    double fp32_error = -1, bf16_error = -1;
    for (const ReportRow& row : report.rows)
        if (row.region_kind == "output" && row.metric == metric::normwise_rel_error)
            (row.policy == "fp32" ? fp32_error : bf16_error) = row.value;
    CHECK(fp32_error > 0);
    CHECK(fp32_error < 1e-5);
    CHECK(bf16_error > 1e-3);
    const onnx::Tensor<double> truth = onnx::read_input_file(out.path() / "truth_y.npy");
    CHECK(relative_difference(truth.numbers, "encoder") < 1e-14);
    CHECK(relative_difference(onnx::read_input_file(out.path() / "bf16_y.npy").numbers, "encoder") > 1e-3);
}

TEST_CASE("bad setups are refused before anything runs, naming what is wrong") {
    const auto error_of = [](std::vector<std::string> assignments) {
        try {
            workload().check(Parameters::parse(workload().parameters(), assignments));
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error_of({}), Catch::Contains("--set model=FILE.onnx"));
    const std::string model = "model=" + (models / "encoder.onnx").string();
    CHECK_THAT(error_of({model, "inputs=a.npy,b.npy"}), Catch::Contains("takes 1 input(s)"));
    CHECK_THAT(error_of({model, "inputs=" + (models / "cnn_input.npy").string()}), Catch::Contains("input 'x'"));
    CHECK_THAT(error_of({model, "save-outputs=/no/such/folder"}), Catch::Contains("is not a folder"));
    CHECK_THAT(error_of({"model=/no/such.onnx"}), Catch::Contains("/no/such.onnx"));
}

TEST_CASE("a graph whose intermediate tensors outgrow the memory limit is refused before it allocates them") {
    // ConstantOfShape [10^7] -> ReduceSum: a small model and a scalar output, 10^7 values between.
    onnx::Graph graph;
    graph.opset = 13;
    graph.initializers["shape"] = onnx::integer_tensor<double>(onnx::ElementType::Int64, {1}, {10'000'000});
    onnx::Attribute one;
    one.kind = onnx::Attribute::Kind::Tensor;
    one.t = onnx::number_tensor<double>(onnx::ElementType::Float, {1}, {1.0});
    graph.nodes = {{"/Fill", "ConstantOfShape", "", {"shape"}, {"big"}, {{"value", one}}},
                   {"/Sum", "ReduceSum", "", {"big"}, {"total"}, {}}};
    graph.outputs = {{"total", onnx::ElementType::Float, {1}, {}}};
    test::TempDir dir;
    const std::filesystem::path model = dir.path() / "fill.onnx";
    onnx::write_model(graph, model);
    const Parameters p = Parameters::parse(workload().parameters(), {"model=" + model.string()});

    const std::uint64_t limit = core::memory_limit();
    core::set_memory_limit(std::uint64_t{64} << 20);
    // The truth's 10^7 MPFR numbers (about 0.8 GB), and the emulated run's 10^7 doubles (76 MiB).
    TruthTrace truth;
    RunControl control;
    CHECK_THROWS_WITH(workload().run_ground_truth(p, 256, truth, control),
                      Catch::Contains("node '/Fill' (ConstantOfShape): an output of shape [10000000] needs") &&
                          Catch::Contains("the limit is 64 MiB"));
    CHECK_THROWS_WITH(run(p, "fp32"),
                      Catch::Contains("(ConstantOfShape): an output of shape [10000000] needs 76.3 MiB"));
    core::set_memory_limit(std::uint64_t{256} << 20);
    CHECK_NOTHROW(run(p, "fp32"));  // within the limit it runs
    core::set_memory_limit(limit);
}

TEST_CASE("labels outside the model's classes are refused, naming the label and the classes") {
    // Two rows of three class scores; labels 1 and 3 (of classes 0..2).
    onnx::Graph graph;
    graph.opset = 13;
    graph.inputs = {{"x", onnx::ElementType::Float, {2, 3}, {}}};
    graph.nodes = {{"/Relu", "Relu", "", {"x"}, {"scores"}, {}}};
    graph.outputs = {{"scores", onnx::ElementType::Float, {2, 3}, {}}};
    test::TempDir dir;
    const std::filesystem::path model = dir.path() / "scores.onnx", labels = dir.path() / "labels.npy";
    onnx::write_model(graph, model);
    onnx::write_npy(labels, onnx::integer_tensor<double>(onnx::ElementType::Int64, {2}, {1, 3}));
    const Parameters p =
        Parameters::parse(workload().parameters(), {"model=" + model.string(), "labels=" + labels.string()});
    CHECK_THROWS_WITH(run(p, "fp32"), Catch::Contains("label 3 of row 1 is not one of the model's 3 classes (0..2)"));
    onnx::write_npy(labels, onnx::integer_tensor<double>(onnx::ElementType::Int64, {2}, {1, 2}));
    CHECK_NOTHROW(run(p, "fp32"));
}

TEST_CASE("a MatMul under an FP8 preset reports what entered e4m3 beside its fp32 outputs", "[onnx]") {
    // x (2x3) MatMul w (3x2), then Relu. Under `fp32; matmul = nvidia_h100_fp8_e4m3` the MatMul writes
    // fp32 and rounds its operands into e4m3, where 1000 overflows (448 the largest) and 2^-12
    // underflows (2^-9 the smallest): the value-range plots shade e4m3 over these operands.
    const std::vector<double> x = {1000, -3, 0.5, 0.000244140625, 7, 0}, w = {1, -0.25, 300, 2, -0.0009765625, 0.125};
    onnx::Graph graph;
    graph.opset = 13;
    graph.inputs = {{"x", onnx::ElementType::Float, {2, 3}, {}}};
    graph.initializers["w"] = onnx::number_tensor<double>(onnx::ElementType::Float, {3, 2}, w);
    graph.nodes = {{"/MatMul", "MatMul", "", {"x", "w"}, {"y"}, {}}, {"/Relu", "Relu", "", {"y"}, {"z"}, {}}};
    graph.outputs = {{"z", onnx::ElementType::Float, {2, 2}, {}}};
    test::TempDir dir;
    const std::filesystem::path model = dir.path() / "matmul.onnx", inputs = dir.path() / "x.npy";
    onnx::write_model(graph, model);
    onnx::write_npy(inputs, onnx::number_tensor<double>(onnx::ElementType::Float, {2, 3}, x));
    const Parameters p =
        Parameters::parse(workload().parameters(), {"model=" + model.string(), "inputs=" + inputs.string()});
    const std::string fp8 = "fp32; matmul = nvidia_h100_fp8_e4m3";

    // floor(log2 |v|) of each nonzero operand, from frexp's |v| in [2^(e-1), 2^e).
    std::map<int, std::uint64_t> expected;
    for (const std::vector<double>* operand : {&x, &w})
        for (const double v : *operand) {
            int exponent = 0;
            std::frexp(v, &exponent);
            if (v != 0) ++expected[exponent - 1];
        }
    const Trace trace = run(p, fp8);
    const TraceRegion& matmul = region_labelled(trace, "/MatMul (MatMul)");
    CHECK(matmul.format == core::parse_format("fp32"));
    REQUIRE(matmul.operands);
    CHECK(matmul.operands->log2_counts == expected);
    CHECK_FALSE(region_labelled(trace, "/Relu (Relu)").operands);  // no matrix product
    CHECK_FALSE(region_labelled(run(p, "fp32"), "/MatMul (MatMul)").operands);  // operands in the output format

    // The engine's rows: e4m3's published range (OCP FP8) and the counts, the MatMul's alone.
    RunRequest request;
    request.workload = &workload();
    request.parameters = p;
    request.policies = {parse_policy(fp8)};
    RunControl control;
    std::map<std::string, double> operand_rows;
    for (const ReportRow& row : emu::run(request, control).rows)
        if (row.metric.starts_with("operand_")) {
            CHECK(row.region == "/MatMul (MatMul)");
            operand_rows[row.metric] = row.value;
        }
    CHECK(operand_rows.at(metric::operand_format_max) == 448);
    CHECK(operand_rows.at(metric::operand_format_min_normal) == std::ldexp(1.0, -6));
    CHECK(operand_rows.at(metric::operand_format_min_subnormal) == std::ldexp(1.0, -9));
    CHECK(operand_rows.at("operand_log2_hist_9") == 1);  // 1000
    CHECK(operand_rows.at("operand_log2_hist_-12") == 1);  // 2^-12
    CHECK(operand_rows.size() == 3 + expected.size());
}

TEST_CASE("first= takes a held-out split of IDX images and their labels", "[onnx]") {
    // Five 2x2 images whose pixels count 0..19, labels 0,1,2,0,1; the model passes the pixels on.
    const auto idx = [](const std::vector<std::uint32_t>& dims, unsigned char count) {
        std::string s = {'\0', '\0', '\x08', static_cast<char>(dims.size())};
        for (std::uint32_t d : dims)
            for (int shift : {24, 16, 8, 0}) s += static_cast<char>((d >> shift) & 0xFF);
        for (unsigned char v = 0; v < count; ++v) s += static_cast<char>(dims.size() == 1 ? v % 3 : v);
        return s;
    };
    onnx::Graph graph;
    graph.opset = 13;
    graph.inputs = {{"x", onnx::ElementType::Float, {-1, 4}, {}}};
    graph.nodes = {{"/Relu", "Relu", "", {"x"}, {"scores"}, {}}};
    graph.outputs = {{"scores", onnx::ElementType::Float, {-1, 4}, {}}};
    test::TempDir dir;
    const std::filesystem::path model = dir.path() / "pass.onnx";
    onnx::write_model(graph, model);
    const std::filesystem::path images = dir.write("images.idx", idx({5, 2, 2}, 20));
    const std::filesystem::path labels = dir.write("labels.idx", idx({5}, 5));
    const auto with = [&](const std::string& first, const std::string& batch) {
        return Parameters::parse(workload().parameters(), {"model=" + model.string(), "inputs=" + images.string(),
                                                           "labels=" + labels.string(), "first=" + first,
                                                           "batch=" + batch});
    };
    const Trace trace = run(with("2", "2"), "fp32");
    const TraceRegion& output = region_labelled(trace, "scores");
    REQUIRE(output.values.size() == 8);
    for (std::size_t i = 0; i < 8; ++i) CHECK(output.values[i] == static_cast<float>((8 + i) / 255.0));
    // Images 2 and 3 have labels 2 and 0; the scores' largest entry is the last (class 3): none right.
    CHECK(output.metrics.front().value == 0);
    // Past the end: fewer images (one), and none at all is refused.
    CHECK(region_labelled(run(with("4", "3"), "fp32"), "scores").values.size() == 4);
    CHECK_THROWS_WITH(run(with("5", "1"), "fp32"), Catch::Contains("first=5 but"));
    const Parameters drawn = Parameters::parse(workload().parameters(), {"model=" + model.string(), "first=1"});
    CHECK_THROWS_WITH(run(drawn, "fp32"), Catch::Contains("first= picks images of IDX files"));
}

namespace {

/// Whether two truth numbers are the same number: value, sign of zero, NaN (precision aside: a
/// double held at 53 bits is the same number at 256).
bool same_truth(const TruthNumber& a, const TruthNumber& b) {
    mpfr_srcptr x = a.backend().data(), y = b.backend().data();
    if (mpfr_nan_p(x) || mpfr_nan_p(y)) return mpfr_nan_p(x) && mpfr_nan_p(y);
    return mpfr_equal_p(x, y) && mpfr_signbit(x) == mpfr_signbit(y);
}

/// Every node's floating outputs of the truth of `graph`, node after node.
std::vector<std::vector<TruthNumber>> truth_of_every_node(const onnx::Graph& graph,
                                                         std::vector<onnx::Tensor<TruthNumber>> inputs) {
    std::vector<std::vector<TruthNumber>> made;
    const onnx::TruthNumerics numerics(256);
    const onnx::NodeObserver<TruthNumber> keep = [&](std::size_t, const auto& outputs) {
        for (const onnx::Tensor<TruthNumber>* t : outputs)
            if (t && t->floating()) made.push_back(t->numbers);
    };
    onnx::evaluate_graph<onnx::TruthNumerics>(graph, graph.initializers, std::move(inputs),
                                              [&](std::size_t) { return numerics; }, keep, nullptr);
    return made;
}

}  // namespace

TEST_CASE("the truth reads constants at 53 bits, one node at a time: the same numbers as at 256 bits") {
    // The other path: the same graph with its initializers as inputs, handed in at the truth's 256 bits.
    const TruthPrecisionScope scope(256);
    const onnx::TruthNumerics numerics(256);
    for (const char* model : {"cnn", "encoder", "encoder_decomposed"}) {
        INFO(model);
        const onnx::Graph graph = onnx::read_model(models / (std::string(model) + ".onnx"));
        const onnx::Tensor<double> input = onnx::read_input_file(models / (std::string(model) + "_input.npy"));
        const auto at_256_bits = [&](const onnx::Tensor<double>& t) {
            return onnx::convert_numbers<TruthNumber>(t, [&](double v) {
                TruthNumber x;
                mpfr_set_prec(x.backend().data(), 256);
                mpfr_set_d(x.backend().data(), v, MPFR_RNDN);
                return x;
            });
        };
        onnx::Graph constants_as_inputs = graph;
        std::vector<onnx::Tensor<TruthNumber>> wide_inputs = {at_256_bits(input)};
        for (const auto& [name, t] : graph.initializers) {
            constants_as_inputs.inputs.push_back({name, t.type, t.shape, {}});
            wide_inputs.push_back(at_256_bits(t));
        }
        constants_as_inputs.initializers.clear();
        const auto wide = truth_of_every_node(constants_as_inputs, std::move(wide_inputs));
        const auto lean = truth_of_every_node(graph, {at_256_bits(input)});
        REQUIRE(wide.size() == lean.size());
        REQUIRE(wide.size() == graph.nodes.size());
        std::size_t compared = 0;
        for (std::size_t i = 0; i < wide.size(); ++i) {
            REQUIRE(wide[i].size() == lean[i].size());
            for (std::size_t j = 0; j < wide[i].size(); ++j, ++compared)
                if (!same_truth(wide[i][j], lean[i][j])) FAIL("node " << i << " element " << j << " differs");
        }
        CHECK(compared > 1000);
    }
}

TEST_CASE("the engine's measures equal region_rows against the whole truth, on 1 and 2 threads") {
    // The truth measures each region as it makes it and drops it (engine.cpp); the reference keeps
    // the whole truth and measures each policy's trace afterwards. Drawn inputs of a wide spread
    // as well as the model's own: LayerNorm's and the residuals' cancellations with large values.
    const std::vector<std::string> policies = {"fp32", "bf16", "fp8_e4m3; accumulate=fp32"};
    for (const auto& [model, more] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"encoder", {}}, {"cnn", {}}, {"crnn", {}}, {"encoder", {"input=uniform", "input-scale=3000"}}}) {
        Parameters p = parameters(model);
        if (!more.empty()) {
            std::vector<std::string> drawn = more;
            drawn.push_back("model=" + (models / (model + ".onnx")).string());
            drawn.push_back("batch=2");
            p = Parameters::parse(workload().parameters(), drawn);
        }
        std::vector<ReportRow> expected;
        {
            const TruthPrecisionScope scope(256);
            TruthTrace whole;
            RunControl control;
            workload().run_ground_truth(p, 256, whole, control);
            for (const std::string& policy : policies) {
                const Trace trace = run(p, policy);
                for (const TraceRegion& region : trace.regions()) {
                    const TruthRegion* truth = whole.find(region.kind, region.index);
                    REQUIRE(truth != nullptr);
                    REQUIRE_FALSE(truth->values.empty());
                    const std::vector<ReportRow> rows = region_rows("r", "onnx", policy, region, truth);
                    expected.insert(expected.end(), rows.begin(), rows.end());
                }
            }
        }
        for (int threads : {1, 2}) {
            INFO(model << " on " << threads << " thread(s)");
            RunRequest request;
            request.run_id = "r";
            request.workload = &workload();
            request.parameters = p;
            for (const std::string& policy : policies) request.policies.push_back(parse_policy(policy));
            request.threads = threads;
            RunControl control;
            std::vector<ReportRow> measured;
            for (const ReportRow& row : run(request, control).rows)
                if (row.policy != "ground-truth" && row.region_kind != metric::whole_run_kind) measured.push_back(row);
            REQUIRE(measured.size() == expected.size());
            for (std::size_t i = 0; i < measured.size(); ++i) {
                INFO("row " << i << ": " << expected[i].policy << ", " << expected[i].region << ", "
                            << expected[i].metric);
                CHECK(measured[i] == expected[i]);  // NaN equal to NaN
            }
        }
    }
}

TEST_CASE("initializers are rounded to the storage format, read as they are only where that changes none") {
    // Identity of an initializer gives it as stored. float64 values that are not binary32 values must
    // be rounded into an fp32 storage (a float32 model's weights are read without a copy); a
    // non-machine storage (bf16) rounds binary32 values too. References: the machine's own float
    // conversion, and bf16 values worked out by hand (0x3DCD, 0x3F00, 0x3EAB).
    const auto model_with = [](onnx::ElementType type, std::vector<double> values, const std::filesystem::path& to) {
        onnx::Graph graph;
        graph.opset = 13;
        graph.initializers["w"] = onnx::number_tensor<double>(type, {3}, std::move(values));
        graph.nodes = {{"/Copy", "Identity", "", {"w"}, {"y"}, {}}};
        graph.outputs = {{"y", type, {3}, {}}};
        onnx::write_model(graph, to);
    };
    const auto stored = [](const std::filesystem::path& model, const std::string& policy) {
        const Trace trace = run(Parameters::parse(workload().parameters(), {"model=" + model.string()}), policy);
        const auto it = std::find_if(trace.regions().begin(), trace.regions().end(),
                                     [](const TraceRegion& r) { return r.kind == "output"; });
        REQUIRE(it != trace.regions().end());
        return it->values;
    };
    test::TempDir dir;
    const std::vector<double> wide = {0.1, 0.5, 1.0 / 3};
    std::vector<double> narrow;
    for (double v : wide) narrow.push_back(static_cast<float>(v));
    model_with(onnx::ElementType::Double, wide, dir.path() / "wide.onnx");
    model_with(onnx::ElementType::Float, narrow, dir.path() / "narrow.onnx");
    const std::vector<double> in_bf16 = {0.10009765625, 0.5, 0.333984375};

    CHECK(stored(dir.path() / "wide.onnx", "fp64; storage=fp32") == narrow);
    CHECK(stored(dir.path() / "wide.onnx", "fp64") == wide);
    CHECK(stored(dir.path() / "wide.onnx", "fp64; storage=bf16") == in_bf16);
    CHECK(stored(dir.path() / "narrow.onnx", "fp64; storage=fp32") == narrow);
    CHECK(stored(dir.path() / "narrow.onnx", "fp64; storage=bf16") == in_bf16);
}
