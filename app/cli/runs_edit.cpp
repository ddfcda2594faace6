// `adala runs delete|tag|note|rename`: the commands that change one run.
#include <algorithm>
#include <cctype>
#include <iostream>

#include "app/cli/runs_common.h"
#include "app/cli/table_cells.h"

namespace adala::cli::runs {

namespace {

bool confirmed(const std::string& question, std::ostream& out) {
  out << question << " [y/N] " << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  std::transform(answer.begin(), answer.end(), answer.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return answer == "y" || answer == "yes";
}

}  // namespace

int delete_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_writing(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  const size_t artifact_count = store.artifacts(run.id).size();
  if (!o.yes && !confirmed("Delete run " + std::to_string(run.id) + " (" + run.name + ") and its " +
                               std::to_string(artifact_count) + " artifacts?",
                           out)) {
    out << "not deleted\n";
    return 1;
  }
  const auto removed = store.delete_run(run.id);
  out << "deleted run " << run.id << " (" << run.name << "); removed " << removed.size() << " of "
      << artifact_count << " artifact files";
  if (removed.size() < artifact_count) out << " (the others are missing or shared with other runs)";
  out << "\n";
  return 0;
}

int tag_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_writing(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  const std::string& tag = o.text;
  if (o.remove) {
    store.remove_tag(run.id, tag);
  } else {
    store.add_tag(run.id, tag);
  }
  out << "run " << run.id << " tags: " << join(store.find_run(run.id)->tags, ", ") << "\n";
  return 0;
}

int note_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_writing(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  store.set_notes(run.id, o.text);
  out << "run " << run.id << " notes set\n";
  return 0;
}

int rename_run(const RunsOptions& o, std::ostream& out) {
  RunStore store = open_for_writing(database_path(o));
  const RunInfo run = resolve_run(store, o.run);
  store.rename_run(run.id, o.text);
  out << "run " << run.id << " renamed from " << run.name << " to " << o.text << "\n";
  return 0;
}

}  // namespace adala::cli::runs
