#pragma once
// Every `adala` sub-command: takes the arguments after its name, returns the exit code.
#include <string>
#include <vector>

namespace adala::cli {

using Args = std::vector<std::string>;

int info_command(const Args& args);
int inspect_weights_command(const Args& args);
int bench_command(const Args& args);
int run_command(const Args& args);
int ablate_command(const Args& args);
int compare_methods_command(const Args& args);
int plan_command(const Args& args);
#ifdef ADALA_HAVE_IMAGE_FILES
int data_command(const Args& args);
#endif
#ifdef ADALA_HAVE_INFER
int predict_command(const Args& args);
int embed_command(const Args& args);
int export_command(const Args& args);
int features_command(const Args& args);
int resolution_sweep_command(const Args& args);
#endif
int runs_command(const Args& args);
int frontier_command(const Args& args);
#ifdef ADALA_HAVE_SEG
int segment_command(const Args& args);
#endif
int report_command(const Args& args);

}  // namespace adala::cli
