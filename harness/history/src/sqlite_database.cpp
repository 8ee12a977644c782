// The store in a SQLite file: WAL journal (readers never block the writer), a long busy
// timeout and BEGIN IMMEDIATE, so that concurrent `history add`s queue for the write lock
// instead of failing. A reader opens it read-only and writes nothing, not even the journal
// mode, so that it reads a file or directory it may not write.
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "database.hpp"
#include "perfgauge/harness/interrupt.hpp"

namespace perfgauge::harness::history_db {
namespace {

// How long a writer waits for another's transaction: adds are short, but many may queue.
constexpr int kBusyTimeoutMs = 120'000;
constexpr int kBusyStepMs = 10;

// SQLite's busy wait, in steps that an interrupt ends (perfgauge's handler records SIGINT
// instead of dying, so a plain sqlite3_busy_timeout would hold Ctrl-C for up to 120 s).
int wait_while_busy(void* interrupted, int waits) {
    if (harness::interrupt_signal() != 0) {
        *static_cast<bool*>(interrupted) = true;
        return 0;
    }
    if (waits * kBusyStepMs >= kBusyTimeoutMs)
        return 0;
    sqlite3_sleep(kBusyStepMs);
    return 1;
}

// What a user does about an engine error whose cause is known; empty for the others (then the
// statement is named, for a bug report).
std::string remedy(int rc, const std::string& path) {
    switch (rc & 0xff) {  // the primary code of an extended one
        case SQLITE_FULL:
            return fmt::format(
                "; free space on the file system of {} (the transaction was rolled back: nothing "
                "of it is stored)",
                path);
        case SQLITE_READONLY:
        case SQLITE_CANTOPEN:
        case SQLITE_PERM:
            return fmt::format(
                "; perfgauge may not write {} or its directory (read-only, or another user's): "
                "list, show, check and export read it as it is, add, accept and forget need a "
                "store they may write",
                path);
        case SQLITE_BUSY:
            return "; another perfgauge held the store's write lock for 120 s: try again once "
                   "it has finished";
        case SQLITE_CORRUPT:
            return fmt::format("; the file {} is damaged: restore it from a copy", path);
        default:
            return {};
    }
}

// Why a writer cannot write `path` (its file or its directory, where SQLite puts its journal),
// empty when it may: said before SQLite's own "unable to open database file".
std::string unwritable(const std::string& path) {
    const auto parent = std::filesystem::path(path).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    for (const auto& [what, name] :
         {std::pair{std::string("it"), path}, std::pair{"its directory " + dir, dir}}) {
        if (access(name.c_str(), F_OK) == 0 && access(name.c_str(), W_OK) != 0) {
            return fmt::format(
                "cannot write the history store {}: {} {} (list, show, check and export read it "
                "as it is; add, accept and forget need a store they may write: --db names "
                "another)",
                path, what,
                errno == EROFS ? "is on a read-only file system"
                               : fmt::format("may not be written ({})", std::strerror(errno)));
        }
    }
    return {};
}

struct StatementCloser {
    void operator()(sqlite3_stmt* s) const noexcept { sqlite3_finalize(s); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementCloser>;

class SqliteDatabase final : public Database {
  public:
    SqliteDatabase(const std::string& path, Access access) : path_(path) {
        if (access == Access::write) {
            if (const auto why = unwritable(path); !why.empty())
                throw DatabaseError(why);
            open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        } else {
            open(path, SQLITE_OPEN_READONLY);
            // A WAL store in a directory the reader cannot write has no -shm to share with
            // writers (none is writing: one would have made it), so it is read as it is on disk.
            if (!readable())
                open(immutable_uri(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
        }
        if (!readable()) {
            if (sqlite3_errcode(db_.get()) == SQLITE_NOTADB)
                throw NotADatabase(fmt::format(
                    "{} is not a SQLite database (perfgauge history add creates a store; --db "
                    "names another)",
                    path_));
            throw DatabaseError(fmt::format("history store {}: {}{}", path_,
                                            sqlite3_errmsg(db_.get()),
                                            remedy(sqlite3_errcode(db_.get()), path_)));
        }
    }

    Dialect dialect() const override { return Dialect::sqlite; }

    std::vector<Row> query(std::string_view sql, const std::vector<Value>& params) override {
        sqlite3_stmt* raw = nullptr;
        check(
            sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &raw, nullptr),
            sql);
        Statement stmt(raw);
        for (std::size_t i = 0; i < params.size(); ++i) {
            const std::string name = fmt::format("${}", i + 1);
            const int at = sqlite3_bind_parameter_index(stmt.get(), name.c_str());
            if (at == 0)
                continue;  // a parameter the statement does not use
            check(bind(stmt.get(), at, params[i]), sql);
        }
        std::vector<Row> rows;
        for (;;) {
            const int rc = sqlite3_step(stmt.get());
            if (rc == SQLITE_DONE)
                break;
            if (rc != SQLITE_ROW)
                check(rc, sql);
            Row row;
            const int columns = sqlite3_column_count(stmt.get());
            for (int c = 0; c < columns; ++c)
                row.push_back(column(stmt.get(), c));
            rows.push_back(std::move(row));
        }
        return rows;
    }

    void script(std::string_view sql) override {
        char* message = nullptr;
        const std::string text(sql);
        const int rc = sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &message);
        if (rc != SQLITE_OK) {
            const std::string why = message ? message : sqlite3_errstr(rc);
            sqlite3_free(message);
            throw DatabaseError(
                fmt::format("history store {}: {}{}", path_, why, remedy(rc, path_)));
        }
    }

    void begin_write() override {
        interrupted_ = false;
        try {
            script("BEGIN IMMEDIATE");
        } catch (const DatabaseError&) {
            if (interrupted_)
                throw WaitInterrupted(fmt::format(
                    "interrupted while waiting for the write lock of the history store {}", path_));
            throw;
        }
    }

    bool has_table(std::string_view name) override {
        return as_int(query("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1",
                            {std::string(name)})
                          .at(0)
                          .at(0)) > 0;
    }

    // Readers never block the writer. Only a writer switches the journal: it writes the file.
    void prepare_for_writing() override { script("PRAGMA journal_mode=WAL"); }

  private:
    struct Closer {
        void operator()(sqlite3* d) const noexcept { sqlite3_close(d); }
    };

    void open(const std::string& name, int flags) {
        sqlite3* handle = nullptr;
        const int rc = sqlite3_open_v2(name.c_str(), &handle, flags, nullptr);
        db_.reset(handle);
        if (rc != SQLITE_OK)
            throw DatabaseError(fmt::format("cannot open the history store {}: {}", path_,
                                            handle ? sqlite3_errmsg(handle) : sqlite3_errstr(rc)));
        sqlite3_busy_handler(db_.get(), wait_while_busy, &interrupted_);
    }

    // Whether the schema can be read: a file that is no SQLite database, or a WAL database whose
    // -shm cannot be made, opens but fails at its first read.
    bool readable() {
        return sqlite3_exec(db_.get(), "SELECT COUNT(*) FROM sqlite_master", nullptr, nullptr,
                            nullptr) == SQLITE_OK;
    }

    // file:PATH?immutable=1, the path's URI-special characters percent-encoded.
    static std::string immutable_uri(const std::string& path) {
        std::string uri = "file:";
        for (const char c : path) {
            if (c == '%' || c == '?' || c == '#')
                uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
            else
                uri += c;
        }
        return uri + "?immutable=1";
    }

    void check(int rc, std::string_view sql) const {
        if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) {
            const auto fix = remedy(rc, path_);
            throw DatabaseError(fmt::format("history store {}: {}{}", path_,
                                            sqlite3_errmsg(db_.get()),
                                            fix.empty() ? fmt::format(" (in: {:.60})", sql) : fix));
        }
    }

    static int bind(sqlite3_stmt* s, int at, const Value& v) {
        if (const auto* i = std::get_if<std::int64_t>(&v))
            return sqlite3_bind_int64(s, at, *i);
        if (const auto* d = std::get_if<double>(&v))
            return sqlite3_bind_double(s, at, *d);
        if (const auto* t = std::get_if<std::string>(&v))
            return sqlite3_bind_text64(s, at, t->data(), t->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
        if (const auto* b = std::get_if<Blob>(&v))
            return sqlite3_bind_blob64(s, at, b->bytes.data(), b->bytes.size(), SQLITE_TRANSIENT);
        return sqlite3_bind_null(s, at);
    }

    static Value column(sqlite3_stmt* s, int c) {
        switch (sqlite3_column_type(s, c)) {
            case SQLITE_INTEGER:
                return std::int64_t{sqlite3_column_int64(s, c)};
            case SQLITE_FLOAT:
                return sqlite3_column_double(s, c);
            case SQLITE_TEXT:
                return std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, c)),
                                   static_cast<std::size_t>(sqlite3_column_bytes(s, c)));
            case SQLITE_BLOB: {
                const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(s, c));
                return Blob{{p, p + sqlite3_column_bytes(s, c)}};
            }
            default:
                return std::monostate{};
        }
    }

    std::string path_;
    bool interrupted_ = false;  ///< the busy wait was ended by an interrupt
    std::unique_ptr<sqlite3, Closer> db_;
};

}  // namespace

std::unique_ptr<Database> open_sqlite(const std::string& path, Access access) {
    return std::make_unique<SqliteDatabase>(path, access);
}

}  // namespace perfgauge::harness::history_db
