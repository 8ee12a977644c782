// The store on a PostgreSQL server through libpq: parameters sent as text (bytea as binary),
// results read as text and converted by column type. A write transaction takes a
// transaction-level advisory lock, so that concurrent schema migrations run one at a time.
#include <libpq-fe.h>

#include <cstdlib>

#include <fmt/format.h>

#include "database.hpp"

namespace perfgauge::harness::history_db {
namespace {

// PostgreSQL's built-in type OIDs (pg_type.dat); libpq exports no header with them.
constexpr Oid kInt8 = 20, kInt2 = 21, kInt4 = 23, kFloat4 = 700, kFloat8 = 701, kBytea = 17;

struct ResultCloser {
    void operator()(PGresult* r) const noexcept { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultCloser>;

class PostgresDatabase final : public Database {
  public:
    explicit PostgresDatabase(const std::string& uri) : conn_(PQconnectdb(uri.c_str())) {
        if (!conn_)
            throw DatabaseError("PostgreSQL: out of memory connecting");
        if (PQstatus(conn_.get()) != CONNECTION_OK) {
            throw DatabaseError(fmt::format("cannot connect to the history store {}: {}",
                                            redacted(uri), PQerrorMessage(conn_.get())));
        }
        // Notices (e.g. "relation already exists, skipping") are not the user's business.
        PQsetNoticeProcessor(
            conn_.get(), [](void*, const char*) {}, nullptr);
    }

    Dialect dialect() const override { return Dialect::postgresql; }

    std::vector<Row> query(std::string_view sql, const std::vector<Value>& params) override {
        std::vector<std::string> text(params.size());
        std::vector<const char*> values(params.size(), nullptr);
        std::vector<int> lengths(params.size(), 0), formats(params.size(), 0);
        for (std::size_t i = 0; i < params.size(); ++i) {
            const Value& v = params[i];
            if (const auto* n = std::get_if<std::int64_t>(&v)) {
                text[i] = std::to_string(*n);
            } else if (const auto* d = std::get_if<double>(&v)) {
                text[i] = fmt::format("{}", *d);  // shortest form that reads back exactly
            } else if (const auto* s = std::get_if<std::string>(&v)) {
                text[i] = *s;
            } else if (const auto* b = std::get_if<Blob>(&v)) {
                values[i] = reinterpret_cast<const char*>(b->bytes.data());
                lengths[i] = static_cast<int>(b->bytes.size());
                formats[i] = 1;
                continue;
            } else {
                continue;  // NULL
            }
            values[i] = text[i].c_str();
        }
        const std::string statement(sql);
        Result r(PQexecParams(conn_.get(), statement.c_str(), static_cast<int>(params.size()),
                              nullptr, values.data(), lengths.data(), formats.data(), 0));
        check(r.get(), sql);
        std::vector<Row> rows;
        const int n = PQntuples(r.get()), columns = PQnfields(r.get());
        for (int t = 0; t < n; ++t) {
            Row row;
            for (int c = 0; c < columns; ++c)
                row.push_back(cell(r.get(), t, c));
            rows.push_back(std::move(row));
        }
        return rows;
    }

    void script(std::string_view sql) override {
        const std::string text(sql);
        Result r(PQexec(conn_.get(), text.c_str()));
        check(r.get(), sql);
    }

    void begin_write() override {
        script("BEGIN");
        // Any constant will do, as long as every perfgauge uses the same one.
        script("SELECT pg_advisory_xact_lock(4040404040)");
    }

  private:
    struct Closer {
        void operator()(PGconn* c) const noexcept { PQfinish(c); }
    };

    static std::string redacted(const std::string& uri) {
        // A password in the URI (user:secret@host) stays out of messages.
        const auto scheme = uri.find("://");
        const auto at = uri.find('@');
        if (scheme == std::string::npos || at == std::string::npos)
            return uri;
        const auto colon = uri.find(':', scheme + 3);
        if (colon == std::string::npos || colon > at)
            return uri;
        return uri.substr(0, colon) + ":***" + uri.substr(at);
    }

    void check(const PGresult* r, std::string_view sql) const {
        const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
            throw DatabaseError(
                fmt::format("history store (PostgreSQL): {} (in: {:.60})",
                            r ? PQresultErrorMessage(r) : PQerrorMessage(conn_.get()), sql));
        }
    }

    static Value cell(const PGresult* r, int t, int c) {
        if (PQgetisnull(r, t, c))
            return std::monostate{};
        const char* text = PQgetvalue(r, t, c);
        switch (PQftype(r, c)) {
            case kInt2:
            case kInt4:
            case kInt8:
                return std::int64_t{std::strtoll(text, nullptr, 10)};
            case kFloat4:
            case kFloat8:
                return std::strtod(text, nullptr);
            case kBytea: {
                std::size_t length = 0;
                unsigned char* bytes =
                    PQunescapeBytea(reinterpret_cast<const unsigned char*>(text), &length);
                if (!bytes)
                    throw DatabaseError("history store (PostgreSQL): unreadable bytea");
                Blob b{{bytes, bytes + length}};
                PQfreemem(bytes);
                return b;
            }
            default:
                return std::string(text, static_cast<std::size_t>(PQgetlength(r, t, c)));
        }
    }

    std::unique_ptr<PGconn, Closer> conn_;
};

}  // namespace

std::unique_ptr<Database> open_postgresql(const std::string& uri) {
    return std::make_unique<PostgresDatabase>(uri);
}

}  // namespace perfgauge::harness::history_db
