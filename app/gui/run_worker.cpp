// The engine off the GUI thread: results and errors come back through queued calls.
#include "app/gui/run_worker.hpp"

#include <mutex>

#include "app/gui/run_setup.hpp"
#include "core/error.hpp"

namespace floatscope::gui {

RunWorker::RunWorker(QObject* parent) : QObject(parent) {}

RunWorker::~RunWorker() {
    cancel();
    join();
}

bool RunWorker::start(std::vector<emu::RunRequest> requests, int threads) {
    if (running_) return false;
    join();
    running_ = true;
    struct Throttle {
        std::mutex mutex;
        std::chrono::steady_clock::time_point last{};
    };
    auto throttle = std::make_shared<Throttle>();
    // The callback runs on engine threads; it only posts to the GUI thread. A queued call to a
    // deleted worker is dropped by Qt, and the destructor joins before that can happen anyway.
    control_ = std::make_shared<emu::RunControl>([this, throttle](double fraction, const std::string& message) {
        {
            const std::lock_guard<std::mutex> lock(throttle->mutex);
            const auto now = std::chrono::steady_clock::now();
            if (now - throttle->last < progress_interval && fraction < 1) return;
            throttle->last = now;
        }
        QMetaObject::invokeMethod(
            this, [this, fraction, text = QString::fromStdString(message)] { emit progress(fraction, text); },
            Qt::QueuedConnection);
    });
    thread_ = std::thread([this, control = control_, requests = std::move(requests), threads] {
        // Everything the engine throws becomes a message: the GUI shows it, nothing crashes.
        try {
            emu::Report report = execute(requests, threads, *control);
            QMetaObject::invokeMethod(
                this,
                [this, report = std::move(report)] {
                    running_ = false;
                    emit finished(report);
                },
                Qt::QueuedConnection);
        } catch (const emu::Cancelled&) {
            QMetaObject::invokeMethod(
                this,
                [this] {
                    running_ = false;
                    emit failed(QStringLiteral("The run was cancelled."), true);
                },
                Qt::QueuedConnection);
        } catch (const std::exception& e) {
            QMetaObject::invokeMethod(
                this,
                [this, text = QString::fromStdString(e.what())] {
                    running_ = false;
                    emit failed(text, false);
                },
                Qt::QueuedConnection);
        }
    });
    return true;
}

void RunWorker::cancel() {
    if (control_) control_->request_cancel();
}

void RunWorker::join() {
    if (thread_.joinable()) thread_.join();
}

}  // namespace floatscope::gui
