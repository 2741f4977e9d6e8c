// A zero-filled work buffer for the GEMM kernels that starts on a cache line.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace floatscope::emu::detail {

/// `size` zero values of T, the first on a 64-byte boundary: a cache line and an AVX-512 vector, so
/// that vector loads and stores of rows starting at multiples of 64 bytes never split a line (they
/// cost the fp16 GEMM 10-15% and the tensor-core model ~3% when they did).
template <typename T>
class CacheLineBuffer {
public:
    explicit CacheLineBuffer(std::size_t size) : storage_(size + line / sizeof(T)) {
        void* start = storage_.data();
        std::size_t space = storage_.size() * sizeof(T);
        data_ = static_cast<T*>(std::align(line, size * sizeof(T), start, space));
    }
    CacheLineBuffer(const CacheLineBuffer&) = delete;
    CacheLineBuffer& operator=(const CacheLineBuffer&) = delete;

    T* data() { return data_; }

private:
    static constexpr std::size_t line = 64;
    std::vector<T> storage_;
    T* data_ = nullptr;
};

}  // namespace floatscope::emu::detail
