#include "app/gui/workbench_test_hooks.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/stall_meter.h"
#include "app/gui/workbench_options.h"
#include "widgets/runs/run_types.h"

namespace adala::gui {

namespace {

// Prints both meters' results for the finished run and exits with the verdict.
void reportStall(const widgets::JobState& s, StallMeter* stage2, StallMeter* whole) {
  stage2->stop();
  whole->stop();
  std::printf("run %lld: %s\n", static_cast<long long>(s.runId),
              qPrintable(widgets::jobStatusName(s.status)));
  if (stage2->ticks() == 0) {
    std::printf("GUI-thread stall: no Stage 2 (feature_alignment) ran; select stage 2\n");
    QApplication::exit(2);
    return;
  }
  std::printf("GUI-thread stall during Stage 2: %s\n", qPrintable(stage2->report()));
  std::printf("GUI-thread stall over the whole run: %s\n", qPrintable(whole->report()));
  for (const auto* m : {stage2, whole})
    std::printf("  slowest event %s: %.1f ms in %s\n",
                m == stage2 ? "during Stage 2" : "over the whole run", m->slowestEventMs(),
                qPrintable(m->slowestEvent()));
  const bool pass = stage2->maxGapMs() < 50.0;
  std::printf("target < 50 ms: %s\n", pass ? "met" : "MISSED");
  std::fflush(stdout);
  QApplication::exit(pass ? 0 : 1);
}

// --measure-stall: one meter over the whole run, one while Stage 2 trains.
void measureStall(MainWindow& window, EngineController& controller) {
  auto* stage2 = new StallMeter(5, &window);
  auto* whole = new StallMeter(5, &window);
  QObject::connect(&controller, &EngineController::jobStarted, whole, [whole] { whole->start(); });
  QObject::connect(&controller, &EngineController::stageChanged, stage2,
                   [stage2](const widgets::StageUpdate& u) {
                     if (widgets::stageIndex(u.stage) != 2) return;  // it watches Stage 2
                     if (u.kind == widgets::StageUpdate::Kind::Started)
                       stage2->start();
                     else
                       stage2->stop();
                   });
  QObject::connect(&controller, &EngineController::jobFinished, &window,
                   [stage2, whole](const widgets::JobState& s) { reportStall(s, stage2, whole); });
}

}  // namespace

void installTestHooks(const WorkbenchOptions& o, MainWindow& window, EngineController& controller) {
  if (o.measureStall) measureStall(window, controller);
  if (o.quitAfterSeconds || o.quitWhenDone) window.setQuitConfirmation([] { return true; });
  if (o.quitAfterSeconds)
    QTimer::singleShot(static_cast<int>(*o.quitAfterSeconds * 1000), &window,
                       [&window] { window.close(); });
  if (o.quitWhenDone)
    QObject::connect(&controller, &EngineController::idle, &window, [&window] {
      QTimer::singleShot(500, &window, [&window] { window.close(); });
    });
}

}  // namespace adala::gui
