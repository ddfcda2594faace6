#pragma once
// Who is writing a run: a token naming this process ("boot-id:pid:start-time" on Linux,
// "pid" elsewhere), stored with a run while it is `running`, so that a later open can tell
// a run whose writer died (kill -9, power loss) from one that another process is still
// writing. A pid alone is not enough: pids are reused, across reboots in particular.
#include <string>

namespace adala::store {

std::string current_process_token();

enum class WriterState { ThisProcess, OtherLiveProcess, Gone };
// An empty or unparsable token counts as Gone (databases written before tokens existed).
WriterState writer_state(const std::string& token);

}  // namespace adala::store
