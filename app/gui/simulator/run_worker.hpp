// RunWorker: runs the engine on a thread of its own and reports back to the GUI thread.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "emulation/simulation/engine.hpp"

namespace floatscope::gui {

/// One run at a time. Progress, completion and failure arrive as signals in the GUI thread, so the
/// event loop never waits on the engine. The engine's threads only write what happened into a
/// mutex-guarded outbox; a timer in the GUI thread collects it every `progress_interval`, which also
/// throttles progress to one signal per interval. (Queued calls across threads would do the same,
/// but their hand-over happens inside Qt, where ThreadSanitizer cannot see it.)
class RunWorker : public QObject {
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds progress_interval{50};

    explicit RunWorker(QObject* parent = nullptr);
    /// Cancels a run in progress and waits for its thread to end.
    ~RunWorker() override;

    /// Starts the requests (build_requests has checked them) on the worker thread; false when a run
    /// is already in progress.
    bool start(std::vector<emu::RunRequest> requests, int threads);
    /// Starts any job that makes a report under a RunControl (the advisor's tune) the same way.
    bool start(std::function<emu::Report(emu::RunControl&)> job);
    /// Asks the run to stop at its next checkpoint; `failed(..., true)` follows.
    void cancel();
    bool running() const { return running_; }

signals:
    void progress(double fraction, const QString& message);
    void finished(const floatscope::emu::Report& report);
    /// `cancelled`: the user asked for it; otherwise `message` is the engine's error.
    void failed(const QString& message, bool cancelled);

private:
    struct Outbox;
    /// Emits what the outbox holds; after the outcome, ends the run.
    void collect();
    void join();

    std::thread thread_;
    std::shared_ptr<emu::RunControl> control_;
    std::shared_ptr<Outbox> outbox_;
    QTimer timer_;
    bool running_ = false;
};

}  // namespace floatscope::gui
