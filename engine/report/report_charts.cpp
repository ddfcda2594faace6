#include "engine/report/report_charts.h"

#include <array>

namespace adala::report {

Rgb palette_color(size_t index) {
  static constexpr std::array<Rgb, 10> kTableau10 = {{{31, 119, 180},
                                                      {255, 127, 14},
                                                      {44, 160, 44},
                                                      {214, 39, 40},
                                                      {148, 103, 189},
                                                      {140, 86, 75},
                                                      {227, 119, 194},
                                                      {127, 127, 127},
                                                      {188, 189, 34},
                                                      {23, 190, 207}}};
  return kTableau10[index % kTableau10.size()];
}

}  // namespace adala::report
