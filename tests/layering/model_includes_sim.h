// A fixture for tests/layering.cmake: checked as if it lay in model/, it must fail.
#pragma once

#include "sim/store/bytes.h"
