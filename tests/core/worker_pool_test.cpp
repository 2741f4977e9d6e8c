// Tests of core/worker_pool: every row once in computation after computation, the helpers used and
// ended, started only when rows are shared, a nested run done by its caller, failures passed on; and the same results as parallel_rows.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/parallel_rows.hpp"
#include "core/worker_pool.hpp"
#include "tests/core/thread_meeting.hpp"

using floatscope::core::parallel_rows;
using floatscope::core::WorkerPool;

TEST_CASE("a worker pool covers every row once, computation after computation") {
    for (int helpers : {0, 1, 3}) {
        WorkerPool pool(helpers);
        CHECK(pool.threads() == helpers + 1);
        for (int round = 0; round < 200; ++round)  // many short computations, as a graph's steps are
            for (std::size_t rows : {0u, 1u, 2u, 7u, 100u, 1001u}) {
                std::vector<std::atomic<int>> seen(rows);
                std::atomic<int> workers{0};
                pool.run(rows, [&] {
                    ++workers;
                    return [&](std::size_t begin, std::size_t end) {
                        REQUIRE(begin < end);
                        REQUIRE(end <= rows);
                        for (std::size_t i = begin; i < end; ++i) ++seen[i];
                    };
                });
                INFO(rows << " rows, " << helpers << " helpers, round " << round);
                for (std::size_t i = 0; i < rows; ++i) REQUIRE(seen[i] == 1);
                CHECK(workers <= pool.threads());
            }
    }
}

TEST_CASE("a worker pool gives the numbers parallel_rows gives, on any number of threads") {
    // Row i's value depends on row i alone: a chain of operations whose rounding shows any mix-up.
    const std::size_t rows = 5000;
    auto fill = [&](std::vector<double>& out) {
        return [&] {
            return [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) {
                    double x = static_cast<double>(i) / 7;
                    for (int step = 0; step < 20; ++step) x = std::sqrt(x + 1) * 1.1;
                    out[i] = x;
                }
            };
        };
    };
    std::vector<double> expected(rows);
    parallel_rows(rows, 1, fill(expected));
    for (int helpers : {1, 2, 5}) {
        WorkerPool pool(helpers);
        std::vector<double> got(rows);
        pool.run(rows, fill(got));
        CHECK(got == expected);
    }
}

TEST_CASE("a worker pool's helpers share the rows, end with it, and pass a worker's exception on") {
    std::atomic<int> ended{0};
    {
        WorkerPool pool(3, [&] { ++ended; });
        floatscope::test::ThreadMeeting meeting;
        pool.run(64, [&] { return [&](std::size_t, std::size_t) { meeting.arrive(); }; });
        CHECK(meeting.threads_seen() >= 2);
        CHECK(meeting.threads_seen() <= 4);
        CHECK_THROWS_WITH(pool.run(50,
                                   [] {
                                       return [](std::size_t begin, std::size_t end) {
                                           if (begin <= 17 && 17 < end) throw std::runtime_error("row 17");
                                       };
                                   }),
                          "row 17");
        // The pool still serves after a failure.
        std::atomic<std::size_t> covered{0};
        pool.run(300, [&] { return [&](std::size_t begin, std::size_t end) { covered += end - begin; }; });
        CHECK(covered == 300);
        CHECK(ended == 0);
    }
    CHECK(ended == 3);
}

TEST_CASE("a worker pool starts its helpers only when it first shares rows") {
    // A truth that never shares (a sum's) must not add threads (python's test_threads counts them).
    std::atomic<int> ended{0};
    {
        WorkerPool pool(3, [&] { ++ended; });
        std::size_t covered = 0;
        pool.run(1, [&] { return [&](std::size_t begin, std::size_t end) { covered += end - begin; }; });
        CHECK(covered == 1);
    }
    CHECK(ended == 0);  // no helper ever started
    {
        WorkerPool pool(3, [&] { ++ended; });
        std::atomic<std::size_t> covered{0};
        pool.run(100, [&] { return [&](std::size_t begin, std::size_t end) { covered += end - begin; }; });
        CHECK(covered == 100);
    }
    CHECK(ended == 3);
}

TEST_CASE("a computation run inside another's chunk is done by the thread that runs it") {
    // Two outer rows for three threads: a helper is idle and would take an inner computation offered.
    WorkerPool pool(2);
    const std::size_t outer_rows = 2, inner_rows = 2000;
    std::vector<std::atomic<int>> seen(outer_rows * inner_rows);
    std::atomic<int> elsewhere{0};
    pool.run(outer_rows, [&] {
        return [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                const auto outer = std::this_thread::get_id();
                pool.run(inner_rows, [&] {
                    return [&, i](std::size_t b, std::size_t e) {
                        elsewhere += std::this_thread::get_id() != outer;
                        for (std::size_t j = b; j < e; ++j) {
                            ++seen[i * inner_rows + j];
                            std::this_thread::sleep_for(std::chrono::microseconds(20));
                        }
                    };
                });
            }
        };
    });
    CHECK(elsewhere == 0);
    for (const auto& s : seen) REQUIRE(s == 1);
}
