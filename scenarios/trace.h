// Readable traces of a run: keys shown as tuples, every transaction attempt with its read
// version, read conflict ranges, writes, and its commit version or error — and for each
// conflict, which of its read ranges met which committed write, from which client.
#pragma once

#include <cstdio>
#include <string>

#include "scenarios/runner.h"

namespace contend {

// A key as a tuple when it decodes ("Q", 3, b'\x8f…'), else as escaped bytes.
std::string format_key(BytesView key);
std::string format_range(const KeyRange& range);
std::string format_read(const ReadRecord& read);
std::string format_attempt(const AttemptRecord& attempt);

// History events and transaction attempts merged in virtual-time order; the drain's operations
// say so ("process 4 (client 4: the drain) invoke dequeue").
void print_trace(std::FILE* out, const SeedRun& run);
// The same trace as a string.
std::string trace_text(const SeedRun& run);

}  // namespace contend
