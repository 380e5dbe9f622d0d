// A run report's text in parts (report_layout.h).
#include "scenarios/cli/report_layout.h"

#include "base/invariant.h"

namespace contend::cli {

namespace {

// `text` with every line after the first indented by `spaces` more.
std::string indented(const std::string& text, int spaces) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(static_cast<std::size_t>(spaces), ' ');
  }
  return out;
}

}  // namespace

ReportFrame report_frame(nlohmann::json fields, InvalidUtf8 invalid_utf8) {
  CONTEND_ASSERT(fields.is_object() && !fields.contains("runs"), "a report's fields but its runs");
  fields["runs"] = 0;  // where "runs" goes among the sorted keys
  const std::string text = fields.dump(2, ' ', false, invalid_utf8);
  // A field of the report itself is indented by two spaces: a string breaks no line, and a field
  // nested deeper is indented by more, so only the report's own "runs" is met here.
  const std::string placeholder = "\n  \"runs\": 0";
  const std::size_t at = text.find(placeholder);
  CONTEND_ASSERT(at != std::string::npos, "the placeholder of the runs");
  return ReportFrame{text.substr(0, at) + "\n  \"runs\": [",
                     text.substr(at + placeholder.size()) + "\n"};
}

std::string run_entry_text(const nlohmann::json& run, InvalidUtf8 invalid_utf8) {
  return indented(run.dump(2, ' ', false, invalid_utf8), 4);
}

const char* run_entry_separator(std::uint64_t index) {
  return index == 0 ? "\n    " : ",\n    ";
}

const char* runs_list_end(std::uint64_t count) {
  return count == 0 ? "]" : "\n  ]";
}

}  // namespace contend::cli
