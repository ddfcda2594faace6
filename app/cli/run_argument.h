#pragma once
// A RUN argument of the analysis commands (features, resolution-sweep): a run folder, or a run
// id or name in the run database (--db, default RunStore::default_path()).
#include <cstdint>
#include <string>

namespace adala::cli {

struct RunArgument {
  std::string folder;   // the run folder (absolute)
  int64_t run_id = -1;  // its row in the database, -1 when none is known
  std::string db;       // the database the run was found in ("" when none)
};

// Throws UsageError for a run the database does not have, a run without a folder, or no
// database.
RunArgument resolve_run_argument(const std::string& arg, const std::string& db);

}  // namespace adala::cli
