// The always-on checks (CONTEND_ASSERT, CONTEND_DEBUG_ASSERT) and the current seed they name live
// in base/invariant.h, below every layer; this header keeps the store's include path working.
#pragma once

#include "base/invariant.h"
