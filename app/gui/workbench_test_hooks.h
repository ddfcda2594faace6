#pragma once
// What benchmarks, scripted demos and tests ask of `adala-workbench` on its command line
// (app/gui/workbench_options.h), apart from what users ask of the window:
//   --measure-stall  the GUI-thread stall meter (app/gui/stall_meter.h) runs while Stage 2
//                    trains; the result is printed when the run is over and the exit code
//                    says whether it met the 50 ms target (0 met, 1 missed, 2 no Stage 2);
//   --quit-after S   the window closes after S seconds (a running job is cancelled after its
//                    step and left resumable), without asking;
//   --quit-when-done the window closes once the started run is over, without asking.
namespace adala::gui {

class EngineController;
class MainWindow;
struct WorkbenchOptions;

void installTestHooks(const WorkbenchOptions& options, MainWindow& window,
                      EngineController& controller);

}  // namespace adala::gui
