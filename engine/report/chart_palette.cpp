#include "engine/report/chart_palette.h"

#include <array>

namespace adala::report {

namespace {
constexpr std::array<Rgb, 10> kTableau10 = {{{31, 119, 180},
                                             {255, 127, 14},
                                             {44, 160, 44},
                                             {214, 39, 40},
                                             {148, 103, 189},
                                             {140, 86, 75},
                                             {227, 119, 194},
                                             {127, 127, 127},
                                             {188, 189, 34},
                                             {23, 190, 207}}};
}  // namespace

Rgb palette_color(size_t index) { return kTableau10[index % kTableau10.size()]; }

Rgb mode_color(const std::string& mode) {
  if (mode == kSoftmaxMode || mode == "teacher") return kTableau10[0];  // blue
  if (mode == kLinearMode || mode == "student") return kTableau10[2];   // green
  if (mode == "softmax-chunked") return kTableau10[1];                  // orange
  return kTableau10[4];                                                 // purple
}

}  // namespace adala::report
