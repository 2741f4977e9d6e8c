// Whether the process's allocator keeps large freed blocks for the next allocation or gives them back
// to the system at once.
#pragma once

namespace floatscope::core {

/// Has glibc's malloc keep freed memory for reuse: blocks up to 32 MiB come from the heap rather than a
/// mapping of their own, and up to 256 MiB of free heap stays mapped. A workload allocates a tensor per
/// node and frees it a few nodes later; given back each time, every run touches fresh pages again, and
/// page faults are costly on a virtual machine (onnx_bench's CRNN under bf16, after the native row in the
/// same process: 140 ms with glibc's defaults, 52 ms so). The programs call it first (floatscope-cli,
/// the GUI, onnx_bench); the Python module leaves the interpreter's allocator alone. Returns whether
/// the allocator took the settings: false under another C library or a sanitizer's allocator.
bool keep_freed_memory_for_reuse();

}  // namespace floatscope::core
