#pragma once
// `adala runs`: what its sub-commands share — the options given, opening the run database,
// and the cells and tables they print. Each sub-command writes to `out` and returns the exit
// code.
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "engine/store/run_store.h"

namespace adala::cli::runs {

using store::MetricRow;
using store::OpenMode;
using store::RunInfo;
using store::RunStore;
using store::StoreError;
using store::StoreErrorKind;

// What `adala runs SUB-COMMAND ...` was given.
struct RunsOptions {
  std::string db;                 // empty: RunStore::default_path()
  std::string run;                // the RUN of show, export, delete, tag, note and rename
  std::vector<std::string> runs;  // compare's RUNs
  std::string text;               // tag's TAG, note's TEXT, rename's NAME
  std::string tag, kind, format = "csv", output;
  bool blocks = false, yes = false, remove = false;
  int64_t metrics = 300000;
  int batch = 15;
  double step_ms = 0;  // bench: 0 when not given
};

// --- opening the database -----------------------------------------------------------------

std::string database_path(const RunsOptions& o);
// Readers open read-only (safe next to a training writer); a file from an older schema is
// upgraded once through a read-write open.
RunStore open_for_reading(const std::string& path);
RunStore open_for_writing(const std::string& path);
RunInfo resolve_run(RunStore& store, const std::string& id_or_name);

// --- formatting ---------------------------------------------------------------------------

std::string format_number(double value);
// "2024-05-01T12:00:00.123Z" -> "2024-05-01 12:00:00"
std::string short_time(const std::string& iso);
std::string format_seconds(long seconds);
std::string duration_of(const RunInfo& run);
// Left-aligned columns, two spaces apart; the first row is the header.
void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                 const std::string& indent = "");
// Final value of every series; per-block series folded into their mean unless all_blocks.
std::map<std::string, double> final_values(RunStore& store, int64_t run, bool all_blocks);
// The shortest text that reads back as the same double (0.0003, not 0.00029999999999999997).
std::string shortest_number(double value);

// --- the sub-commands ---------------------------------------------------------------------

int list_runs(const RunsOptions& o, std::ostream& out);       // runs_list_show.cpp
int show_run(const RunsOptions& o, std::ostream& out);        // runs_list_show.cpp
int compare_runs(const RunsOptions& o, std::ostream& out);    // runs_compare.cpp
int export_run(const RunsOptions& o, std::ostream& out);      // runs_export.cpp
int delete_run(const RunsOptions& o, std::ostream& out);      // runs_edit.cpp
int tag_run(const RunsOptions& o, std::ostream& out);         // runs_edit.cpp
int note_run(const RunsOptions& o, std::ostream& out);        // runs_edit.cpp
int rename_run(const RunsOptions& o, std::ostream& out);      // runs_edit.cpp
int check_database(const RunsOptions& o, std::ostream& out);  // runs_check_bench.cpp
int bench_store(const RunsOptions& o, std::ostream& out);     // runs_check_bench.cpp

}  // namespace adala::cli::runs
