// ConcurrentProgress: jobs that run at once, as one fraction that never goes back.
#include "emulation/simulation/concurrent_progress.hpp"

#include <algorithm>
#include <numeric>

namespace floatscope::emu {

ConcurrentProgress::ConcurrentProgress(RunControl& parent, std::vector<double> weights)
    : parent_(parent), shares_(std::move(weights)), done_(shares_.size(), 0.0) {
    const double total = std::accumulate(shares_.begin(), shares_.end(), 0.0);
    for (double& share : shares_) share = total > 0 ? share / total : 1.0 / static_cast<double>(shares_.size());
}

void ConcurrentProgress::report(std::size_t job, double fraction, const std::string& message) {
    // Reported under the lock: two sums computed in one order must reach the parent in it.
    const std::lock_guard<std::mutex> lock(mutex_);
    done_.at(job) = std::max(done_[job], std::clamp(fraction, 0.0, 1.0));
    double sum = 0;
    for (std::size_t j = 0; j < done_.size(); ++j) sum += done_[j] * shares_[j];
    parent_.checkpoint(std::min(sum, 1.0), message);
}

}  // namespace floatscope::emu
