// Decoding ONNX TensorProtos (initializers, Constant attributes, .pb tensor files) into exact tensors.
#pragma once

#include <filesystem>
#include <string_view>

#include <onnx/onnx_pb.h>

#include "core/data_folder.hpp"

#include "emulation/workloads/onnx/tensor.hpp"

namespace floatscope::emu::onnx {

/// The tensor `proto` holds, exact in double, from raw_data (little-endian), its typed field
/// (float_data, double_data, int32_data — which also carries int8, uint8, bool and the bits of
/// float16 and bfloat16 —, int64_data) or external data: a file of `folder` at external_data's
/// offset and length; names that leave the folder (absolute, '..', a link) are refused. Throws floatscope::Error
/// beginning with `context` ("m.onnx: initializer 'w'") for an unsupported element type, a negative dimension, data
/// that do not match the shape, an integer outside its type, external data missing or short.
Tensor<double> decode_tensor(const ::onnx::TensorProto& proto, std::string_view context,
                             const core::DataFolder& folder);

/// The bytes decode_tensor will hold for `proto`: 8 per element of its dims (as a double, so that
/// no product overflows; negative dimensions count as 0, decode_tensor refuses them).
double decoded_bytes(const ::onnx::TensorProto& proto);

}  // namespace floatscope::emu::onnx
