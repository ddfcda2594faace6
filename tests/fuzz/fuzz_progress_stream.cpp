// libFuzzer target: the `--progress jsonl` reader (app/cli/progress_stream.h) the workbench
// runs on a child process's stderr. Whatever the bytes, in whatever chunks they arrive, it never
// crashes or throws: each line is text, a valid event or an invalid one with a reason; the
// numbers it accepts are in range; an event it accepts, written again, parses back the same.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "app/cli/progress_events.h"
#include "app/cli/progress_stream.h"

using namespace adala;
using namespace adala::cli;

namespace {

void check(const ProgressLine& line) {
  if (line.kind == ProgressLine::Kind::Invalid && line.error.empty()) __builtin_trap();
  if (line.kind != ProgressLine::Kind::Event) return;
  if (const auto* m = std::get_if<StepMetrics>(&line.message)) {
    if (m->step < 0 || m->total_steps < 0 || m->step > kMaxProgressCount) __builtin_trap();
    if (m->total_steps > 0 && m->step > m->total_steps) __builtin_trap();
    if (m->per_block_mse.size() > kMaxProgressBlocks) __builtin_trap();
    if (!(m->data_wait_share >= 0.0 && m->data_wait_share <= 1.0) &&
        m->data_wait_share == m->data_wait_share)
      __builtin_trap();
  }
  if (const auto* r = std::get_if<RecordedMessage>(&line.message))
    if (r->run_id < 1 || r->run_id > kMaxProgressCount) __builtin_trap();
  // An engine event written again reads back as an event of the same kind.
  const Event* engine = nullptr;
  Event copy;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, StepMetrics> || std::is_same_v<T, StageEvent> ||
                      std::is_same_v<T, EvalMetrics> || std::is_same_v<T, ArtifactEvent> ||
                      std::is_same_v<T, LogEvent>) {
          copy = v;
          engine = &copy;
        }
      },
      line.message);
  if (!engine) return;
  char* data = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&data, &size);
  ProgressEvents(out).engine_event(*engine);
  std::fclose(out);
  const ProgressLine again =
      parse_progress_line(std::string_view(data, size).substr(0, size ? size - 1 : 0));
  std::free(data);
  if (again.kind != ProgressLine::Kind::Event || again.message.index() != line.message.index())
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // The first byte picks the chunk size, as pipes deliver a stream in pieces.
  const size_t chunk = size ? size_t(uint8_t(bytes[0]) % 64) + 1 : 1;
  ProgressStream stream;
  for (size_t i = 0; i < bytes.size(); i += chunk)
    for (const auto& line : stream.feed(bytes.substr(i, chunk))) check(line);
  for (const auto& line : stream.finish()) check(line);
  (void)stream.failure_reason();
  return 0;
}
