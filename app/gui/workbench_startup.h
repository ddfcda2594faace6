#pragma once
// `adala-workbench` from its parsed command line (app/gui/workbench_options.h) to a window
// that shows what the line asked for: the application's names and language, the process-wide
// settings, then the window's runs, views and inspector.
#include <optional>

class QApplication;

namespace adala::gui {

class EngineController;
class MainWindow;
struct WorkbenchOptions;

// Names, icon and interface language (before the command line is read: its help is translated).
void setUpApplication(QApplication& app);

// What holds for the whole process, before the window exists: LibTorch's threads, the theme.
void applyProcessOptions(const WorkbenchOptions& options);

// What the line asks of the shown window: the experiment to open (and the run to start), the
// recorded runs to show or compare, the inspector's checkpoint, image and view, the
// segmentation results, the scaling CSV, the tab. Returns the exit code, with the reason on
// stderr, when the run to start cannot be (its experiment does not open or is not valid).
std::optional<int> applyWorkbenchOptions(const WorkbenchOptions& options, MainWindow& window,
                                         EngineController& controller);

}  // namespace adala::gui
