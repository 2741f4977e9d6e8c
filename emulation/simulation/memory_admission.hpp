// Which of a batch's jobs may run at once: the memory they hold together stays within the limit.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace floatscope::emu {

/// Admits jobs in queue order (tickets 0, 1, 2, ..., each admitted once), each holding the bytes its
/// workload's checks stated, and makes a job wait while those would take the bytes held beyond the
/// limit. Queue order keeps it free of deadlock: whatever is held belongs to jobs admitted earlier,
/// which wait for nothing later (a ground truth waits only for its run's policies, queued before it,
/// and their parked bytes never keep that truth out).
class MemoryAdmission {
public:
    explicit MemoryAdmission(std::uint64_t limit) : limit_(limit) {}

    /// Blocks until it is `ticket`'s turn and its `bytes` fit beside what is held, or all that is
    /// held is parked by its own `run` (a run whose jobs together exceed the limit still runs, one
    /// job at a time, alone); then holds `bytes` for `run`. After open(), only the turn is waited
    /// for and nothing is held.
    void admit(std::size_t ticket, std::uint64_t bytes, std::size_t run);
    /// A finished policy's `bytes` stay held, parked, until its run's ground truth has measured
    /// what it recorded: they wait for nothing but that truth, queued after it.
    void park(std::uint64_t bytes, std::size_t run);
    /// Releases `bytes` of `run`, parked ones first.
    void release(std::uint64_t bytes, std::size_t run);
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
    std::map<std::size_t, std::uint64_t> parked_by_run_;  ///< of held_
    bool open_ = false;
};

}  // namespace floatscope::emu
