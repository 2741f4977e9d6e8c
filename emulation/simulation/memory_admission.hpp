// Which of a batch's jobs may run at once: the memory they hold together stays within the limit.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace floatscope::emu {

/// Admits jobs in queue order (tickets 0, 1, 2, ..., each admitted once), each holding the bytes its
/// workload's checks stated, and makes a job wait while those would take the bytes held beyond the
/// limit. Queue order keeps it free of deadlock: whatever is held belongs to jobs admitted earlier,
/// which wait for nothing later (a policy job waits only for its run's ground truth, queued before it).
class MemoryAdmission {
public:
    explicit MemoryAdmission(std::uint64_t limit) : limit_(limit) {}

    /// Blocks until it is `ticket`'s turn and its `bytes` fit beside what is held, or nothing is
    /// held but `companion` (bytes held for its run's ground truth, which it cannot finish without;
    /// so that one run whose truth and policy job together exceed the limit still runs, alone);
    /// then holds `bytes`. After open(), only the turn is waited for and nothing is held.
    void admit(std::size_t ticket, std::uint64_t bytes, std::uint64_t companion);
    void release(std::uint64_t bytes);
    /// Lets every job through: after a failure the batch is cancelled, and its jobs must reach
    /// their cancellation checks rather than wait for memory.
    void open();

    std::uint64_t held() const;

private:
    const std::uint64_t limit_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t next_ticket_ = 0;
    std::uint64_t held_ = 0;
    bool open_ = false;
};

}  // namespace floatscope::emu
