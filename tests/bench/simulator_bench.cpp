// Speed of the simulator on its neural-network workloads: mlp-forward under six policies plus the
// MPFR ground truth through the engine, one train-mlp epoch on Fashion-MNIST, native float beside both.
#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include <sys/resource.h>

#include <chrono>
#include <string>
#include <vector>

#include "emulation/simulation/engine.hpp"
#include "emulation/simulation/workload.hpp"
#include "emulation/workloads/data/image_dataset.hpp"
#include "emulation/workloads/mlp_forward.hpp"
#include "emulation/workloads/registry.hpp"

namespace {

using namespace floatscope::emu;

const std::vector<std::string> mlp_policies = {
    "fp32", "bf16", "fp16", "fp8_e4m3", "bf16; accumulate=fp32", "fp8_e4m3; accumulate=fp32"};

Parameters defaults(const Workload& w, const std::vector<std::string>& assignments = {}) {
    return Parameters::parse(w.parameters(), assignments);
}

/// CPU seconds of the whole process, every thread's (user and system).
double process_cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// The whole request of the goal: mlp-forward's defaults, six policies and the ground truth, on
/// state.range(0) threads; `cores` is the CPU time over the wall time (the cores kept busy).
void mlp_forward_engine(benchmark::State& state) {
    RunRequest request;
    request.workload = &find_workload("mlp-forward");
    request.parameters = defaults(*request.workload);
    request.threads = static_cast<int>(state.range(0));
    for (const std::string& p : mlp_policies) request.policies.push_back(parse_policy(p));
    double total = 0, truth = 0, cpu = 0;
    for (auto _ : state) {
        RunControl control;
        const auto start = std::chrono::steady_clock::now();
        const double cpu_start = process_cpu_seconds();
        const Report report = run(request, control);
        cpu += process_cpu_seconds() - cpu_start;
        total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (const ReportRow& row : report.rows)
            if (row.metric == "ground_truth_seconds") truth += row.value;
        benchmark::DoNotOptimize(report.rows.data());
    }
    state.counters["ground_truth_s"] = benchmark::Counter(truth, benchmark::Counter::kAvgIterations);
    state.counters["ground_truth_share"] = truth / total;
    state.counters["cores"] = cpu / total;
}

/// One policy alone, through the workload (no error measurement).
void mlp_forward_policy(benchmark::State& state, const std::string& policy_text) {
    const Workload& w = find_workload("mlp-forward");
    const Parameters p = defaults(w);
    const PrecisionPolicy policy = parse_policy(policy_text);
    for (auto _ : state) {
        Trace trace;
        RunControl control;
        w.run(p, policy, trace, control);
        benchmark::DoNotOptimize(trace.regions().data());
    }
}

void mlp_forward_ground_truth(benchmark::State& state) {
    const Workload& w = find_workload("mlp-forward");
    const Parameters p = defaults(w);
    for (auto _ : state) {
        TruthTrace truth;
        RunControl control;
        w.run_ground_truth(p, 256, truth, control);
        benchmark::DoNotOptimize(truth.regions().data());
    }
}

/// Native baseline: the same network in float with Eigen (x w + b, relu, 16 layers).
void mlp_forward_native(benchmark::State& state) {
    const MlpForwardNetwork net = mlp_forward_network(defaults(find_workload("mlp-forward")));
    using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const auto to_float = [](const Matrix& m) {
        RowMatrix f(m.rows, m.cols);
        for (std::size_t i = 0; i < m.values.size(); ++i) f.data()[i] = static_cast<float>(m.values[i]);
        return f;
    };
    std::vector<RowMatrix> weights;
    std::vector<Eigen::RowVectorXf> biases;
    for (std::size_t l = 0; l < net.weights.size(); ++l) {
        weights.push_back(to_float(net.weights[l]));
        biases.push_back(
            Eigen::Map<const Eigen::RowVectorXd>(net.biases[l].data(), net.biases[l].size()).cast<float>());
    }
    const RowMatrix input = to_float(net.input);
    for (auto _ : state) {
        RowMatrix x = input;
        for (std::size_t l = 0; l < weights.size(); ++l) {
            RowMatrix h = x * weights[l];
            h.rowwise() += biases[l];
            x = h.cwiseMax(0.0f);
        }
        benchmark::DoNotOptimize(x.data());
    }
}

/// One epoch of train-mlp on Fashion-MNIST (data loading and the test accuracy at the end of the
/// epoch included); `train_size` 0 is the full training set.
void train_epoch(benchmark::State& state, const std::string& policy_text, int train_size) {
    if (!std::filesystem::exists(std::filesystem::path(fashion_mnist_directory) / "train-images-idx3-ubyte.gz")) {
        state.SkipWithError("Fashion-MNIST is not installed (apt install dataset-fashion-mnist)");
        return;
    }
    const Workload& w = find_workload("train-mlp");
    const Parameters p = defaults(w, {"epochs=1", "train-size=" + std::to_string(train_size)});
    const PrecisionPolicy policy = parse_policy(policy_text);
    for (auto _ : state) {
        Trace trace;
        RunControl control;
        w.run(p, policy, trace, control);
        for (const TraceRegion& r : trace.regions())
            if (r.kind == "epoch")
                for (const RegionMetric& m : r.metrics)
                    if (m.name == "test_accuracy") state.counters["test_accuracy"] = m.value;
    }
}

/// Native baseline of the epoch: 784-100-10, relu, softmax cross-entropy, SGD with momentum, in
/// float with Eigen, batches of 64 in the data's order.
void train_epoch_native(benchmark::State& state) {
    if (!std::filesystem::exists(std::filesystem::path(fashion_mnist_directory) / "train-images-idx3-ubyte.gz")) {
        state.SkipWithError("Fashion-MNIST is not installed (apt install dataset-fashion-mnist)");
        return;
    }
    const ImageDataset data = load_fashion_mnist(fashion_mnist_directory, true);
    using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const int batch = 64, in = 784, hidden = 100, classes = 10;
    for (auto _ : state) {
        RowMatrix w1 = RowMatrix::Random(in, hidden) / 28.0f, w2 = RowMatrix::Random(hidden, classes) / 10.0f;
        Eigen::RowVectorXf b1 = Eigen::RowVectorXf::Zero(hidden), b2 = Eigen::RowVectorXf::Zero(classes);
        RowMatrix v1 = RowMatrix::Zero(in, hidden), v2 = RowMatrix::Zero(hidden, classes);
        const float lr = 0.05f, mu = 0.9f;
        for (std::size_t first = 0; first + batch <= data.size(); first += batch) {
            RowMatrix x(batch, in);
            for (int i = 0; i < batch; ++i)
                for (int j = 0; j < in; ++j) x(i, j) = data.pixels[(first + i) * in + j] / 255.0f;
            RowMatrix h = x * w1;
            h.rowwise() += b1;
            const RowMatrix a = h.cwiseMax(0.0f);
            RowMatrix logits = a * w2;
            logits.rowwise() += b2;
            RowMatrix g(batch, classes);
            for (int i = 0; i < batch; ++i) {
                const Eigen::RowVectorXf e = (logits.row(i).array() - logits.row(i).maxCoeff()).exp();
                g.row(i) = e / e.sum();
                g(i, data.labels[first + i]) -= 1;
            }
            g /= static_cast<float>(batch);
            const RowMatrix gw2 = a.transpose() * g;
            const Eigen::RowVectorXf gb2 = g.colwise().sum();
            const RowMatrix da = (g * w2.transpose()).cwiseProduct((h.array() > 0).cast<float>().matrix());
            const RowMatrix gw1 = x.transpose() * da;
            const Eigen::RowVectorXf gb1 = da.colwise().sum();
            v1 = mu * v1 + gw1;
            v2 = mu * v2 + gw2;
            w1 -= lr * v1;
            w2 -= lr * v2;
            b1 -= lr * gb1;
            b2 -= lr * gb2;
        }
        benchmark::DoNotOptimize(w1.data());
    }
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::RegisterBenchmark("mlp-forward/engine/6-policies+ground-truth", mlp_forward_engine)
        ->ArgName("threads")
        ->Arg(1)
        ->Arg(2)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
    for (const std::string& p : mlp_policies)
        benchmark::RegisterBenchmark(("mlp-forward/policy/" + p).c_str(), mlp_forward_policy, p)
            ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("mlp-forward/ground-truth", mlp_forward_ground_truth)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("mlp-forward/baseline/eigen_float", mlp_forward_native)->Unit(benchmark::kMillisecond);
    // bf16 operands with fp32 accumulation (AMP with bf16), and with bf16 accumulation (the narrow
    // kernel, its products checked to be floats on the data), on the full set and a tenth of it.
    for (const auto& [p, size] :
         {std::pair<std::string, int>{"bf16; storage=fp32; accumulate=fp32", 0}, {"bf16", 6000}, {"bf16", 0}})
        benchmark::RegisterBenchmark(("train-mlp/epoch/" + p + "/train-size=" + std::to_string(size)).c_str(),
                                     train_epoch, p, size)
            ->Unit(benchmark::kSecond)
            ->Iterations(1);
    benchmark::RegisterBenchmark("train-mlp/epoch/baseline/eigen_float", train_epoch_native)
        ->Unit(benchmark::kSecond)
        ->Iterations(1);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
