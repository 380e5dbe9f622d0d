#include "sim/store/bytes.h"

#include "base/invariant.h"

namespace contend {

Bytes strinc(BytesView prefix) {
  std::size_t n = prefix.size();
  while (n > 0 && static_cast<unsigned char>(prefix[n - 1]) == 0xff)
    --n;
  CONTEND_ASSERT(n > 0, "strinc of a key made only of 0xff bytes");
  Bytes out(prefix.substr(0, n));
  out.back() = static_cast<char>(static_cast<unsigned char>(out.back()) + 1);
  return out;
}

std::string to_hex(BytesView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<Bytes> from_hex(std::string_view hex, std::string& error) {
  if (hex.size() % 2 != 0) {
    error = "hex has an odd number of digits (" + std::to_string(hex.size()) + ")";
    return std::nullopt;
  }
  Bytes out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = hex_digit(hex[i]);
    const int lo = hex_digit(hex[i + 1]);
    if (hi < 0 || lo < 0) {
      error = "not a hex digit at offset " + std::to_string(hi < 0 ? i : i + 1);
      return std::nullopt;
    }
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string printable(BytesView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 0xf]);
    }
  }
  return out;
}

}  // namespace contend
