#include "fdb_c/mapper.h"

#include <cctype>
#include <climits>
#include <optional>
#include <string>

#include "sim/store/tuple.h"

namespace contend::fdb {

namespace {

// The packed bytes of each top-level element of `packed`, or nothing when it is not a tuple.
std::optional<std::vector<BytesView>> packed_elements(BytesView packed) {
  std::vector<BytesView> elements;
  std::size_t pos = 0;
  while (pos < packed.size()) {
    const std::size_t start = pos;
    if (!unpack_element(packed, pos) || pos <= start) return std::nullopt;
    elements.push_back(packed.substr(start, pos - start));
  }
  return elements;
}

// The text of a byte or unicode string element, else nothing.
std::optional<std::string> string_of(BytesView element) {
  std::size_t pos = 0;
  const std::optional<TupleElement> e = unpack_element(element, pos);
  if (!e) return std::nullopt;
  if (const auto* text = e->get<std::string>()) return *text;
  if (const auto* bytes = e->get<TupleBytes>()) return bytes->bytes;
  return std::nullopt;
}

// `text` with every `from` replaced by `to`, left to right; whether any was.
bool replace_all(std::string& text, std::string_view from, std::string_view to) {
  bool replaced = false;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
    replaced = true;
  }
  return replaced;
}

// std::stoi's reading of `text`: leading white space, a sign, at least one digit, whatever
// follows ignored; nothing when there is no number or it overflows an int.
std::optional<long long> stoi_of(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])))
    ++at;
  bool negative = false;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) negative = text[at++] == '-';
  long long value = 0;
  const std::size_t digits_begin = at;
  for (; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at) {
    value = value * 10 + (text[at] - '0');
    if (value > static_cast<long long>(INT_MAX) + 1) return std::nullopt;
  }
  if (at == digits_begin) return std::nullopt;
  value = negative ? -value : value;
  if (value > INT_MAX || value < INT_MIN) return std::nullopt;
  return value;
}

}  // namespace

fdb_error Mapper::parse(BytesView packed, Mapper& out) {
  out = Mapper{};
  const std::optional<std::vector<BytesView>> elements = packed_elements(packed);
  if (!elements) return kMapperNotTuple;
  for (std::size_t i = 0; i < elements->size(); ++i) {
    const BytesView element = (*elements)[i];
    Piece piece{.source = Source::literal, .packed = Bytes(element)};
    std::optional<std::string> text = string_of(element);
    if (text) {
      const std::size_t size = text->size();
      const bool escaped_open = replace_all(*text, "{{", "{");
      const bool escaped_close = replace_all(*text, "}}", "}");
      if (escaped_open || escaped_close) {
        piece.packed.clear();
        pack_bytes(piece.packed, *text);
      } else if (size > 5 && (text->starts_with("{K[") || text->starts_with("{V[")) &&
                 text->ends_with("]}")) {
        const std::optional<long long> index = stoi_of(std::string_view(*text).substr(3, size - 5));
        if (!index) return kMapperBadIndex;
        piece.source = (*text)[1] == 'K' ? Source::key : Source::value;
        piece.index = *index;  // a negative one is refused at the first row, as past the end
      } else if (*text == "{...}") {
        if (i + 1 != elements->size()) return kMapperBadRangeDescriptor;
        out.range_ = true;
        continue;
      }
    }
    out.pieces_.push_back(std::move(piece));
  }
  return kSuccess;
}

fdb_error Mapper::map(BytesView key, BytesView value, Bytes& out) const {
  out.clear();
  std::optional<std::vector<BytesView>> key_elements, value_elements;
  for (const Piece& piece : pieces_) {
    if (piece.source == Source::literal) {
      out += piece.packed;
      continue;
    }
    const bool from_key = piece.source == Source::key;
    std::optional<std::vector<BytesView>>& elements = from_key ? key_elements : value_elements;
    if (!elements) {
      elements = packed_elements(from_key ? key : value);
      if (!elements) return from_key ? kKeyNotTuple : kValueNotTuple;
    }
    if (piece.index < 0 || static_cast<std::size_t>(piece.index) >= elements->size())
      return kMapperBadIndex;
    out += (*elements)[static_cast<std::size_t>(piece.index)];
  }
  return kSuccess;
}

}  // namespace contend::fdb
