// WorkerPool: one share offered at a time under a mutex, helpers counted in and out of it.
#include "core/worker_pool.hpp"

#include <system_error>

namespace floatscope::core {

WorkerPool::WorkerPool(int helpers, std::function<void()> on_exit) {
    for (int t = 0; t < helpers; ++t) {
        try {
            helpers_.emplace_back([this, on_exit] { serve(on_exit); });
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

void WorkerPool::serve(const std::function<void()>& on_exit) {
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
    if (on_exit) on_exit();
}

void WorkerPool::share(const std::function<void()>& share) {
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
