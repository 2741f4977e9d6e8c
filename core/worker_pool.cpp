// WorkerPool: one share offered at a time under a mutex, helpers counted in and out of it.
#include "core/worker_pool.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

namespace floatscope::core {

WorkerPool::WorkerPool(int helpers, std::function<void()> on_exit)
    : wanted_helpers_(std::max(helpers, 0)), on_exit_(std::move(on_exit)) {}

void WorkerPool::start_helpers() {
    helpers_.reserve(static_cast<std::size_t>(wanted_helpers_));
    for (int t = 0; t < wanted_helpers_; ++t) {
        try {
            helpers_.emplace_back([this] { serve(); });
        } catch (const std::system_error&) {
            break;  // no more threads to be had: those running share the rows, with the same results
        }
    }
}

WorkerPool::~WorkerPool() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    offered_.notify_all();
    for (std::thread& t : helpers_) t.join();
}

void WorkerPool::serve() {
    std::uint64_t taken = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        offered_.wait(lock, [&] { return stopping_ || (current_ != nullptr && generation_ != taken); });
        if (stopping_) break;
        taken = generation_;
        const std::function<void()>& share = *current_;
        ++busy_;
        lock.unlock();
        share();  // catches what its work throws
        lock.lock();
        if (--busy_ == 0) finished_.notify_all();
    }
    lock.unlock();
    if (on_exit_) on_exit_();
}

void WorkerPool::share(const std::function<void()>& share) {
    if (helpers_.empty()) start_helpers();
    {
        // Under the lock: a helper that takes the share sees sharing_ set.
        const std::lock_guard<std::mutex> lock(mutex_);
        current_ = &share;
        ++generation_;
        sharing_ = true;
    }
    offered_.notify_all();
    share();
    std::unique_lock<std::mutex> lock(mutex_);
    current_ = nullptr;  // a helper that wakes from now on finds nothing on offer
    finished_.wait(lock, [&] { return busy_ == 0; });
    sharing_ = false;
}

}  // namespace floatscope::core
