#include "perfgauge/harness/store_text.hpp"

#include <fmt/format.h>

namespace perfgauge::harness {
namespace {

// The length of the valid UTF-8 sequence at `at` (RFC 3629, as PostgreSQL checks it), 0 when
// the byte there starts none. NUL is valid UTF-8 but not storable: 0 as well.
std::size_t valid_sequence(std::string_view s, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char c = byte(at);
    if (c == 0)
        return 0;
    if (c < 0x80)
        return 1;
    std::size_t n = 0;
    unsigned char low = 0x80, high = 0xBF;  // the second byte's range
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        low = c == 0xE0 ? 0xA0 : 0x80;   // no overlong form
        high = c == 0xED ? 0x9F : 0xBF;  // no surrogate
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        low = c == 0xF0 ? 0x90 : 0x80;
        high = c == 0xF4 ? 0x8F : 0xBF;  // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (at + n > s.size() || byte(at + 1) < low || byte(at + 1) > high)
        return 0;
    for (std::size_t i = 2; i < n; ++i)
        if (byte(at + i) < 0x80 || byte(at + i) > 0xBF)
            return 0;
    return n;
}

}  // namespace

std::string store_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t n = valid_sequence(text, at);
        if (n == 0) {
            out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[at]));
            ++at;
            continue;
        }
        out.append(text.substr(at, n));
        at += n;
    }
    return out;
}

bool needs_escaping(std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t n = valid_sequence(text, at);
        if (n == 0)
            return true;
        at += n;
    }
    return false;
}

}  // namespace perfgauge::harness
