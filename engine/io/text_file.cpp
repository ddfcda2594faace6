#include "engine/io/text_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace adala {

namespace fs = std::filesystem;

void write_text(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  std::error_code ec;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      if (!fs::is_directory(temporary, ec)) fs::remove(temporary, ec);
      throw std::runtime_error("cannot write " + path + " (through " + temporary + ")");
    }
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    const std::string reason = ec.message();
    fs::remove(temporary, ec);
    throw std::runtime_error("cannot write " + path + ": " + reason);
  }
}

std::string read_text(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!in || fs::is_directory(path, ec)) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read " + path);
  return text.str();
}

}  // namespace adala
