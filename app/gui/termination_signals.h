#pragma once
// SIGINT and SIGTERM close the workbench the way its window's close does, without asking: a
// running job stops after its step, checkpoints and is marked interrupted (resumable).
namespace adala::gui {

class MainWindow;

// The signals reach the event loop through a socket pair; call once, after the window exists.
void closeOnTerminationSignals(MainWindow& window);

}  // namespace adala::gui
