#include "database.hpp"

#include <cmath>
#include <limits>

namespace perfgauge::harness::history_db {

void Database::rollback() noexcept {
    try {
        script("ROLLBACK");
    } catch (const DatabaseError&) {
        // Already rolled back by the engine (a failed statement ends some transactions).
    }
}

std::int64_t as_int(const Value& v) {
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return *i;
    if (const auto* d = std::get_if<double>(&v))
        return static_cast<std::int64_t>(*d);
    if (const auto* s = std::get_if<std::string>(&v))
        return std::stoll(*s);
    throw DatabaseError("history store: expected an integer, found another type");
}

double as_double(const Value& v) {
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return static_cast<double>(*i);
    if (std::holds_alternative<std::monostate>(v))
        return std::numeric_limits<double>::quiet_NaN();
    throw DatabaseError("history store: expected a number, found another type");
}

std::string as_text(const Value& v) {
    if (const auto* s = std::get_if<std::string>(&v))
        return *s;
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return std::to_string(*i);
    if (std::holds_alternative<std::monostate>(v))
        return {};
    throw DatabaseError("history store: expected text, found another type");
}

const Blob& as_blob(const Value& v) {
    if (const auto* b = std::get_if<Blob>(&v))
        return *b;
    throw DatabaseError("history store: expected bytes, found another type");
}

}  // namespace perfgauge::harness::history_db
