// Datasets, batches, shuffling and test accuracy of the MLP workloads.
#include "emulation/workloads/nn/mlp_training.hpp"

#include <algorithm>

namespace floatscope::emu {

namespace {

/// Sizes the synthetic dataset takes when train-size or test-size is 0.
constexpr std::size_t synthetic_train_size = 2000;
constexpr std::size_t synthetic_test_size = 500;
constexpr std::size_t fashion_mnist_train_size = 60000;  // Xiao, Rasul, Vollgraf, arXiv:1708.07747
constexpr std::size_t fashion_mnist_test_size = 10000;
constexpr std::size_t test_chunk = 1000;  // test images evaluated together

}  // namespace

std::vector<ParameterSpec> image_dataset_parameters(const std::string& train_size, const std::string& test_size) {
    return {
        {"dataset",
         ParameterType::Choice,
         "fashion-mnist",
         0,
         0,
         {"fashion-mnist", "synthetic"},
         "Fashion-MNIST from data-dir, or a small synthetic dataset of the same shape"},
        {"data-dir", ParameterType::Text, fashion_mnist_directory, 0, 0, {}, "folder of the Fashion-MNIST .gz files"},
        {"train-size", ParameterType::Integer, train_size, 0, 60000, {}, "training images used (0: all)"},
        {"test-size", ParameterType::Integer, test_size, 0, 10000, {}, "test images used (0: all)"},
    };
}

std::pair<std::size_t, std::size_t> image_dataset_sizes(const Parameters& p) {
    const bool synthetic = p.text("dataset") == "synthetic";
    const auto size = [&](const char* name, std::size_t all, std::size_t synthetic_default) {
        const auto given = static_cast<std::size_t>(p.integer(name));
        return given > 0 ? given : synthetic ? synthetic_default : all;
    };
    return {size("train-size", fashion_mnist_train_size, synthetic_train_size),
            size("test-size", fashion_mnist_test_size, synthetic_test_size)};
}

double image_dataset_bytes(const Parameters& p) {
    const auto [train, test] = image_dataset_sizes(p);
    constexpr double pixels = 28 * 28;
    return 2 * static_cast<double>(train + test) * (pixels + 1);
}

double activation_rows(const Parameters& p, double batch) {
    return std::max(batch, static_cast<double>(std::min(test_chunk, image_dataset_sizes(p).second)));
}

ImageDatasets load_image_datasets(const Parameters& p, std::uint64_t seed) {
    if (p.text("dataset") == "synthetic") {
        const auto [train_size, test_size] = image_dataset_sizes(p);
        return {synthetic_images(train_size, seed, true), synthetic_images(test_size, seed, false)};
    }
    // 0 reads the whole file.
    return {load_fashion_mnist(p.text("data-dir"), true, static_cast<std::size_t>(p.integer("train-size"))),
            load_fashion_mnist(p.text("data-dir"), false, static_cast<std::size_t>(p.integer("test-size")))};
}

Matrix batch_inputs(const ImageDataset& data, std::span<const std::size_t> rows, std::vector<std::uint8_t>& labels) {
    Matrix x(rows.size(), data.features);
    labels.resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::uint8_t* pixels = data.pixels.data() + rows[i] * data.features;
        for (std::size_t j = 0; j < data.features; ++j) x(i, j) = pixels[j] / 255.0;
        labels[i] = data.labels[rows[i]];
    }
    return x;
}

void shuffle(std::vector<std::size_t>& order, SeededRandom& random) {
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random.below(i)]);
}

double test_accuracy(MlpClassifier& model, const ImageDataset& test, RunControl& control) {
    constexpr std::size_t chunk = test_chunk;
    std::vector<std::size_t> rows(test.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    std::vector<std::uint8_t> labels;
    std::size_t correct = 0;
    for (std::size_t first = 0; first < rows.size(); first += chunk) {
        control.check_cancelled();
        const std::span<const std::size_t> part(rows.data() + first, std::min(chunk, rows.size() - first));
        const Matrix x = batch_inputs(test, part, labels);
        correct += model.count_correct(x, labels);
    }
    return test.size() == 0 ? 0.0 : static_cast<double>(correct) / static_cast<double>(test.size());
}

double test_accuracy_with_weights(MlpClassifier& model, std::vector<Matrix> weights, const ImageDataset& test,
                                  RunControl& control) {
    const auto swap_in = [&] {
        for (std::size_t l = 0; l < weights.size(); ++l) {
            Matrix own = model.weights(l);
            model.set_weights(l, std::move(weights[l]));
            weights[l] = std::move(own);
        }
    };
    swap_in();
    try {
        const double accuracy = test_accuracy(model, test, control);
        swap_in();
        return accuracy;
    } catch (...) {
        swap_in();  // a cancelled run leaves the model as it was
        throw;
    }
}

}  // namespace floatscope::emu
