#include "engine/store/process_identity.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <vector>

namespace adala::store {
namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

std::string boot_id() { return read_first_line("/proc/sys/kernel/random/boot_id"); }

// Field 22 of /proc/PID/stat (start time in clock ticks since boot), "" if unreadable; a
// zombie (state Z) reads as gone too.
std::string process_start_time(long pid) {
  const std::string stat = read_first_line("/proc/" + std::to_string(pid) + "/stat");
  const auto close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return {};
  std::istringstream fields(stat.substr(close_paren + 2));
  std::string field;
  std::vector<std::string> rest;
  while (fields >> field) rest.push_back(field);
  // rest[0] is field 3 (state); field 22 is rest[19].
  if (rest.size() < 20 || rest[0] == "Z" || rest[0] == "X") return {};
  return rest[19];
}

bool pid_alive(long pid) {
  return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

}  // namespace

std::string current_process_token() {
  const long pid = static_cast<long>(getpid());
  const std::string boot = boot_id();
  const std::string start = process_start_time(pid);
  if (boot.empty() || start.empty()) return std::to_string(pid);
  return boot + ":" + std::to_string(pid) + ":" + start;
}

WriterState writer_state(const std::string& token) {
  if (token.empty()) return WriterState::Gone;
  if (token == current_process_token()) return WriterState::ThisProcess;

  std::vector<std::string> parts;
  std::stringstream in(token);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  long pid = 0;
  try {
    pid = std::stol(parts.size() == 3 ? parts[1] : parts.at(0));
  } catch (const std::exception&) {
    return WriterState::Gone;
  }
  if (parts.size() == 3) {
    if (parts[0] != boot_id()) return WriterState::Gone;  // written before a reboot
    return process_start_time(pid) == parts[2] ? WriterState::OtherLiveProcess : WriterState::Gone;
  }
  return pid_alive(pid) && pid != static_cast<long>(getpid()) ? WriterState::OtherLiveProcess
                                                              : WriterState::Gone;
}

}  // namespace adala::store
