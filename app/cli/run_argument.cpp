#include "app/cli/run_argument.h"

#include <filesystem>

#include "app/cli/arg_parser.h"
#ifdef ADALA_HAVE_STORE
#include "engine/store/run_store.h"
#endif

namespace adala::cli {

namespace fs = std::filesystem;

RunArgument resolve_run_argument(const std::string& arg, const std::string& db_option) {
  RunArgument out;
  std::error_code ec;
#ifdef ADALA_HAVE_STORE
  const std::string db = db_option.empty() ? store::RunStore::default_path() : db_option;
#else
  const std::string db = db_option;
#endif
  if (fs::is_directory(arg, ec)) {
    out.folder = fs::absolute(arg).lexically_normal().string();
#ifdef ADALA_HAVE_STORE
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
#endif
    return out;
  }
#ifdef ADALA_HAVE_STORE
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
#else
  throw UsageError(arg + ": not a run folder (this build has no run database)");
#endif
}

}  // namespace adala::cli
