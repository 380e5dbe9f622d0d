// A fixture for tests/layering.cmake: checked as if it lay in sim/store/, it must fail.
#pragma once

#include "sim/runtime/world.h"
