#include "core/temporary_files.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <system_error>

#include <unistd.h>

namespace floatscope::core {
namespace {

// The handler may only read what it finds complete: a slot's path is written while the slot is
// free and published by setting `used` (release), read only where `used` is set (acquire).
constexpr std::size_t slot_count = 64;
constexpr std::size_t path_capacity = 4096;
struct Slot {
    std::atomic<bool> used{false};
    char path[path_capacity] = {};
};
std::array<Slot, slot_count> slots;
std::mutex slots_mutex;  // between threads that mark and unmark; the handler takes no lock
constexpr std::array<int, 3> handled_signals = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_marked_and_end(int signal_number) {
    for (Slot& slot : slots)
        if (slot.used.load(std::memory_order_acquire)) ::unlink(slot.path);
    // End as the signal would have: the parent (a shell, a job scheduler) sees the same status.
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

void install_handler_once() {
    static std::once_flag installed;
    std::call_once(installed, [] {
        for (int signal_number : handled_signals) {
            struct sigaction current {};
            if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
            struct sigaction action {};
            action.sa_handler = remove_marked_and_end;
            sigemptyset(&action.sa_mask);
            for (int other : handled_signals) sigaddset(&action.sa_mask, other);
            ::sigaction(signal_number, &action, nullptr);
        }
    });
}

std::string temporary_prefix(const std::filesystem::path& target) {
    std::string prefix(1, '.');  // appended piece by piece: `"." + string` trips GCC 12's false -Wrestrict
    return prefix.append(target.filename().string()).append(".tmp-");
}

}  // namespace

void remove_on_signal(const std::filesystem::path& path) {
    const std::string text = path.string();
    if (text.size() >= path_capacity) return;
    install_handler_once();
    const std::lock_guard lock(slots_mutex);
    for (Slot& slot : slots) {
        if (slot.used.load(std::memory_order_relaxed)) continue;
        std::memcpy(slot.path, text.c_str(), text.size() + 1);
        slot.used.store(true, std::memory_order_release);
        return;
    }
}

void keep_on_signal(const std::filesystem::path& path) {
    const std::string text = path.string();
    const std::lock_guard lock(slots_mutex);
    for (Slot& slot : slots)
        if (slot.used.load(std::memory_order_relaxed) && text == slot.path) {
            slot.used.store(false, std::memory_order_release);
            return;
        }
}

std::filesystem::path temporary_name(const std::filesystem::path& folder, const std::filesystem::path& target) {
    std::random_device entropy;
    return folder / (temporary_prefix(target) + std::to_string(::getpid()) + "-" + std::to_string(entropy()));
}

void remove_stale_temporaries(const std::filesystem::path& folder, const std::filesystem::path& target) {
    const std::string prefix = temporary_prefix(target);
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(prefix)) continue;
        // ".NAME.tmp-PID-RANDOM": a PID that no process has is a dead writer's.
        const char* first = name.data() + prefix.size();
        const char* last = name.data() + name.size();
        pid_t pid = 0;
        const auto [end, parsed] = std::from_chars(first, last, pid);
        if (parsed != std::errc() || end == last || *end != '-' || pid <= 0) continue;
        if (::kill(pid, 0) == 0 || errno != ESRCH) continue;
        std::error_code ignored;
        std::filesystem::remove(entry.path(), ignored);
    }
}

}  // namespace floatscope::core
