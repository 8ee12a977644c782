// The little the store needs from a SQL engine: statements with numbered parameters ($1, $2:
// the spelling both PostgreSQL and SQLite accept), rows of typed values, write transactions.
// One interface, so that the schema, its migrations and every query are written once.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace perfgauge::harness::history_db {

struct Blob {
    std::vector<unsigned char> bytes;
};
using Value = std::variant<std::monostate, std::int64_t, double, std::string, Blob>;
using Row = std::vector<Value>;

/// The engine refused a statement or the connection failed; the message names the engine and
/// says what it reported.
class DatabaseError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// An interrupt (SIGINT, SIGTERM, SIGHUP, harness/system's interrupt_signal) ended a wait for
/// the store's write lock: the transaction was not begun, nothing of it is stored.
class WaitInterrupted : public DatabaseError {
    using DatabaseError::DatabaseError;
};

/// The file is no SQLite database (another file named by --db).
class NotADatabase : public DatabaseError {
    using DatabaseError::DatabaseError;
};

enum class Dialect { sqlite, postgresql };

/// A reader's connection can write nothing (SQLite: SQLITE_OPEN_READONLY, so it works on a
/// read-only file or directory; PostgreSQL: default_transaction_read_only); a writer's can.
enum class Access { read, write };

class Database {
  public:
    virtual ~Database() = default;
    virtual Dialect dialect() const = 0;
    /// One statement; parameters are $1..$N in order.
    virtual std::vector<Row> query(std::string_view sql, const std::vector<Value>& params = {}) = 0;
    /// Several statements without parameters (schema changes).
    virtual void script(std::string_view sql) = 0;
    /// A transaction that holds the write lock from its start, so that concurrent writers queue
    /// instead of failing at commit (SQLite: BEGIN IMMEDIATE; PostgreSQL: BEGIN).
    virtual void begin_write() = 0;
    /// Whether the table exists (a reader must not create what it does not find).
    virtual bool has_table(std::string_view name) = 0;
    /// What a writer's connection does before its first write transaction, once the store is
    /// known to be one this perfgauge may write (SQLite: the WAL journal).
    virtual void prepare_for_writing() {}
    void commit() { script("COMMIT"); }
    void rollback() noexcept;
};

/// Commits when asked, rolls back when left by an exception.
class WriteTransaction {
  public:
    explicit WriteTransaction(Database& db) : db_(db) { db_.begin_write(); }
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;
    ~WriteTransaction() {
        if (!done_)
            db_.rollback();
    }
    void commit() {
        db_.commit();
        done_ = true;
    }

  private:
    Database& db_;
    bool done_ = false;
};

/// A SQLite file; a writer creates it (its directory existing) when missing.
std::unique_ptr<Database> open_sqlite(const std::string& path, Access access);
/// A PostgreSQL server by libpq connection URI (postgresql://...). Every message of the
/// connection, libpq's own included, is said with its passwords redacted.
std::unique_ptr<Database> open_postgresql(const std::string& uri, Access access);

std::int64_t as_int(const Value& v);
double as_double(const Value& v);  ///< NaN for NULL
std::string as_text(const Value& v);
const Blob& as_blob(const Value& v);

}  // namespace perfgauge::harness::history_db
