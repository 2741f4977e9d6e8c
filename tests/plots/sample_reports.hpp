// Hand-made Reports shaped like the engine's rows (emulation/simulation/engine.hpp), for the plot tests:
// every number is written here, so expectations do not come from the code under test.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "emulation/simulation/report.hpp"

namespace floatscope::test {

inline emu::ReportRow row(std::string policy, std::string kind, int index, std::string region, std::string metric,
                          double value, std::string run = "1") {
    return {std::move(run), "sample",          std::move(policy), std::move(kind),
            index,          std::move(region), std::move(metric), value};
}

/// mlp-forward-like: 4 policies x 6 layers of errors and exception counts, one whole-run timing row
/// per policy, and a log2|x| histogram of layer 2 under fp16 and under a flushing e4m3 variant.
inline emu::Report sample_layers_report() {
    emu::Report report;
    report.floatscope_version = "0.1.0";
    report.created = "2026-11-29T18:00:00Z";
    report.runs.push_back({"1", "sample", {{"depth", "6"}}, {{"fp16", "fp16"}}, 256});
    const std::vector<std::string> policies = {"fp32", "bf16", "fp16", "fp8_e4m3"};
    const double first_error[] = {6e-8, 4e-3, 5e-4, 6e-2};
    for (int layer = 0; layer < 6; ++layer) {
        const std::string region = "layer " + std::to_string(layer) + " (relu)";
        for (std::size_t p = 0; p < policies.size(); ++p) {
            const double rel = first_error[p] * std::pow(2.0, layer);  // error doubling per layer
            report.rows.push_back(row(policies[p], "layer", layer, region, "rel_error_max", rel));
            report.rows.push_back(row(policies[p], "layer", layer, region, "bits_correct_min", -std::log2(rel)));
            report.rows.push_back(row(policies[p], "layer", layer, region, "value_count", 1024));
            // fp16 overflows from layer 4 on, 16 then 256 of 1024 values; the others never.
            const double overflow = policies[p] == "fp16" ? (layer == 4 ? 16 : layer == 5 ? 256 : 0) : 0;
            report.rows.push_back(row(policies[p], "layer", layer, region, "overflow_count", overflow));
            report.rows.push_back(row(policies[p], "layer", layer, region, "overflow_fraction", overflow / 1024));
            report.rows.push_back(
                row(policies[p], "layer", layer, region, "nan_fraction", p == 3 && layer == 5 ? 0.5 : 0));
            // fp8 underflows a quarter of layer 0's values.
            report.rows.push_back(row(policies[p], "layer", layer, region, "underflow_to_zero_fraction",
                                      p == 3 && layer == 0 ? 0.25 : 0));
        }
    }
    for (const std::string& policy : policies) report.rows.push_back(row(policy, "run", 0, "run", "seconds", 0.5));
    // fp16: max 65504, min normal 2^-14, min subnormal 2^-24 (IEEE 754-2019 binary16).
    const std::pair<int, double> bins[] = {{-27, 3}, {-20, 40}, {-10, 300}, {0, 500}, {10, 150}, {16, 31}};
    for (const auto& [k, count] : bins)
        report.rows.push_back(row("fp16", "layer", 2, "layer 2 (relu)", "log2_hist_" + std::to_string(k), count));
    report.rows.push_back(row("fp16", "layer", 2, "layer 2 (relu)", "format_max", 65504));
    report.rows.push_back(row("fp16", "layer", 2, "layer 2 (relu)", "format_min_normal", std::ldexp(1.0, -14)));
    report.rows.push_back(row("fp16", "layer", 2, "layer 2 (relu)", "format_min_subnormal", std::ldexp(1.0, -24)));
    // A format that flushes subnormals: its smallest value is its smallest normal, 2^-6 (e4m3, OCP).
    report.rows.push_back(row("fp8_e4m3", "layer", 2, "layer 2 (relu)", "log2_hist_-3", 7));
    report.rows.push_back(row("fp8_e4m3", "layer", 2, "layer 2 (relu)", "format_max", 448));
    report.rows.push_back(row("fp8_e4m3", "layer", 2, "layer 2 (relu)", "format_min_normal", std::ldexp(1.0, -6)));
    report.rows.push_back(row("fp8_e4m3", "layer", 2, "layer 2 (relu)", "format_min_subnormal", std::ldexp(1.0, -6)));
    return report;
}

/// train-mlp-like: 3 epochs under two policies, with loss scaling under fp16, the fraction of each
/// of 3 layers' gradients flushed to zero per epoch, and the loss and scale of logged steps.
inline emu::Report sample_training_report() {
    emu::Report report;
    const double train_loss[2][3] = {{0.9, 0.6, 0.5}, {1.1, 0.8, 0.7}};
    const double test_accuracy[2][3] = {{0.80, 0.84, 0.86}, {0.75, 0.79, 0.81}};
    const std::string policies[2] = {"fp32", "fp16 + loss scaling"};
    for (int p = 0; p < 2; ++p) {
        for (int epoch = 0; epoch < 3; ++epoch) {
            const std::string region = "epoch " + std::to_string(epoch + 1);
            report.rows.push_back(row(policies[p], "epoch", epoch, region, "train_loss", train_loss[p][epoch]));
            report.rows.push_back(row(policies[p], "epoch", epoch, region, "test_loss", train_loss[p][epoch] + 0.05));
            report.rows.push_back(
                row(policies[p], "epoch", epoch, region, "train_accuracy", test_accuracy[p][epoch] + 0.02));
            report.rows.push_back(row(policies[p], "epoch", epoch, region, "test_accuracy", test_accuracy[p][epoch]));
            // Layer l loses (l + 1) / 10 of its gradients under fp16, a little less each epoch; none in fp32.
            for (int layer = 0; layer < 3; ++layer)
                report.rows.push_back(row(policies[p], "epoch", epoch, region,
                                          "grad_underflow_fraction_layer_" + std::to_string(layer),
                                          p == 0 ? 0 : 0.1 * (layer + 1) / (epoch + 1)));
        }
    }
    // GradScaler: starts at 2^16, backs off to 2^15 after an overflow, grows back to 2^16.
    const double scales[] = {65536, 32768, 65536};
    for (int epoch = 0; epoch < 3; ++epoch)
        report.rows.push_back(row("fp16 + loss scaling", "epoch", epoch, "epoch " + std::to_string(epoch + 1),
                                  "loss_scale", scales[epoch]));
    for (int step = 0; step < 4; ++step) {
        const std::string region = "step " + std::to_string(100 * (step + 1));
        report.rows.push_back(row("fp16 + loss scaling", "step", step, region, "loss", 2.0 / (step + 1)));
        report.rows.push_back(
            row("fp16 + loss scaling", "step", step, region, "loss_scale", step == 1 ? 32768 : 65536));
    }
    return report;
}

/// iterative-refinement-like: errors falling by 10^-3 per iteration until fp64's unit roundoff,
/// ended by the correction test's "no progress" at iteration 5, at 2.5 times a limiting accuracy
/// of 4e-17.
inline emu::Report sample_refinement_report() {
    emu::Report report;
    const double forward[] = {1e-3, 1e-6, 1e-9, 1e-12, 1e-15, 1e-16};
    for (int i = 0; i < 6; ++i) {
        const std::string region = "iteration " + std::to_string(i);
        report.rows.push_back(row("fp16 factors", "iteration", i, region, "forward_error", forward[i]));
        report.rows.push_back(row("fp16 factors", "iteration", i, region, "backward_error", forward[i] / 100));
        report.rows.push_back(row("fp16 factors", "iteration", i, region, "residual_norm", forward[i] / 10));
        report.rows.push_back(row("fp16 factors", "iteration", i, region, "converged", i >= 4 ? 1 : 0));
        report.rows.push_back(row("fp16 factors", "iteration", i, region, "error_bound_limiting_accuracy", 4e-17));
        if (i == 0) continue;
        report.rows.push_back(row("fp16 factors", "iteration", i, region, "stopping_test_value", forward[i - 1]));
        report.rows.push_back(row("fp16 factors", "iteration", i, region, "stopping_tolerance", 0x1p-53));
    }
    report.rows.push_back(row("fp16 factors", "iteration", 5, "iteration 5", "stop_reason", 3));
    return report;
}

/// sum-like, as the engine writes it since the normwise measures: partial sums at n = 1, 4, 16, 64,
/// 256 of two policies, each region with its n, its normwise error and the workload's two bounds.
inline emu::Report sample_sum_report() {
    emu::Report report;
    report.runs.push_back({"1", "sample", {{"n", "256"}}, {{"fp16", "fp16"}, {"bf16", "bf16"}}, 256});
    const std::vector<std::string> policies = {"fp16", "bf16"};
    const double u[] = {std::ldexp(1.0, -11), std::ldexp(1.0, -8)};
    for (int j = 0; j < 5; ++j) {
        const double n = std::pow(4.0, j);
        const std::string region = "n = " + std::to_string(static_cast<int>(n));
        for (std::size_t p = 0; p < policies.size(); ++p) {
            report.rows.push_back(row(policies[p], "terms", j, region, "normwise_rel_error", std::sqrt(n) * u[p] / 2));
            report.rows.push_back(row(policies[p], "terms", j, region, "underflow_fraction", 0));
            report.rows.push_back(row(policies[p], "terms", j, region, "n", n));
            report.rows.push_back(row(policies[p], "terms", j, region, "error_bound_deterministic", n * u[p]));
            report.rows.push_back(
                row(policies[p], "terms", j, region, "error_bound_probabilistic", std::sqrt(n) * u[p]));
        }
    }
    return report;
}

}  // namespace floatscope::test
