#pragma once
// The run database schema: versions kept in PRAGMA user_version, forward migrations in code.
//   v1: runs, stages, metrics, evaluations, artifacts
//   v2: runs.notes, runs.writer (who is writing a running run), tags, attention_snapshots
//   v3: runs.kind (training | benchmark), benchmark_points
//   v4: runs.folder (filled for older runs from their `config` artifact)
//   v5: stages.compute_seconds (time spent training, pauses and the gaps between sessions left out)
#include <string>
#include <vector>

namespace adala::store {

namespace sqlite {
class Connection;
}

constexpr int kSchemaVersion = 5;

// Tables a database at `version` must have (for a structural check before any write).
std::vector<std::string> tables_of_version(int version);

// Brings a database at `from_version` (0 = empty) to kSchemaVersion, one transaction per
// step, user_version written in the same transaction: a failed step leaves the previous
// version intact.
void migrate(sqlite::Connection& connection, int from_version);

}  // namespace adala::store
