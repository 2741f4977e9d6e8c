// What FloatScope knowingly does not evaluate in an ONNX model.
#pragma once

#include "core/error.hpp"

namespace floatscope::emu::onnx {

/// An operator, an attribute or mode of one, an element type or an opset FloatScope does not
/// evaluate (as opposed to a model that is wrong). A floatscope::Error, so callers that only report
/// errors need nothing more; the node-test conformance counts such cases as unsupported, not failed.
class Unsupported : public Error {
public:
    using Error::Error;
};

}  // namespace floatscope::emu::onnx
