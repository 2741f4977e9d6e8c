// The tensors an ONNX evaluation holds, against the memory limit, on the evaluation's thread.
#include "emulation/workloads/onnx/tensor_allowance.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"

namespace floatscope::emu::onnx {

namespace {

thread_local TensorAllowance* innermost = nullptr;

[[noreturn]] void refuse(std::string_view what, double needed, double held) {
    throw Error(
        fmt::format("{} needs {} beside the {} that the graph's tensors hold; the limit is {} (raise it with "
                    "--memory-limit or FLOATSCOPE_MEMORY_LIMIT)",
                    what, core::format_memory_size(needed), core::format_memory_size(held),
                    core::format_memory_size(static_cast<double>(core::memory_limit()))));
}

}  // namespace

TensorAllowance::TensorAllowance(double number_bytes, double held)
    : number_bytes_(number_bytes), held_(held + (innermost ? innermost->held_ : 0)), outer_(innermost) {
    innermost = this;
}

TensorAllowance::~TensorAllowance() { innermost = outer_; }

double TensorAllowance::bytes(double elements, bool floating) const {
    return elements * (floating ? number_bytes_ : 8.0);
}

void TensorAllowance::hold(std::string_view what, double bytes) {
    if (bytes > 0 && held_ + bytes > static_cast<double>(core::memory_limit())) refuse(what, bytes, held_);
    held_ += bytes;
}

void keep_tensor(std::string_view what, std::size_t elements, bool floating) {
    if (innermost) innermost->hold(what, innermost->bytes(static_cast<double>(elements), floating));
}

void require_tensor(std::string_view what, double elements, bool floating, double index_elements) {
    if (!innermost) return;
    const double bytes = innermost->bytes(elements, floating) + 8.0 * index_elements;
    if (innermost->held_ + bytes > static_cast<double>(core::memory_limit())) refuse(what, bytes, innermost->held_);
}

}  // namespace floatscope::emu::onnx
