// floatscope.quantize, dequantize and fake_quantize: the block-scaled formats (MX, NVFP4, NF4, FP8 blockwise, ...).
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "core/codec.hpp"
#include "core/error.hpp"
#include "core/stochastic_source.hpp"
#include "emulation/quantize/block_quantizer.hpp"
#include "emulation/quantize/quantization_scheme.hpp"
#include "python/bindings.hpp"
#include "python/numpy_arrays.hpp"

namespace floatscope::python {

namespace py = pybind11;

namespace {

/// x as C-contiguous float32 (float64 is rounded to float32, the quantizers' input, as the CLI reads
/// its values); other dtypes raise.
py::array_t<float> float32_input(py::handle x, const std::string& what) {
    const py::array a = float_array(x, what);
    return py::module_::import("numpy").attr("ascontiguousarray")(a, py::arg("dtype") = "float32");
}

/// A block scheme whose blocks run along one axis: 1-D blocks, no Hadamard transform (fake_quantize takes
/// the tiled and transformed recipes, whose stored form is not codes and scales along an axis).
emu::BlockFormat axis_scheme(const std::string& name) {
    const emu::QuantizationScheme scheme = emu::parse_quantization_scheme(name);
    if (scheme.integer)
        throw Error(
            fmt::format("'{}' is a per-row integer scheme; quantize takes block formats ({}), "
                        "fake_quantize takes both",
                        name, fmt::join(emu::block_format_names(), ", ")));
    if (scheme.block.tile_rows > 0 || scheme.block.hadamard)
        throw Error(
            fmt::format("'{}' quantizes 2-D tiles or Hadamard-transformed values, which are not codes and "
                        "scales along one axis; fake_quantize takes it",
                        name));
    return scheme.block;
}

/// x with `axis` last, C-contiguous (a copy only when axis is not already last).
py::array axis_last(const py::array& x, int axis) {
    const py::module_ numpy = py::module_::import("numpy");
    return numpy.attr("ascontiguousarray")(numpy.attr("moveaxis")(x, axis, -1));
}

/// The last axis moved back to `axis`, C-contiguous (a copy when that is not the last), so that the
/// results go back into dequantize and other kernels as they are.
py::array axis_back(const py::array& x, int axis) {
    const py::module_ numpy = py::module_::import("numpy");
    return numpy.attr("ascontiguousarray")(numpy.attr("moveaxis")(x, -1, axis));
}

py::tuple quantize(py::handle x_argument, const std::string& scheme_name, int axis, std::optional<std::uint64_t> seed) {
    const emu::BlockFormat format = axis_scheme(scheme_name);
    const py::array x = axis_last(float32_input(x_argument, "x"), axis);
    const auto block = static_cast<py::ssize_t>(format.block_size);
    const py::ssize_t length = x.ndim() == 0 ? 1 : x.shape(x.ndim() - 1);
    if (x.ndim() == 0 || length % block != 0)
        throw Error(fmt::format("x has {} values along axis {}; {} takes a multiple of its block size {}", length, axis,
                                format.name, block));
    std::vector<py::ssize_t> scale_shape(x.shape(), x.shape() + x.ndim());
    scale_shape.back() = length / block;
    auto q = std::make_unique<emu::BlockQuantized>();
    {
        const std::span<const float> in = read_view<float>(x);
        py::gil_scoped_release unlocked;
        core::StochasticSource random(seed.value_or(core::StochasticSource::default_seed));
        // Whole rows of whole blocks, in one call: one tensor (NVFP4's tensor scale is the array's).
        *q = emu::quantize_blocks(format, in, &random);
    }
    // The arrays view the quantizer's own vectors, without a copy; the capsule frees them with the last one.
    const std::vector<py::ssize_t> code_shape(x.shape(), x.shape() + x.ndim());
    emu::BlockQuantized* stored = q.get();
    const py::capsule owner(q.release(), [](void* p) { delete static_cast<emu::BlockQuantized*>(p); });
    const py::array_t<std::uint8_t> codes(code_shape, stored->codes.data(), owner);
    const py::array_t<float> scales(scale_shape, stored->block_scales.data(), owner);
    return py::make_tuple(axis_back(codes, axis), axis_back(scales, axis));
}

py::array dequantize(py::handle codes_argument, py::handle scales_argument, const std::string& scheme_name, int axis) {
    const emu::BlockFormat format = axis_scheme(scheme_name);
    const py::array codes_any = unsigned_array(codes_argument, "codes");
    if (!codes_any.dtype().is(py::dtype::of<std::uint8_t>()))
        throw Error(fmt::format("codes are {}; block formats' codes are uint8",
                                py::str(codes_any.dtype()).cast<std::string>()));
    const py::array codes = axis_last(codes_any, axis);
    const py::array scales = axis_last(float32_input(scales_argument, "scales"), axis);
    const auto block = static_cast<py::ssize_t>(format.block_size);
    bool fits = codes.ndim() == scales.ndim() && codes.ndim() > 0;
    for (py::ssize_t d = 0; fits && d < codes.ndim(); ++d)
        fits = codes.shape(d) == (d + 1 == codes.ndim() ? scales.shape(d) * block : scales.shape(d));
    if (!fits)
        throw Error(fmt::format("codes {} and scales {} do not fit {}: one scale per {} codes along axis {}",
                                py::str(codes.attr("shape")).cast<std::string>(),
                                py::str(scales.attr("shape")).cast<std::string>(), format.name, block, axis));
    emu::BlockQuantized q = emu::BlockQuantized::sized(format, static_cast<std::size_t>(codes.size()), false);
    const std::span<const std::uint8_t> code_in = read_view<std::uint8_t>(codes);
    // A code wider than the element format is refused as the CLI's decode refuses it (the codec's message).
    if (!code_in.empty()) core::decode_bits(format.element, *std::max_element(code_in.begin(), code_in.end()));
    const std::span<const float> scale_in = read_view<float>(scales);
    std::copy(code_in.begin(), code_in.end(), q.codes.begin());
    std::copy(scale_in.begin(), scale_in.end(), q.block_scales.begin());
    py::array_t<float> out(std::vector<py::ssize_t>(codes.shape(), codes.shape() + codes.ndim()));
    {
        const std::span<float> values = write_view<float>(out);
        py::gil_scoped_release unlocked;
        emu::dequantize_blocks(q, values);
    }
    return axis_back(out, axis);
}

py::array fake_quantize(py::handle x_argument, const std::string& scheme_name, std::optional<std::uint64_t> seed) {
    const emu::QuantizationScheme scheme = emu::parse_quantization_scheme(scheme_name);
    const py::array x = float32_input(x_argument, "x");
    const std::size_t cols = x.ndim() == 0 ? 1 : static_cast<std::size_t>(x.shape(x.ndim() - 1));
    const std::size_t rows = cols == 0 ? 0 : static_cast<std::size_t>(x.size()) / cols;
    py::array out = empty_like(x, py::dtype::of<float>());
    {
        const std::span<const float> in = read_view<float>(x);
        const std::span<float> values = write_view<float>(out);
        py::gil_scoped_release unlocked;
        core::StochasticSource random(seed.value_or(core::StochasticSource::default_seed));
        emu::fake_quantize(scheme, in, rows, cols, values, &random);
    }
    return out;
}

}  // namespace

void bind_quantize(py::module_& m) {
    m.def("quantize", &quantize, py::arg("x"), py::arg("scheme"), py::arg("axis") = -1, py::kw_only(),
          py::arg("seed") = py::none(),
          "x (float32; float64 is rounded to float32 first) in a block-scaled format whose blocks run along `axis` "
          "(mxfp4, mxfp8_e4m3, nvfp4, nf4, bnb_fp4, fp8_blockwise, with modifiers such as mxfp4:ceil, "
          "nvfp4:torchao, nf4:dq, :block=N): (codes, scales), uint8 element codes shaped like x and float32 "
          "scales, one per block, such that x ~ element_value(code) * scale. The whole array is one tensor "
          "(NVFP4's tensor scale is folded into the scales). Tiled (:2d, 128x128) and Hadamard (:rht) recipes: "
          "fake_quantize.");
    m.def("dequantize", &dequantize, py::arg("codes"), py::arg("scales"), py::arg("scheme"), py::arg("axis") = -1,
          "element_value(code) * scale of its block, as float32: the inverse of quantize.");
    m.def("fake_quantize", &fake_quantize, py::arg("x"), py::arg("scheme"), py::kw_only(), py::arg("seed") = py::none(),
          "x quantized and dequantized (float32, x's shape), as the quantize workload does it: intN scales each "
          "row of the last axis, block formats run their blocks over the row-major order, tiled formats tile the "
          "(rows, last axis) matrix, :rht transforms each 16 values.");
}

}  // namespace floatscope::python
