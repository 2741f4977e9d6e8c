// Helpers shared by the libFuzzer targets: reading a fuzz input piece by piece, and failing loudly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/catalog.hpp"
#include "core/format.hpp"

namespace floatscope::fuzz {

/// A fuzz input consumed from the front: selector bytes first, then the text under test.
class FuzzInput {
public:
    FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    /// The next byte, or 0 once the input is used up (libFuzzer shrinks inputs freely).
    std::uint8_t byte() {
        if (size_ == 0) return 0;
        --size_;
        return *data_++;
    }
    /// The next eight bytes, little-endian, zero-padded.
    std::uint64_t word() {
        std::uint64_t value = 0;
        for (int i = 0; i < 8; ++i) value |= std::uint64_t{byte()} << (8 * i);
        return value;
    }
    /// Everything not consumed yet, as text.
    std::string rest() {
        std::string text(reinterpret_cast<const char*>(data_), size_);
        data_ += size_;
        size_ = 0;
        return text;
    }
    bool empty() const { return size_ == 0; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
};

/// A property of the code under test failed: print it and abort, so that libFuzzer saves the input.
[[noreturn]] inline void property_failed(const char* what, const std::string& detail) {
    std::fprintf(stderr, "property failed: %s: %s\n", what, detail.c_str());
    std::abort();
}

/// The formats the value targets round to: the catalog, plus the grammar's variants whose
/// conventions the catalog does not show (flushed subnormals, saturation, other biases, M = 0).
inline const std::vector<core::FormatSpec>& fuzz_formats() {
    static const std::vector<core::FormatSpec> formats = [] {
        std::vector<core::FormatSpec> all = core::catalog_formats();
        for (const char* name : {"e5m2:ftz", "e4m3fn:sat", "e3m4fnuz", "e2m0fn", "e2m0fnuz", "e1m2fn", "e5m10:ftz:sat",
                                 "e8m23:bias=100", "e10m20fnuz", "uint3", "int32", "e4m3:ieee:bias=3"})
            all.push_back(core::parse_format(name));
        return all;
    }();
    return formats;
}

inline const core::FormatSpec& pick_format(std::uint8_t selector) {
    return fuzz_formats()[selector % fuzz_formats().size()];
}

}  // namespace floatscope::fuzz
