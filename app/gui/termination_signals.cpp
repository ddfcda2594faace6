#include "app/gui/termination_signals.h"

#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

#include "app/gui/main_window.h"

namespace adala::gui {

namespace {

// [0]: written by the signal handler; [1]: read on the GUI thread.
int g_signalFd[2] = {-1, -1};

extern "C" void onTerminationSignal(int) {
  const char byte = 1;
  [[maybe_unused]] const auto n = ::write(g_signalFd[0], &byte, 1);
}

}  // namespace

void closeOnTerminationSignals(MainWindow& window) {
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFd) != 0) return;
  auto* notifier = new QSocketNotifier(g_signalFd[1], QSocketNotifier::Read, &window);
  QObject::connect(notifier, &QSocketNotifier::activated, &window, [&window] {
    char byte = 0;
    [[maybe_unused]] const auto n = ::read(g_signalFd[1], &byte, 1);
    std::fprintf(
        stderr,
        "adala-workbench: stopping (signal); a running job is checkpointed and left resumable\n");
    window.setQuitConfirmation([] { return true; });
    window.close();
  });
  std::signal(SIGINT, onTerminationSignal);
  std::signal(SIGTERM, onTerminationSignal);
}

}  // namespace adala::gui
