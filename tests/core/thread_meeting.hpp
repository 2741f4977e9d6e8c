// ThreadMeeting: chunks that each wait until a second thread has taken one, to show threads side by side.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <set>
#include <thread>

namespace floatscope::test {

/// Each arrive() records its thread and waits (up to a few seconds) until two threads have
/// arrived: with threads running side by side, a second one comes at once.
class ThreadMeeting {
public:
    void arrive() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            ids_.insert(std::this_thread::get_id());
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (std::chrono::steady_clock::now() < deadline) {
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                if (ids_.size() >= 2) return;
            }
            std::this_thread::yield();
        }
    }
    std::size_t threads_seen() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return ids_.size();
    }

private:
    std::mutex mutex_;
    std::set<std::thread::id> ids_;
};

}  // namespace floatscope::test
