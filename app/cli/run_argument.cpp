#include "app/cli/run_argument.h"

#include <filesystem>

#include "app/cli/arg_parser.h"
#include "engine/store/run_store.h"

namespace adala::cli {

namespace fs = std::filesystem;

RunArgument resolve_run_argument(const std::string& arg, const std::string& db_option) {
  RunArgument out;
  std::error_code ec;
  const std::string db = db_option.empty() ? store::RunStore::default_path() : db_option;
  if (fs::is_directory(arg, ec)) {
    out.folder = fs::absolute(arg).lexically_normal().string();
    if (fs::exists(db, ec)) {
      try {
        store::RunStore::upgrade_schema(db);
        store::RunStore store(db, store::OpenMode::ReadOnly);
        if (auto run = store.find_run_by_folder(out.folder)) {
          out.run_id = run->id;
          out.db = db;
        }
      } catch (const std::exception&) {
      }
    }
    return out;
  }
  if (!fs::exists(db, ec))
    throw UsageError(arg + ": not a run folder, and there is no run database at " + db +
                     " to look it up in (--db FILE)");
  store::RunStore::upgrade_schema(db);
  store::RunStore store(db, store::OpenMode::ReadOnly);
  const auto run = store.find_run(arg);
  if (!run) throw UsageError("no run \"" + arg + "\" in " + db);
  if (run->folder.empty()) throw UsageError("run " + std::to_string(run->id) + " has no folder");
  out.folder = run->folder;
  out.run_id = run->id;
  out.db = db;
  return out;
}

}  // namespace adala::cli
