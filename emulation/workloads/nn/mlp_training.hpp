// What train-mlp and the quantize workload's trained-mlp source share: the image datasets their
// parameters name, batches of images, shuffling, and the test accuracy of a model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "emulation/simulation/parameters.hpp"
#include "emulation/simulation/run_control.hpp"
#include "emulation/workloads/data/image_dataset.hpp"
#include "emulation/workloads/data/seeded_random.hpp"
#include "emulation/workloads/nn/matrix.hpp"
#include "emulation/workloads/nn/mlp_classifier.hpp"

namespace floatscope::emu {

struct ImageDatasets {
    ImageDataset train, test;
};

/// The parameters dataset, data-dir, train-size and test-size (0: all), with the given defaults
/// of the two sizes.
std::vector<ParameterSpec> image_dataset_parameters(const std::string& train_size, const std::string& test_size);
/// The datasets those parameters name; `seed` draws the synthetic one (2000/500 images when a
/// size is 0). Throws floatscope::Error when Fashion-MNIST is missing or malformed.
ImageDatasets load_image_datasets(const Parameters& p, std::uint64_t seed);
/// How many training and test images load_image_datasets gives, without reading them (a size of
/// 0 is all of Fashion-MNIST, 60000 and 10000, or the synthetic 2000 and 500).
std::pair<std::size_t, std::size_t> image_dataset_sizes(const Parameters& p);
/// The bytes load_image_datasets holds at most (for memory estimates): every image's pixels and
/// label, twice while a file's values are copied into its dataset.
double image_dataset_bytes(const Parameters& p);
/// The rows of images a model holds activations for at once: a training batch of `batch` images,
/// or the chunk of test images that test_accuracy evaluates together.
double activation_rows(const Parameters& p, double batch);

/// The dataset's images `rows` as pixel / 255, and their labels.
Matrix batch_inputs(const ImageDataset& data, std::span<const std::size_t> rows, std::vector<std::uint8_t>& labels);

/// Fisher-Yates (Knuth, TAOCP 3.4.2, algorithm P).
void shuffle(std::vector<std::size_t>& order, SeededRandom& random);

/// The fraction of `test` the model classifies correctly (forward passes of 1000 images).
double test_accuracy(MlpClassifier& model, const ImageDataset& test, RunControl& control);
/// The same with each layer's weights replaced by `weights` (in x out; quantized ones, say), the
/// model's own weights put back afterwards.
double test_accuracy_with_weights(MlpClassifier& model, std::vector<Matrix> weights, const ImageDataset& test,
                                  RunControl& control);

}  // namespace floatscope::emu
