#include <cstdio>
#include <cstdlib>
#include <thread>

#include <ATen/Parallel.h>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "engine/runtime/build_info.h"
#include "engine/runtime/device.h"

#include <sqlite3.h>
#ifdef ADALA_HAVE_OPENCV
#include <opencv2/core/version.hpp>
#endif
#ifdef ADALA_HAVE_QT
#include <QtGlobal>
#endif

namespace adala::cli {

int info_command(const Args& args) {
  CLI::App app{"Prints library versions, CUDA availability and threads.", "adala info"};
  prepare_command_app(app);
  if (!parse_command_line(app, args)) return 0;
  std::printf("AdaLA Workbench %s (%s)\n", kProjectVersion, kGitVersion);
  std::printf("LibTorch        %s\n", torch_version_string().c_str());
  std::printf("CUDA available  %s (%d device%s)\n", cuda_available() ? "yes" : "no",
              cuda_device_count(), cuda_device_count() == 1 ? "" : "s");
  std::printf("intra-op threads %d (hardware %u)\n", at::get_num_threads(),
              std::thread::hardware_concurrency());
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  const char* timeout = std::getenv("OPENBLAS_THREAD_TIMEOUT");
  std::printf("OpenBLAS threads %d (OMP_WAIT_POLICY=%s, OPENBLAS_THREAD_TIMEOUT=%s)\n",
              openblas_threads(), policy ? policy : "unset", timeout ? timeout : "unset");
#ifdef ADALA_HAVE_QT
  std::printf("Qt              %s\n", qVersion());
#else
  std::printf("Qt              (not built: ADALA_BUILD_GUI=OFF)\n");
#endif
#ifdef ADALA_HAVE_OPENCV
  std::printf("OpenCV          %s\n", CV_VERSION);
#else
  std::printf("OpenCV          (not built: ADALA_BUILD_GUI=OFF)\n");
#endif
  std::printf("SQLite          %s\n", sqlite3_libversion());
  return 0;
}

}  // namespace adala::cli
