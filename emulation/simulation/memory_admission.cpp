#include "emulation/simulation/memory_admission.hpp"

#include <algorithm>

namespace floatscope::emu {

void MemoryAdmission::admit(std::size_t ticket, std::uint64_t bytes, std::size_t run) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] {
        if (ticket != next_ticket_) return false;
        const auto parked = parked_by_run_.find(run);
        const bool only_own_parked = held_ == (parked == parked_by_run_.end() ? 0 : parked->second);
        return open_ || only_own_parked || bytes <= limit_ - std::min(held_, limit_);
    });
    if (!open_) held_ += bytes;
    ++next_ticket_;
    changed_.notify_all();
}

void MemoryAdmission::park(std::uint64_t bytes, std::size_t run) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (open_) return;
        parked_by_run_[run] += bytes;
    }
    changed_.notify_all();
}

void MemoryAdmission::release(std::uint64_t bytes, std::size_t run) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (open_) return;  // open() dropped what was held
        if (const auto parked = parked_by_run_.find(run); parked != parked_by_run_.end()) {
            const std::uint64_t unparked = std::min(bytes, parked->second);
            parked->second -= unparked;
            if (parked->second == 0) parked_by_run_.erase(parked);
        }
        held_ -= std::min(bytes, held_);
    }
    changed_.notify_all();
}

void MemoryAdmission::open() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        open_ = true;
        held_ = 0;
        parked_by_run_.clear();
    }
    changed_.notify_all();
}

std::uint64_t MemoryAdmission::held() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return held_;
}

}  // namespace floatscope::emu
