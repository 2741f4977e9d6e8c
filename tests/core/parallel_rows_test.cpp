// Tests of core/parallel_rows: every row once on any number of threads, per-thread workers, failures passed on.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/parallel_rows.hpp"

using floatscope::core::parallel_rows;

TEST_CASE("parallel_rows covers every row once, whatever the number of threads") {
    for (std::size_t rows : {0u, 1u, 2u, 7u, 100u, 1001u}) {
        for (int threads : {-1, 0, 1, 2, 3, 16}) {
            std::vector<std::atomic<int>> seen(rows);
            std::atomic<int> workers{0};
            parallel_rows(rows, threads, [&] {
                ++workers;
                return [&](std::size_t begin, std::size_t end) {
                    REQUIRE(begin < end);
                    REQUIRE(end <= rows);
                    for (std::size_t i = begin; i < end; ++i) ++seen[i];
                };
            });
            INFO(rows << " rows, " << threads << " threads");
            for (std::size_t i = 0; i < rows; ++i) REQUIRE(seen[i] == 1);
            // One worker per thread used, no more threads than rows or than asked for.
            CHECK(workers <= std::max(1, threads));
            CHECK(static_cast<std::size_t>(workers) <= std::max<std::size_t>(rows, 1));
        }
    }
}

TEST_CASE("parallel_rows runs on several threads and passes a worker's exception on") {
    // Each chunk waits (up to a few seconds) until a second thread has taken one: with threads
    // running side by side, one comes at once.
    std::mutex mutex;
    std::set<std::thread::id> ids;
    parallel_rows(64, 4, [&] {
        return [&](std::size_t, std::size_t) {
            {
                const std::lock_guard<std::mutex> lock(mutex);
                ids.insert(std::this_thread::get_id());
            }
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
            while (std::chrono::steady_clock::now() < deadline) {
                {
                    const std::lock_guard<std::mutex> lock(mutex);
                    if (ids.size() >= 2) break;
                }
                std::this_thread::yield();
            }
        };
    });
    CHECK(ids.size() >= 2);
    CHECK(ids.size() <= 4);
    CHECK_THROWS_WITH(parallel_rows(50, 3,
                                    [] {
                                        return [](std::size_t begin, std::size_t end) {
                                            if (begin <= 17 && 17 < end) throw std::runtime_error("row 17");
                                        };
                                    }),
                      "row 17");
}
