#pragma once
// Whole-file text I/O for the small documents runs leave behind (config.json, stages.json,
// index.json, summaries).
#include <string>

namespace adala {

// Writes `text` to `path` atomically: into `path` + ".tmp" first, then renamed over `path`, so
// a reader (or a crash) sees the old content or the new one, never a part. Throws
// std::runtime_error naming `path` when it cannot; `path` is then left as it was.
void write_text(const std::string& path, const std::string& text);

// The whole file, byte for byte. Throws std::runtime_error naming `path` when it cannot be read.
std::string read_text(const std::string& path);

}  // namespace adala
