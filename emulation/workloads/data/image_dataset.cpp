// Fashion-MNIST from IDX files, and a synthetic dataset of the same shape.
#include "emulation/workloads/data/image_dataset.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/data/idx_file.hpp"
#include "emulation/workloads/data/seeded_random.hpp"

namespace floatscope::emu {

namespace {

constexpr std::size_t side = 28;

std::filesystem::path existing_file(const std::filesystem::path& directory, const std::string& name) {
    const std::filesystem::path path = directory / name;
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        throw Error(
            fmt::format("Fashion-MNIST file '{}' not found; install the dataset with `apt install "
                        "dataset-fashion-mnist` (it goes to {}), or run with dataset=synthetic",
                        path.string(), fashion_mnist_directory));
    return path;
}

}  // namespace

ImageDataset load_fashion_mnist(const std::filesystem::path& directory, bool train, std::size_t max_items) {
    const std::string prefix = train ? "train" : "t10k";
    const IdxArray images = read_idx(existing_file(directory, prefix + "-images-idx3-ubyte.gz"), max_items);
    const IdxArray labels = read_idx(existing_file(directory, prefix + "-labels-idx1-ubyte.gz"), max_items);
    if (images.dimensions.size() != 3 || labels.dimensions.size() != 1)
        throw Error(
            fmt::format("Fashion-MNIST files in '{}': expected images of 3 dimensions and labels of 1, found "
                        "{} and {}",
                        directory.string(), images.dimensions.size(), labels.dimensions.size()));
    if (images.dimensions[0] != labels.dimensions[0])
        throw Error(fmt::format("Fashion-MNIST files in '{}': {} images but {} labels", directory.string(),
                                images.dimensions[0], labels.dimensions[0]));
    ImageDataset data;
    data.features = std::size_t{images.dimensions[1]} * images.dimensions[2];
    data.pixels = images.values;
    data.labels = labels.values;
    const auto bad =
        std::find_if(data.labels.begin(), data.labels.end(), [&](std::uint8_t l) { return l >= data.classes; });
    if (bad != data.labels.end())
        throw Error(fmt::format("Fashion-MNIST labels in '{}': label {} at position {}; labels are 0 to 9",
                                directory.string(), *bad, bad - data.labels.begin()));
    return data;
}

ImageDataset synthetic_images(std::size_t count, std::uint64_t seed, bool train) {
    ImageDataset data;
    data.features = side * side;
    SeededRandom prototypes_random(seed, 10);
    std::vector<double> prototypes(data.classes * data.features);
    // Sparse bright strokes on a dark background, as in the real images.
    for (double& p : prototypes) p = prototypes_random.uniform() < 0.4 ? 64 + 191 * prototypes_random.uniform() : 0;
    SeededRandom images(seed, train ? 11 : 12);
    data.pixels.resize(count * data.features);
    data.labels.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const auto label = static_cast<std::size_t>(images.below(data.classes));
        data.labels[i] = static_cast<std::uint8_t>(label);
        for (std::size_t j = 0; j < data.features; ++j) {
            const double v = prototypes[label * data.features + j] + 48 * images.normal();
            data.pixels[i * data.features + j] = static_cast<std::uint8_t>(std::clamp(std::round(v), 0.0, 255.0));
        }
    }
    return data;
}

}  // namespace floatscope::emu
