#pragma once
// The environment of an `adala` child process the workbench starts: its own, with OpenMP's
// idle threads sleeping (OpenMP threads spinning between parallel regions take the cores
// OpenBLAS's pool needs; configure_threads reads OMP_WAIT_POLICY when the command starts).
#include <QProcessEnvironment>

namespace adala::gui {

inline QProcessEnvironment adalaChildEnvironment() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  if (!env.contains(QStringLiteral("OMP_WAIT_POLICY")))
    env.insert(QStringLiteral("OMP_WAIT_POLICY"), QStringLiteral("PASSIVE"));
  return env;
}

}  // namespace adala::gui
