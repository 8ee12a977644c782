#include "perfgauge/harness/store_location.hpp"

#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

namespace perfgauge::harness {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// The scheme of `text` when it starts with one (RFC 3986: a letter, then letters, digits, +, -
// and .), followed by ':'; empty otherwise.
std::string scheme_of(std::string_view text) {
    if (text.empty() || !std::isalpha(static_cast<unsigned char>(text[0])))
        return {};
    for (std::size_t i = 1; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == ':')
            return std::string(text.substr(0, i));
        if (!std::isalnum(c) && c != '+' && c != '-' && c != '.')
            return {};
    }
    return {};
}

bool is_server_scheme(const std::string& scheme) {
    return scheme == "postgresql" || scheme == "postgres";
}

// Where the userinfo's password of the URI starting at `from` ("scheme://") is: [begin, end).
bool userinfo_password(std::string_view text, std::size_t from, std::size_t& begin,
                       std::size_t& end) {
    const std::size_t authority = from;
    std::size_t stop = text.find_first_of("/?# \t\n\"'", authority);
    if (stop == std::string_view::npos)
        stop = text.size();
    const std::size_t at = text.rfind('@', stop);
    if (at == std::string_view::npos || at < authority)
        return false;
    const std::size_t colon = text.find(':', authority);
    if (colon == std::string_view::npos || colon > at)
        return false;
    begin = colon + 1;
    end = at;
    return true;
}

std::string redact_userinfo(std::string_view text) {
    std::string out;
    std::size_t done = 0;
    for (std::size_t at = text.find("://"); at != std::string_view::npos;
         at = text.find("://", at + 3)) {
        std::size_t begin = 0, end = 0;
        if (at + 3 < done || !userinfo_password(text, at + 3, begin, end))
            continue;
        out.append(text.substr(done, begin - done));
        out += "***";
        done = end;
    }
    out.append(text.substr(done));
    return out;
}

bool keyword_boundary(std::string_view text, std::size_t at) {
    if (at == 0)
        return true;
    const char c = text[at - 1];
    return c == '?' || c == '&' || c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'';
}

// password=VALUE: a URI's query parameter (ends at & or #) or a libpq keyword (ends at a space;
// a quoted value at its closing quote).
std::string redact_keyword(std::string_view text) {
    static constexpr std::string_view kKey = "password=";
    std::string out;
    std::size_t done = 0;
    for (std::size_t at = 0; at + kKey.size() <= text.size(); ++at) {
        if (at < done || lower(text.substr(at, kKey.size())) != kKey || !keyword_boundary(text, at))
            continue;
        std::size_t value = at + kKey.size(), end = value;
        if (value < text.size() && text[value] == '\'') {
            end = text.find('\'', value + 1);
            end = end == std::string_view::npos ? text.size() : end + 1;
        } else {
            end = text.find_first_of("& \t\n#\"'", value);
            if (end == std::string_view::npos)
                end = text.size();
        }
        out.append(text.substr(done, value - done));
        out += "***";
        done = end;
    }
    out.append(text.substr(done));
    return out;
}

[[noreturn]] void refuse(const std::string& text, const std::string& why) {
    throw std::invalid_argument(
        fmt::format("'{}': {}; give {}", redact_passwords(text), why, kAcceptedStoreForms));
}

}  // namespace

const char* const kAcceptedStoreForms =
    "a SQLite file path, postgresql://... or postgres://... (libpq's URI, lower case)";

std::string redact_passwords(std::string_view text) {
    return redact_keyword(redact_userinfo(text));
}

LocationText history_location_text(const std::optional<std::string>& given) {
    if (given)
        return {*given, LocationSource::option};
    if (const char* db = std::getenv("PERFGAUGE_DB"); db && *db)
        return {db, LocationSource::environment};
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return {std::string(xdg) + "/perfgauge/history.db", LocationSource::default_path};
    const char* home = std::getenv("HOME");
    return {std::string(home && *home ? home : ".") + "/.local/share/perfgauge/history.db",
            LocationSource::default_path};
}

std::string StoreLocation::shown() const {
    return engine == Engine::postgresql ? redact_passwords(target) : target;
}

StoreLocation parse_store_location(const std::string& text) {
    if (text.empty())
        throw std::invalid_argument(fmt::format("an empty location; give {}", kAcceptedStoreForms));
    // A quoting slip (PERFGAUGE_DB=" postgresql://..."), never meant as a file named so.
    if (std::isspace(static_cast<unsigned char>(text.front())) ||
        std::isspace(static_cast<unsigned char>(text.back())))
        refuse(text, "space at its start or end (remove it)");
    const std::string scheme = scheme_of(text);
    // A URI inside another (jdbc:postgresql://h/db) would be a SQLite file named like a URI.
    if (const auto at = text.find("://"); at != std::string::npos && at != scheme.size())
        refuse(text, "a URI that is not postgresql:// or postgres:// at its start");
    if (scheme.empty())
        return {StoreLocation::Engine::sqlite, text};
    const std::string folded = lower(scheme);
    if (folded == "sqlite" || folded == "sqlite3")
        refuse(text, fmt::format("'{}:' (a SQLite store is named by its path alone)", scheme));
    const bool slashes = text.compare(scheme.size(), 3, "://") == 0;
    if (is_server_scheme(scheme) && slashes)
        return {StoreLocation::Engine::postgresql, text};
    if (is_server_scheme(folded) && slashes)
        refuse(text, fmt::format("the scheme '{}' in other letter case (libpq reads only '{}://')",
                                 scheme, folded));
    if (folded == "file")
        refuse(text, "a SQLite URI filename (file:), which perfgauge does not read");
    if (is_server_scheme(folded))
        refuse(text, fmt::format("'{}:' without '//'", scheme));
    if (slashes)
        refuse(text, fmt::format("an unknown scheme '{}://'", scheme));
    return {StoreLocation::Engine::sqlite, text};  // a path with a colon in it (e.g. "a:b.db")
}

}  // namespace perfgauge::harness
