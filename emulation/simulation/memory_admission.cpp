#include "emulation/simulation/memory_admission.hpp"

#include <algorithm>

namespace floatscope::emu {

void MemoryAdmission::admit(std::size_t ticket, std::uint64_t bytes, std::uint64_t companion) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] {
        if (ticket != next_ticket_) return false;
        return open_ || held_ <= companion || bytes <= limit_ - std::min(held_, limit_);
    });
    if (!open_) held_ += bytes;
    ++next_ticket_;
    changed_.notify_all();
}

void MemoryAdmission::release(std::uint64_t bytes) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (open_) return;  // open() dropped what was held
        held_ -= std::min(bytes, held_);
    }
    changed_.notify_all();
}

void MemoryAdmission::open() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        open_ = true;
        held_ = 0;
    }
    changed_.notify_all();
}

std::uint64_t MemoryAdmission::held() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return held_;
}

}  // namespace floatscope::emu
