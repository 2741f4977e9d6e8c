// What the simulator-workspace tests share: a main window driven in-process (offscreen), a small
// MLP setup, and waiting for a run to end.
#pragma once

#include <QElapsedTimer>
#include <QSignalSpy>
#include <string>
#include <vector>

#include "app/gui/main_window.hpp"
#include "app/gui/simulator/runner_view.hpp"
#include "app/gui/simulator/simulator_workspace.hpp"

namespace floatscope::test {

constexpr int run_timeout_ms = 120000;  // generous: a loaded CI machine; the runs take well under a second

/// A 4-layer MLP, small enough for a test, under fp32 and fp16.
inline gui::RunSetup small_mlp(std::vector<gui::PolicyEntry> policies = {{"fp32", {}}, {"fp16", {}}}) {
    return {"mlp-forward", {{"depth", "4"}, {"width", "16"}, {"batch", "4"}}, std::move(policies)};
}

inline bool wait_for_run(QSignalSpy& finished, QSignalSpy& failed) {
    QElapsedTimer clock;
    clock.start();
    while (finished.count() + failed.count() == 0 && clock.elapsed() < run_timeout_ms) finished.wait(200);
    return finished.count() + failed.count() > 0;
}

struct Workspace {
    gui::MainWindow window{false};
    gui::SimulatorWorkspace& ws = *window.workspace();
    QSignalSpy finished{&ws, &gui::SimulatorWorkspace::run_finished};
    QSignalSpy failed{&ws, &gui::SimulatorWorkspace::run_failed};

    /// Runs `setup` from the runner to the end; true when it finished.
    bool run(const gui::RunSetup& setup) {
        ws.runner_view()->set_setup(setup);
        finished.clear();
        failed.clear();
        if (!ws.start_run()) return false;
        return wait_for_run(finished, failed) && finished.count() == 1;
    }
};

}  // namespace floatscope::test
