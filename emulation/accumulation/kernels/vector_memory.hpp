// Loads and stores of GCC vector types from arrays of their lanes, at any alignment.
#pragma once

#include <cstring>

namespace floatscope::emu::detail {

/// The vector V whose lanes are p[0], p[1], ... (memcpy: no alignment or aliasing assumed).
template <typename V, typename T>
[[gnu::always_inline]] inline V load_lanes(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename V, typename T>
[[gnu::always_inline]] inline void store_lanes(T* p, V v) {
    std::memcpy(p, &v, sizeof v);
}

}  // namespace floatscope::emu::detail
