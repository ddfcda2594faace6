#include "app/cli/commands.h"
#include <stdexcept>
namespace adala::cli {
}
