// How much of a long sweep a test walks: all of it in the plain build, an evenly spread part under
// the sanitizers (ASan + UBSan run these sweeps 10-50x slower). CI runs both builds, so the plain one
// still checks every point against its reference, while a memory or undefined-behaviour error shows
// on any point of the paths the part takes.
#pragma once

#include <algorithm>
#include <cstddef>

namespace floatscope::test {

#if defined(FLOATSCOPE_SANITIZED)
inline constexpr std::size_t sanitized_stride = 11;  // prime: never in step with a sweep's own strides
#else
inline constexpr std::size_t sanitized_stride = 1;
#endif

/// The number of random points to draw where the plain build draws `full`.
inline std::size_t sweep_size(std::size_t full) { return std::max<std::size_t>(1, full / sanitized_stride); }

/// Whether the plain build's point `index` of a sweep is walked in this build.
inline bool walks(std::size_t index) { return index % sanitized_stride == 0; }

}  // namespace floatscope::test
