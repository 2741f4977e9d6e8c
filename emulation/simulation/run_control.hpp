// RunControl: how a running workload reports progress and learns that it should stop.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "core/error.hpp"

namespace floatscope::emu {

/// Thrown by RunControl::checkpoint once cancellation was requested; nothing of the run is kept.
class Cancelled : public Error {
public:
    Cancelled() : Error("the run was cancelled") {}
};

/// Shared by the caller (CLI, GUI worker) and the running workload. Thread-safe: the GUI cancels
/// from its own thread while the worker reports progress. A child control covers a part of its
/// parent's progress (one policy of several) and is cancelled with it.
class RunControl {
public:
    /// fraction in [0, 1] of the whole run; message says where it is ("bf16: layer 3 of 16").
    using ProgressCallback = std::function<void(double fraction, const std::string& message)>;

    RunControl() = default;
    explicit RunControl(ProgressCallback progress) : progress_(std::move(progress)) {}
    /// The part [begin, end] of `parent`'s progress; messages are prefixed with `label`.
    RunControl(RunControl& parent, double begin, double end, std::string label)
        : parent_(&parent), begin_(begin), end_(end), label_(std::move(label)) {}
    /// Cancelled with `parent`, its progress going to `progress` instead (one of several jobs that
    /// run at once: ConcurrentProgress sums them for the parent).
    RunControl(RunControl& parent, ProgressCallback progress) : progress_(std::move(progress)), parent_(&parent) {}
    RunControl(const RunControl&) = delete;
    RunControl& operator=(const RunControl&) = delete;

    void request_cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    bool cancel_requested() const {
        return cancelled_.load(std::memory_order_relaxed) || (parent_ != nullptr && parent_->cancel_requested());
    }

    /// Workloads call this between units of work (a layer, a step, a batch): reports progress and
    /// throws Cancelled when cancellation was requested.
    void checkpoint(double fraction, const std::string& message) {
        check_cancelled();
        if (progress_)
            progress_(fraction, message);
        else if (parent_ != nullptr)
            parent_->checkpoint(begin_ + fraction * (end_ - begin_),
                                label_.empty() ? message : label_ + ": " + message);
    }
    /// Checks for cancellation only (inner loops).
    void check_cancelled() const {
        if (cancel_requested()) throw Cancelled();
    }

private:
    ProgressCallback progress_;
    std::atomic<bool> cancelled_{false};
    RunControl* parent_ = nullptr;
    double begin_ = 0;
    double end_ = 1;
    std::string label_;
};

}  // namespace floatscope::emu
