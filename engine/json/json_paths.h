#pragma once
// A JSON document flattened to dotted paths, as run summaries, compare tables and reports
// show a config: "stages.teacher.lr" -> "0.001". Arrays of scalars stay on one line
// ("[224,448]"), arrays of objects get indices ("h[0].i"), an empty object reads "{}".
// Numbers read as %.12g, strings bare, booleans and null as JSON writes them.
#include <map>
#include <string>

#include "engine/json/json.h"

namespace adala {

// Keyed (and so sorted) by path; `prefix` names the root (empty: paths start at its keys).
std::map<std::string, std::string> flatten_json_paths(const Json& document,
                                                      const std::string& prefix = {});

}  // namespace adala
