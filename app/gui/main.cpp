// `adala-workbench`: the desktop face of the engine. Every option drives the real window, so
// the same invocations serve users, scripted demos and screenshots: the line is read into
// WorkbenchOptions (app/gui/workbench_options.h) and applied to the window
// (app/gui/workbench_startup.h); the benchmark's and the scripts' hooks are
// app/gui/workbench_test_hooks.h.
#include "engine/runtime/device.h"
#include "engine/kernels/memory_reuse.h"

#include <QApplication>

#include <cstdio>

#include "app/gui/engine_controller.h"
#include "app/gui/main_window.h"
#include "app/gui/termination_signals.h"
#include "app/gui/workbench_options.h"
#include "app/gui/workbench_startup.h"
#include "app/gui/workbench_test_hooks.h"

using namespace adala::gui;

int main(int argc, char** argv) {
  adala::reexec_with_passive_thread_waits(argv);
  adala::keep_freed_memory_for_reuse();
  useOffscreenPlatformForHelp(argc, argv);
  QApplication app(argc, argv);
  setUpApplication(app);

  WorkbenchCommandLine commandLine;
  commandLine.process(app);  // --help, --version and unknown options print and exit
  QString error;
  const std::optional<WorkbenchOptions> options = commandLine.options(&error);
  if (!options) {
    std::fprintf(stderr, "adala-workbench: %s\n", qPrintable(error));
    return 2;
  }

  applyProcessOptions(*options);
  EngineController controller(options->database);
  MainWindow window(&controller);
  window.show();
  if (const auto exitCode = applyWorkbenchOptions(*options, window, controller)) return *exitCode;
  installTestHooks(*options, window, controller);
  closeOnTerminationSignals(window);
  return app.exec();
}
