#pragma once
// The ConfigError an experiment document gets from the parser, for the suites that check each
// malformed case's message.
#include <string>

#include "engine/json/json.h"
#include "engine/train/config/experiment_config.h"

namespace adala_test {

// The parser's ConfigError message for `text`, or "" when the document is valid.
inline std::string config_error_of(const std::string& text) {
  try {
    adala::parse_experiment_config(adala::parse_json_strict(text));
  } catch (const adala::ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace adala_test
