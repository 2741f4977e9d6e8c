#include "core/freed_memory.hpp"

#include <cstdlib>  // defines __GLIBC__ under glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace floatscope::core {

bool keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
    constexpr int mapped_from = 32 << 20;  // glibc's largest threshold (HEAP_MAX_SIZE / 2 on 64-bit)
    constexpr int trimmed_from = 256 << 20;
    // Setting them turns off glibc's own adjustment, which raises the mapping threshold (and the trim
    // threshold with it) only as mapped blocks are freed: a run's first large tensors are mapped and
    // unmapped one by one.
    return mallopt(M_MMAP_THRESHOLD, mapped_from) == 1 && mallopt(M_TRIM_THRESHOLD, trimmed_from) == 1;
#else
    return false;
#endif
}

}  // namespace floatscope::core
