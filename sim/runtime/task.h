// Task<T> lives in base/task.h, below the store and the runtime (both suspend coroutines); this
// header keeps the runtime's include path working.
#pragma once

#include "base/task.h"
