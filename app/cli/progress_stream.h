#pragma once
// Reads back what `--progress jsonl` writes on stderr (app/cli/progress_events.h): splits the
// byte stream into lines, parses each event line into a typed message, checking every field's
// presence, type and range (a line that fails is reported with the reason, never thrown), and
// keeps what a front end needs to explain a failure: the error event's message, else the
// command's own last "adala ..." line. Plain C++ (no Qt), so the workbench's processes
// (app/gui/scaling_bench_process.*, app/gui/run_process.*) share it and tests/fuzz fuzzes it.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/bench/scaling_csv.h"
#include "engine/train/events.h"

namespace adala::cli {

// bench scaling
struct BenchStartMessage {
  std::string benchmark, preset;
  int64_t total = 0;
  std::vector<int64_t> resolutions;
  std::vector<std::string> modes;
};
struct BenchProgressMessage {
  int64_t done = 0, total = 0;
  std::string label;
};
// One measured point (every mode of a resolution once all its rounds are in), as the CSV
// holds it: the fields pass the CSV reader's checks.
struct BenchPointMessage {
  ScalingCsvRow row;
};
struct CsvMessage {
  std::string path;
};
struct BenchDoneMessage {
  int64_t points = 0;
  int64_t run_id = -1;  // -1: not recorded
};
// both
struct RecordedMessage {
  int64_t run_id = 0;
};
struct ErrorMessage {
  std::string message;
};
// run
struct RunMessage {
  std::string name, run_dir;
  int64_t processes = 1;
};
struct RunFinishedMessage {
  std::string status;   // done | interrupted
  int64_t run_id = -1;  // -1: not recorded
};

using ProgressMessage =
    std::variant<BenchStartMessage, BenchProgressMessage, CsvMessage, BenchDoneMessage,
                 RecordedMessage, ErrorMessage, RunMessage, RunFinishedMessage, StepMetrics,
                 StageEvent, EvalMetrics, ArtifactEvent, LogEvent, BenchPointMessage>;

struct ProgressLine {
  enum class Kind {
    Text,     // not an event (does not start with '{'): the command's own text
    Event,    // `message` holds it
    Invalid,  // starts with '{' but is not a valid event: `error` says why
  };
  Kind kind = Kind::Text;
  ProgressMessage message;
  std::string error;
  std::string text;  // the line itself (without its line break)
};

// Largest numbers a progress event may carry (counts, steps, blocks, run ids); beyond them a
// line is invalid, not a cast's undefined behaviour.
constexpr int64_t kMaxProgressCount = int64_t(1) << 53;
constexpr size_t kMaxProgressBlocks = 4096;

ProgressLine parse_progress_line(std::string_view line);

// Feeds the bytes of a stderr stream as they arrive; returns the complete lines parsed.
class ProgressStream {
 public:
  std::vector<ProgressLine> feed(std::string_view bytes);
  std::vector<ProgressLine> finish();  // the last line, when the stream ended without a break

  // The error event's message, else the last text line that starts with "adala " (a usage
  // error or a launcher's report), else the last text line; "" when none.
  std::string failure_reason() const;
  const std::deque<std::string>& text_tail() const { return tail_; }  // the last 12 text lines

 private:
  void keep(const ProgressLine& line);
  std::string buffer_;
  std::deque<std::string> tail_;
  std::string error_;
};

}  // namespace adala::cli
