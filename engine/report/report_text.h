#pragma once
// Small string helpers for the report (UTF-8 std::string throughout).
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace adala::report {

// Replaces %1..%9 in one pass (like QString::arg with several arguments): a placeholder
// without an argument stays as it is, and text inserted for %1 is never scanned again.
std::string arg(std::string_view pattern, std::initializer_list<std::string_view> args);
std::string arg(std::string_view pattern, const std::vector<std::string>& args);

std::string join(const std::vector<std::string>& parts, std::string_view separator);
bool starts_with(std::string_view text, std::string_view prefix);
bool contains(std::string_view text, std::string_view part);
std::string to_lower_ascii(std::string_view text);
std::string trimmed(std::string_view text);
std::string html_escaped(std::string_view text);  // < > & "
std::string zero_padded(int64_t value, int width);

// The whole text (surrounding blanks allowed) as a number, like QString::toDouble.
bool parse_double(std::string_view text, double* value);
std::string base64(std::string_view bytes);

// File names as QFileInfo names them: "/a/b.c.png" -> "b.c" (complete base name), "png".
std::string file_name(const std::string& path);
std::string complete_base_name(const std::string& path);
std::string suffix(const std::string& path);
std::string absolute_dir(const std::string& path);  // absolute path of the folder holding it

}  // namespace adala::report
