// A process-wide memory limit: requests that would need more are refused before anything is allocated.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace floatscope::core {

/// "512M", "16G", "1.5GiB", "1048576" as bytes. Units are binary (K = 2^10, M = 2^20, G = 2^30,
/// T = 2^40; an optional "iB" or "B" after the letter changes nothing); a size below 1 MiB is
/// refused, as "16" is more likely a forgotten G than 16 bytes. Throws floatscope::Error naming
/// `source` (the option or variable the text came from) and the valid form.
std::uint64_t parse_memory_size(std::string_view text, std::string_view source);

/// "12.3 GiB", "512 MiB": bytes in the largest binary unit that keeps the number at least 1.
std::string format_memory_size(double bytes);

/// The limit in bytes: set_memory_limit's, else FLOATSCOPE_MEMORY_LIMIT's, else half the physical
/// memory (8 GiB where it is unknown). Half, because the checks estimate the workloads' arrays only,
/// not the report's rows, the allocator's slack or what other programs hold.
std::uint64_t memory_limit();
void set_memory_limit(std::uint64_t bytes);

/// Bytes of one MPFR number of `precision` bits: its mpfr_t and the heap block of its limbs, as
/// glibc's allocator sizes it (for estimates).
double mpfr_number_bytes(long precision);

/// Throws floatscope::Error "`what` needs 12.3 GiB; the limit is 8 GiB (raise it with
/// --memory-limit or FLOATSCOPE_MEMORY_LIMIT)" when `bytes` exceed the limit. Callers estimate
/// `bytes` (a double, so that products of large sizes cannot overflow) before they allocate, and
/// say in `what` what was asked for: "mlp-forward with depth=1000, width=8192, batch=32".
/// The bytes allowed are added to the thread's innermost MemoryTally, if one is alive.
void require_memory(std::string_view what, double bytes);

/// While one lives, it adds up the bytes that require_memory allows on its thread: how the engine
/// learns, from a workload's checks, what a job will hold before it starts it, so that jobs on
/// several threads together stay within the limit.
class MemoryTally {
public:
    MemoryTally();
    ~MemoryTally();
    MemoryTally(const MemoryTally&) = delete;
    MemoryTally& operator=(const MemoryTally&) = delete;

    double bytes() const { return bytes_; }

private:
    friend void require_memory(std::string_view, double);
    double bytes_ = 0;
    MemoryTally* outer_;
};

}  // namespace floatscope::core
