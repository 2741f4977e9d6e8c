// Tests of core/parallel_rows: every row once on any number of threads, per-thread workers, failures passed on.
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "core/parallel_rows.hpp"
#include "tests/core/thread_meeting.hpp"

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
    floatscope::test::ThreadMeeting meeting;
    parallel_rows(64, 4, [&] { return [&](std::size_t, std::size_t) { meeting.arrive(); }; });
    CHECK(meeting.threads_seen() >= 2);
    CHECK(meeting.threads_seen() <= 4);
    CHECK_THROWS_WITH(parallel_rows(50, 3,
                                    [] {
                                        return [](std::size_t begin, std::size_t end) {
                                            if (begin <= 17 && 17 < end) throw std::runtime_error("row 17");
                                        };
                                    }),
                      "row 17");
}
