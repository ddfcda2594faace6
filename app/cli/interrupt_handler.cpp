#include "app/cli/interrupt_handler.h"

#include <csignal>

namespace adala::cli {

namespace {

JobControl* g_control = nullptr;

extern "C" void on_interrupt(int) {
  if (g_control) g_control->request_cancel();
}

}  // namespace

ScopedInterruptHandler::ScopedInterruptHandler(JobControl& control) {
  g_control = &control;
  previous_int_ = std::signal(SIGINT, on_interrupt);
  previous_term_ = std::signal(SIGTERM, on_interrupt);
}

ScopedInterruptHandler::~ScopedInterruptHandler() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
  g_control = nullptr;
}

}  // namespace adala::cli
