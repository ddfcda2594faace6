// libFuzzer target: an experiment config (JSON text -> ExperimentConfig). Every input is
// either a config or a ConfigError / JsonError; nothing else escapes, nothing crashes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/json/json.h"
#include "engine/train/config/experiment_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    adala::parse_experiment_config(adala::parse_json_strict(text));
  } catch (const adala::JsonError&) {
  } catch (const adala::ConfigError&) {
  }
  return 0;
}
