// parallel_rows: independent rows of a computation spread over threads, the same results on any number of them.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace floatscope::core {

/// Calls work(begin, end) for chunks of rows that together cover [0, rows) once each, on up to
/// `threads` threads (the caller's among them; 1 or less: all on the caller's). Each thread makes
/// its own worker with make_worker() (its scratch buffers) and takes the next chunk as it
/// finishes one, so rows of uneven cost still share the threads out. The work on a row must
/// depend on that row alone: then the results are the same whatever the thread count. The first
/// exception a worker throws is rethrown here, once every thread has stopped taking chunks.
template <typename MakeWorker>
void parallel_rows(std::size_t rows, int threads, const MakeWorker& make_worker) {
    const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), rows);
    if (count <= 1) {
        if (rows > 0) make_worker()(std::size_t{0}, rows);
        return;
    }
    // A few chunks per thread: balance without a synchronisation per row.
    const std::size_t chunk = std::max<std::size_t>(1, rows / (4 * count));
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    auto run = [&] {
        try {
            auto work = make_worker();
            for (std::size_t begin; !failed.load(std::memory_order_relaxed) && (begin = next.fetch_add(chunk)) < rows;)
                work(begin, std::min(rows, begin + chunk));
        } catch (...) {
            const std::lock_guard<std::mutex> lock(failure_mutex);
            if (!failure) failure = std::current_exception();
            failed = true;
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(count - 1);
    for (std::size_t t = 1; t < count; ++t) {
        try {
            pool.emplace_back(run);
        } catch (const std::system_error&) {
            break;  // no more threads to be had: those running share the rows, with the same results
        }
    }
    run();
    for (std::thread& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace floatscope::core
