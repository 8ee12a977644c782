// Text as the history store keeps it, the same on both engines: PostgreSQL (a UTF8 database)
// refuses bytes that are not UTF-8 and libpq cuts a text at its first NUL, while SQLite keeps
// either; so every text is made valid UTF-8 without NUL before it is stored, one way for both.
#pragma once

#include <string>
#include <string_view>

namespace perfgauge::harness {

/// `text` with each byte that is not part of a valid UTF-8 sequence (stray continuation bytes,
/// truncated or overlong sequences, surrogates, code points above U+10FFFF) and each NUL
/// written as the four characters \xNN (hexadecimal, upper case). Valid UTF-8 is kept as it
/// is (a backslash too: the escape is not reversible, which is why add says when it escaped).
std::string store_text(std::string_view text);

/// Whether store_text would change `text`.
bool needs_escaping(std::string_view text);

}  // namespace perfgauge::harness
