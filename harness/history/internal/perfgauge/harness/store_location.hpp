// Where the history store is, parsed once from --db or $PERFGAUGE_DB: a SQLite file or a
// PostgreSQL server. Every other spelling is refused, so that a mistyped scheme never becomes a
// new local file named like a URI; and every message that names a server names it without its
// password.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace perfgauge::harness {

struct StoreLocation {
    enum class Engine { sqlite, postgresql };
    Engine engine = Engine::sqlite;
    std::string target;  ///< the SQLite file's path, or the libpq URI as given

    /// For messages: the path, or the URI with its password redacted.
    std::string shown() const;
};

/// Where a location's text came from, for a message about it: the command line's option, the
/// environment ($PERFGAUGE_DB), or the default path.
enum class LocationSource { option, environment, default_path };

struct LocationText {
    std::string text;
    LocationSource source = LocationSource::option;
};

/// The store's location as text, and where it came from: `given` (the option's value) when
/// there is one, else $PERFGAUGE_DB when set and not empty, else
/// $XDG_DATA_HOME/perfgauge/history.db, else ~/.local/share/perfgauge/history.db.
LocationText history_location_text(const std::optional<std::string>& given);

/// The accepted forms, for messages: "a SQLite file path, postgresql://... or postgres://...".
extern const char* const kAcceptedStoreForms;

/// `text` as a store location: postgresql:// or postgres:// (lower case, as libpq reads them) is
/// a server; a path without a scheme a SQLite file. std::invalid_argument (saying why and
/// naming the accepted forms, the text redacted) for an empty text, another scheme
/// (mysql://, postgresql+psycopg://, HTTP://), the right scheme in other letter case, and
/// `file:` (SQLite URI names: give the path itself).
StoreLocation parse_store_location(const std::string& text);

/// `text` with every password a connection string may carry replaced by ***: the user:pass@
/// of a URI, and password=VALUE (a URI's ?password= / &password=, a libpq keyword). The one
/// redaction: every message that may quote a location or libpq's words goes through it.
std::string redact_passwords(std::string_view text);

}  // namespace perfgauge::harness
