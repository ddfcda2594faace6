#include "engine/store/store_error.h"

namespace adala::store {

const char* store_error_kind_name(StoreErrorKind kind) {
  switch (kind) {
    case StoreErrorKind::Io:
      return "io";
    case StoreErrorKind::NotFound:
      return "not-found";
    case StoreErrorKind::NotADatabase:
      return "not-a-database";
    case StoreErrorKind::Corrupt:
      return "corrupt";
    case StoreErrorKind::NewerSchema:
      return "newer-schema";
    case StoreErrorKind::OlderSchema:
      return "older-schema";
    case StoreErrorKind::ReadOnly:
      return "read-only";
    case StoreErrorKind::Busy:
      return "busy";
    case StoreErrorKind::Constraint:
      return "constraint";
    case StoreErrorKind::InvalidArgument:
      return "invalid-argument";
    case StoreErrorKind::Sqlite:
      return "sqlite";
  }
  return "unknown";
}

}  // namespace adala::store
