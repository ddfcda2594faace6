#include "app/cli/commands.h"
#include <stdexcept>
namespace adala::cli {
int bench_command(const Args&) { throw std::runtime_error("bench: in progress"); }
}
