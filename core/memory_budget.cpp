#include "core/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <utility>

#include <fmt/format.h>
#include <mpfr.h>

#include "core/error.hpp"

namespace floatscope::core {
namespace {

constexpr std::uint64_t mebibyte = std::uint64_t{1} << 20;
constexpr std::uint64_t fallback_limit = std::uint64_t{8} << 30;
/// 2^60 bytes: far above any machine, and small enough that a size times 1024 stays exact-ish in a double.
constexpr double largest_size = 1152921504606846976.0;
constexpr std::string_view environment_variable = "FLOATSCOPE_MEMORY_LIMIT";

std::uint64_t default_limit() {
    if (const char* text = std::getenv(environment_variable.data()); text != nullptr && *text != '\0')
        return parse_memory_size(text, environment_variable);
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return fallback_limit;
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) / 2;
}

/// set_memory_limit's value; 0 until it is called, so that a bad FLOATSCOPE_MEMORY_LIMIT does
/// not matter when --memory-limit overrides it.
std::atomic<std::uint64_t> chosen_limit{0};

thread_local MemoryTally* innermost_tally = nullptr;

}  // namespace

std::uint64_t parse_memory_size(std::string_view text, std::string_view source) {
    auto refuse = [&](std::string_view why) {
        return Error(fmt::format("{} '{}': {}; write a size such as 512M or 16G (binary units K, M, G, T; at least 1M)",
                                 source, text, why));
    };
    double number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc() || end == text.data()) throw refuse("not a size");
    std::string unit(end, text.data() + text.size());
    for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (unit.size() > 1 && (unit.substr(1) == "IB" || unit.substr(1) == "B")) unit.resize(1);
    static constexpr std::array<std::pair<std::string_view, double>, 6> units = {
        {{"", 1.0}, {"B", 1.0}, {"K", 0x1p10}, {"M", 0x1p20}, {"G", 0x1p30}, {"T", 0x1p40}}};
    for (const auto& [name, scale] : units) {
        if (unit != name) continue;
        const double bytes = number * scale;
        if (!(bytes >= static_cast<double>(mebibyte))) throw refuse("below 1M");
        if (bytes > largest_size) throw refuse("above 2^60 bytes");
        return static_cast<std::uint64_t>(bytes);
    }
    throw refuse("unknown unit '" + std::string(end, text.data() + text.size()) + "'");
}

std::string format_memory_size(double bytes) {
    static constexpr std::array<std::string_view, 7> units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    std::size_t unit = 0;
    while (unit + 1 < units.size() && bytes >= 1024) {
        bytes /= 1024;
        ++unit;
    }
    // One decimal, dropped when it is zero: "8 GiB", "12.3 GiB".
    const double rounded = std::round(bytes * 10) / 10;
    return rounded == std::floor(rounded) ? fmt::format("{:.0f} {}", rounded, units[unit])
                                          : fmt::format("{:.1f} {}", rounded, units[unit]);
}

std::uint64_t memory_limit() {
    if (const std::uint64_t chosen = chosen_limit.load(std::memory_order_relaxed); chosen != 0) return chosen;
    static const std::uint64_t initial = default_limit();
    return initial;
}

void set_memory_limit(std::uint64_t bytes) { chosen_limit.store(bytes, std::memory_order_relaxed); }

double mpfr_number_bytes(long precision) {
    const long limbs = (precision + mp_bits_per_limb - 1) / mp_bits_per_limb;
    // The limbs are a heap block of their own, led by a limb that MPFR keeps their count in; glibc's
    // malloc adds 8 bytes and rounds up to 16, at least 32 (a 53-bit number takes 64 bytes, not 40).
    const double limb_bytes = static_cast<double>(sizeof(mp_limb_t)) * static_cast<double>(limbs + 1);
    const double block = std::max(32.0, std::ceil((limb_bytes + 8) / 16) * 16);
    return static_cast<double>(sizeof(mpfr_t)) + block;
}

void require_memory(std::string_view what, double bytes) {
    const std::uint64_t limit = memory_limit();
    if (bytes > static_cast<double>(limit))
        throw Error(fmt::format("{} needs {}; the limit is {} (raise it with --memory-limit or {})", what,
                                format_memory_size(bytes), format_memory_size(static_cast<double>(limit)),
                                environment_variable));
    if (innermost_tally != nullptr) innermost_tally->bytes_ += bytes;
}

MemoryTally::MemoryTally() : outer_(innermost_tally) { innermost_tally = this; }

MemoryTally::~MemoryTally() { innermost_tally = outer_; }

}  // namespace floatscope::core
