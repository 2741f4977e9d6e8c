// An operator's output tensors moved into the vector it returns. `return {y}` builds that vector
// from an initializer list, whose elements are const: each output tensor is copied once more (on the
// CRNN's native fp32 run, a tenth of its time in the copies and the fresh pages they touch).
#pragma once

#include <utility>
#include <vector>

namespace floatscope::emu::onnx {

/// The outputs, in order, each moved (lvalues are refused: Tensor would deduce as a reference).
template <class Tensor, class... More>
std::vector<Tensor> moved_outputs(Tensor&& first, More&&... more) {
    std::vector<Tensor> outputs;
    outputs.reserve(1 + sizeof...(more));
    outputs.push_back(std::forward<Tensor>(first));
    (outputs.push_back(std::forward<More>(more)), ...);
    return outputs;
}

}  // namespace floatscope::emu::onnx
