#pragma once
// The colours of plotted series, shared by the workbench's plots (widgets/) and the reports'
// charts (engine/report), so that a mode or a run has one colour wherever it is drawn. Plain
// C++ (library adala_chart_palette: no Qt, no database) so both sides can link it.
#include <cstddef>
#include <cstdint>
#include <string>

namespace adala::report {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};

// Tableau 10: distinguishable in print and for most colour-vision deficiencies; series i
// gets colour i (mod 10). Blocks, runs and other unnamed series.
Rgb palette_color(size_t index);

// The attention modes the teacher and the student run, as the scaling benchmark names them
// (engine/bench/scaling_bench.h) in its CSV's "mode" column.
inline constexpr const char* kSoftmaxMode = "softmax";
inline constexpr const char* kLinearMode = "linear";

// The colour of an attention mode or model role: softmax and the teacher (softmax attention)
// blue, linear and the student (linear attention) green, softmax-chunked orange; any other
// name purple.
Rgb mode_color(const std::string& mode);

}  // namespace adala::report
