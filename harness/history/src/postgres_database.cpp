// The store on a PostgreSQL server through libpq: parameters sent as text (bytea as binary),
// results read as text and converted by column type. A write transaction takes a
// transaction-level advisory lock, so that concurrent schema migrations run one at a time.
#include <libpq-fe.h>

#include <chrono>
#include <cstdlib>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "database.hpp"
#include "perfgauge/harness/interrupt.hpp"
#include "perfgauge/harness/store_location.hpp"

namespace perfgauge::harness::history_db {
namespace {

// PostgreSQL's built-in type OIDs (pg_type.dat); libpq exports no header with them.
constexpr Oid kInt8 = 20, kInt2 = 21, kInt4 = 23, kFloat4 = 700, kFloat8 = 701, kBytea = 17;

// A password shorter than this is not searched for as plain text in messages (it would star
// out pieces of ordinary words); its user:pass@ and password= forms are redacted all the same.
constexpr std::size_t kShortestRedactedValue = 4;

// How often a writer tries the write lock while another holds it.
constexpr int kLockStepMs = 20;

// The password the URI carries (its user:pass@, else its password= parameter), decoded as
// libpq decodes it; empty when none.
std::string password_of(const std::string& uri) {
    PQconninfoOption* options = PQconninfoParse(uri.c_str(), nullptr);
    if (!options)
        return {};
    std::string password;
    for (const auto* o = options; o->keyword; ++o)
        if (std::string_view(o->keyword) == "password" && o->val)
            password = o->val;
    PQconninfoFree(options);
    return password;
}

// libpq waits for a server that never answers for ever (connect_timeout has no default): a
// history gate in CI would hang on a store behind a dropped route. Ten seconds, unless the URI's
// own connect_timeout (it comes after, so it wins) or PGCONNECT_TIMEOUT says otherwise.
constexpr const char* kConnectTimeoutSeconds = "10";

PGconn* connect_to(const std::string& uri) {
    if (std::getenv("PGCONNECT_TIMEOUT") != nullptr)
        return PQconnectdb(uri.c_str());
    const char* const keywords[] = {"connect_timeout", "dbname", nullptr};
    const char* const values[] = {kConnectTimeoutSeconds, uri.c_str(), nullptr};
    return PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
}

struct ResultCloser {
    void operator()(PGresult* r) const noexcept { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultCloser>;

class PostgresDatabase final : public Database {
  public:
    PostgresDatabase(const std::string& uri, Access access) : uri_(uri), conn_(connect_to(uri)) {
        if (!conn_)
            throw DatabaseError("PostgreSQL: out of memory connecting");
        if (PQstatus(conn_.get()) != CONNECTION_OK) {
            throw DatabaseError(fmt::format("cannot connect to the history store {}: {}", said(uri),
                                            said(PQerrorMessage(conn_.get()))));
        }
        // Notices (e.g. "relation already exists, skipping") are not the user's business.
        PQsetNoticeProcessor(
            conn_.get(), [](void*, const char*) {}, nullptr);
        // A reader's every transaction is read-only: the server refuses any write it might try.
        if (access == Access::read)
            script("SET default_transaction_read_only = on");
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
                // libpq sends a text up to its first NUL: refused, never cut (store_text.hpp
                // escapes NULs before anything reaches here).
                if (s->find('\0') != std::string::npos)
                    throw DatabaseError("history store (PostgreSQL): a text with a NUL byte");
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

    bool has_table(std::string_view name) override {
        // to_regclass: NULL, not an error, when the name resolves to no table on search_path.
        return !std::holds_alternative<std::monostate>(
            query("SELECT to_regclass($1)::text", {std::string(name)}).at(0).at(0));
    }

    // The lock is tried in steps that an interrupt ends: libpq retries a wait a signal
    // interrupted, so a blocking pg_advisory_xact_lock would hold Ctrl-C while another writer
    // holds the lock.
    void begin_write() override {
        script("BEGIN");
        // Any constant will do, as long as every perfgauge uses the same one.
        while (as_text(query("SELECT pg_try_advisory_xact_lock(4040404040)", {}).at(0).at(0)) !=
               "t") {
            if (harness::interrupt_signal() != 0) {
                script("ROLLBACK");
                throw WaitInterrupted(fmt::format(
                    "interrupted while waiting for the write lock of the history store {}",
                    said(uri_)));
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(kLockStepMs));
        }
    }

  private:
    struct Closer {
        void operator()(PGconn* c) const noexcept { PQfinish(c); }
    };

    // A text libpq or the server wrote, which may quote the URI, with its password redacted:
    // by form (user:pass@, password=) and by value (libpq may quote it decoded, alone).
    std::string said(const std::string& text) const {
        std::string out = harness::redact_passwords(text);
        while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
            out.pop_back();  // libpq ends its messages with a newline
        const std::string secret = password_of(uri_);
        if (secret.size() < kShortestRedactedValue)
            return out;
        for (auto at = out.find(secret); at != std::string::npos; at = out.find(secret, at + 3))
            out.replace(at, secret.size(), "***");
        return out;
    }

    void check(const PGresult* r, std::string_view sql) const {
        const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
            return;
        const char* primary = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
        const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
        const std::string fix = remedy(state ? state : "");
        throw DatabaseError(fmt::format("history store {}: {}{}", said(uri_),
                                        said(primary ? primary : PQerrorMessage(conn_.get())),
                                        fix.empty() ? fmt::format(" (in: {:.60})", sql) : fix));
    }

    // What a user does about a server error whose cause is known (by SQLSTATE); empty for the
    // others (then the statement is named, for a bug report).
    static std::string remedy(std::string_view state) {
        if (state == "25006")  // read_only_sql_transaction
            return "; the database is read-only (default_transaction_read_only, or a standby): "
                   "list, show, check and export read it, add, accept and forget need one they "
                   "may write";
        if (state == "42501")  // insufficient_privilege
            return "; this role may not write there: add, accept and forget need INSERT (and, "
                   "on a new store, CREATE) rights; list, show, check and export need SELECT";
        if (state == "53100")  // disk_full
            return "; the server's disk is full: nothing of the transaction is stored";
        if (state.starts_with("08"))  // connection_exception
            return "; the connection to the server was lost: nothing of the transaction is "
                   "stored, try again";
        return {};
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

    std::string uri_;
    std::unique_ptr<PGconn, Closer> conn_;
};

}  // namespace

std::unique_ptr<Database> open_postgresql(const std::string& uri, Access access) {
    return std::make_unique<PostgresDatabase>(uri, access);
}

}  // namespace perfgauge::harness::history_db
