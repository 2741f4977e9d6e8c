// The engine off the GUI thread: its threads fill an outbox, the GUI thread empties it on a timer.
#include "app/gui/simulator/run_worker.hpp"

#include <mutex>
#include <optional>
#include <utility>

#include "app/gui/simulator/run_setup.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

/// What the engine's threads leave for the GUI thread: the latest progress, then the outcome.
struct RunWorker::Outbox {
    struct Progress {
        double fraction = 0;
        std::string message;
    };
    struct Failure {
        std::string message;
        bool cancelled = false;
    };
    std::mutex mutex;
    std::optional<Progress> progress;
    std::optional<emu::Report> report;
    std::optional<Failure> failure;
};

RunWorker::RunWorker(QObject* parent) : QObject(parent) {
    timer_.setInterval(progress_interval);
    connect(&timer_, &QTimer::timeout, this, &RunWorker::collect);
}

RunWorker::~RunWorker() {
    cancel();
    join();
}

bool RunWorker::start(std::vector<emu::RunRequest> requests, int threads) {
    return start([requests = std::move(requests), threads](emu::RunControl& control) {
        return execute(requests, threads, control);
    });
}

bool RunWorker::start(std::function<emu::Report(emu::RunControl&)> job) {
    if (running_) return false;
    join();
    running_ = true;
    auto outbox = std::make_shared<Outbox>();
    outbox_ = outbox;
    // The callback runs on engine threads: it only leaves the latest progress in the outbox.
    control_ = std::make_shared<emu::RunControl>([outbox](double fraction, const std::string& message) {
        const std::lock_guard<std::mutex> lock(outbox->mutex);
        outbox->progress = Outbox::Progress{fraction, message};
    });
    thread_ = std::thread([outbox, control = control_, job = std::move(job)] {
        // Everything the engine throws becomes a message: the GUI shows it, nothing crashes.
        std::optional<emu::Report> report;
        std::optional<Outbox::Failure> failure;
        try {
            report = job(*control);
        } catch (const emu::Cancelled&) {
            failure = Outbox::Failure{"The run was cancelled.", true};
        } catch (const std::exception& e) {
            failure = Outbox::Failure{e.what(), false};
        }
        const std::lock_guard<std::mutex> lock(outbox->mutex);
        outbox->report = std::move(report);
        outbox->failure = std::move(failure);
    });
    timer_.start();
    return true;
}

void RunWorker::collect() {
    std::optional<Outbox::Progress> progress;
    std::optional<emu::Report> report;
    std::optional<Outbox::Failure> failure;
    {
        const std::lock_guard<std::mutex> lock(outbox_->mutex);
        progress = std::exchange(outbox_->progress, std::nullopt);
        report = std::exchange(outbox_->report, std::nullopt);
        failure = std::exchange(outbox_->failure, std::nullopt);
    }
    if (progress) emit this->progress(progress->fraction, QString::fromStdString(progress->message));
    if (!report && !failure) return;
    // The outcome is the thread's last act: it has ended, or is about to.
    timer_.stop();
    join();
    running_ = false;
    if (report)
        emit finished(*report);
    else
        emit failed(QString::fromStdString(failure->message), failure->cancelled);
}

void RunWorker::cancel() {
    if (control_) control_->request_cancel();
}

void RunWorker::join() {
    if (thread_.joinable()) thread_.join();
}

}  // namespace floatscope::gui
