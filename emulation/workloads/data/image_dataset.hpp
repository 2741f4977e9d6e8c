// Labelled images for train-mlp: Fashion-MNIST from its IDX files, or a small synthetic stand-in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace floatscope::emu {

/// Grey-scale images of `features` pixels (0..255) with a class label each.
struct ImageDataset {
    std::size_t features = 0;
    std::size_t classes = 10;
    std::vector<std::uint8_t> pixels;  ///< size() x features, row-major
    std::vector<std::uint8_t> labels;  ///< 0 .. classes-1
    std::size_t size() const { return labels.size(); }
};

/// Where Debian's dataset-fashion-mnist package installs the files.
inline const char* const fashion_mnist_directory = "/usr/share/datasets/fashion-mnist";

/// The training (60000) or test (10000) part of Fashion-MNIST (Xiao, Rasul, Vollgraf,
/// arXiv:1708.07747) from `directory`: train-images-idx3-ubyte.gz with train-labels-idx1-ubyte.gz,
/// or the t10k- pair; `max_items` > 0 reads only the first that many. Throws floatscope::Error
/// when a file is missing (saying `apt install dataset-fashion-mnist` installs them), malformed,
/// or when images and labels disagree in number or a label is not 0..9.
ImageDataset load_fashion_mnist(const std::filesystem::path& directory, bool train, std::size_t max_items = 0);

/// A synthetic stand-in of the same shape (28 x 28 pixels, 10 classes) for tests and quick runs:
/// each class has a random prototype image (drawn from `seed`), each image is its class's
/// prototype plus normal noise, clipped to 0..255; classes are drawn uniformly. The training and
/// test parts (`train`) share the prototypes and draw different images.
ImageDataset synthetic_images(std::size_t count, std::uint64_t seed, bool train);

}  // namespace floatscope::emu
