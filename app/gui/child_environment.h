#pragma once
// The environment of an `adala` child process the workbench starts: its own, with OpenMP's
// idle threads sleeping (OpenMP threads spinning between parallel regions take the cores
// OpenBLAS's pool needs; configure_threads reads OMP_WAIT_POLICY when the command starts) and
// OpenBLAS's idle workers sleeping soon (engine/runtime/device.h): set here, the child need not
// re-execute itself to set them.
#include <QProcessEnvironment>

#include "engine/runtime/device.h"

namespace adala::gui {

inline QProcessEnvironment adalaChildEnvironment() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  if (!env.contains(QStringLiteral("OMP_WAIT_POLICY")))
    env.insert(QStringLiteral("OMP_WAIT_POLICY"), QStringLiteral("PASSIVE"));
  if (!env.contains(QStringLiteral("OPENBLAS_THREAD_TIMEOUT")))
    env.insert(QStringLiteral("OPENBLAS_THREAD_TIMEOUT"),
               QString::fromLatin1(kOpenBlasThreadTimeout));
  return env;
}

}  // namespace adala::gui
