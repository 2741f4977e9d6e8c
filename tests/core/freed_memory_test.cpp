// keep_freed_memory_for_reuse against glibc's own account of its heap (mallinfo2): a freed 8 MiB block
// stays in the heap for the next allocation, where glibc's defaults map it alone and unmap it on free.
#include <cstdlib>
#include <cstring>

#include <catch2/catch.hpp>
#include <malloc.h>

#include "core/freed_memory.hpp"

using namespace floatscope;

TEST_CASE("keep_freed_memory_for_reuse keeps a freed 8 MiB block in the heap") {
    const bool applied = core::keep_freed_memory_for_reuse();
#if defined(FLOATSCOPE_SANITIZED)
    // The sanitizers' allocator replaces glibc's and takes no settings.
    CHECK_FALSE(applied);
#else
    REQUIRE(applied);
    constexpr std::size_t bytes = 8 << 20;
    const struct mallinfo2 before = mallinfo2();
    char* block = static_cast<char*>(std::malloc(bytes));
    REQUIRE(block != nullptr);
    std::memset(block, 1, bytes);  // touched, as a tensor is
    const struct mallinfo2 held = mallinfo2();
    CHECK(held.hblkhd == before.hblkhd);  // not a mapping of its own
    std::free(block);
    const struct mallinfo2 after = mallinfo2();
    CHECK(after.fordblks >= before.fordblks + bytes);  // free in the heap, not given back
#endif
}
