// WorkerPool: threads started once that share out the rows of one computation after another.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace floatscope::core {

/// parallel_rows (parallel_rows.hpp) over threads that live as long as the pool: a computation of
/// many small steps (a graph's elementwise operations, one after another) starts no thread per
/// step. Starting a thread per step cost more than the step saved once the machine was loaded: a
/// new thread waits for the scheduler, and the step for it. Here the caller works through the
/// rows itself and waits only for the helpers that took a share; one that wakes late finds
/// nothing to do. The same contract as parallel_rows: work on a row depends on that row alone,
/// so the results are the same on any number of threads.
class WorkerPool {
public:
    /// `helpers` threads beside the caller's (0: the caller does all), started when a computation
    /// first has rows to share (a truth that shares none starts none); each calls on_exit() as it
    /// ends (the thread-local caches of a library the work uses).
    explicit WorkerPool(int helpers, std::function<void()> on_exit = {});
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;
    ~WorkerPool();

    /// The threads that share a computation: the helpers and the caller.
    int threads() const { return wanted_helpers_ + 1; }

    /// Calls work(begin, end) for chunks of rows that together cover [0, rows) once each, on the
    /// caller's thread and the helpers; each thread that takes a chunk first makes its own worker
    /// with make_worker() (its scratch buffers). The first exception a worker throws is rethrown
    /// here once every thread has stopped taking chunks. Called from one thread; a computation run
    /// inside another's chunk (a product inside an elementwise chunk) is done by the thread that runs it.
    template <typename MakeWorker>
    void run(std::size_t rows, const MakeWorker& make_worker) {
        if (rows == 0) return;
        if (wanted_helpers_ == 0 || rows == 1 || sharing_) {
            make_worker()(std::size_t{0}, rows);
            return;
        }
        // A few chunks per thread, as parallel_rows takes them.
        const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(threads()), rows);
        const std::size_t chunk = std::max<std::size_t>(1, rows / (4 * count));
        std::atomic<std::size_t> next{0};
        std::atomic<bool> failed{false};
        std::mutex failure_mutex;
        std::exception_ptr failure;
        share([&] {
            try {
                std::optional<decltype(make_worker())> work;
                for (std::size_t begin;
                     !failed.load(std::memory_order_relaxed) && (begin = next.fetch_add(chunk)) < rows;) {
                    if (!work) work.emplace(make_worker());
                    (*work)(begin, std::min(rows, begin + chunk));
                }
            } catch (...) {
                const std::lock_guard<std::mutex> lock(failure_mutex);
                if (!failure) failure = std::current_exception();
                failed = true;
            }
        });
        if (failure) std::rethrow_exception(failure);
    }

private:
    /// Runs `share` on the caller's thread and offers it to the helpers; returns once the caller's
    /// call and every helper's that began have returned (none begins after).
    void share(const std::function<void()>& share);
    void serve();
    /// The helpers, on the first share (those the system grants: the rows are shared by whoever runs).
    void start_helpers();

    std::mutex mutex_;
    std::condition_variable offered_, finished_;
    const std::function<void()>* current_ = nullptr;  ///< the share on offer; null when none
    std::uint64_t generation_ = 0;  ///< counts the shares offered, so that none is taken twice
    int busy_ = 0;  ///< helpers inside the current share
    bool stopping_ = false;
    bool sharing_ = false;  ///< the caller is inside share(): a nested run is not offered
    int wanted_helpers_;
    std::function<void()> on_exit_;
    std::vector<std::thread> helpers_;
};

}  // namespace floatscope::core
