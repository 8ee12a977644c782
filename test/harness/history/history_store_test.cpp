// The history store on both engines: a SQLite file and a real PostgreSQL server the test
// starts. Migrations, every sample kept bit for bit, series per machine class, forgetting.
#include "perfgauge/harness/history_store.hpp"
#include "perfgauge/harness/regression_gate.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>

#include "../../support/temp_dir.hpp"
#include "perfgauge/harness/machine_fingerprint.hpp"
#include "perfgauge/harness/output_format.hpp"
#include "perfgauge/harness/result_file.hpp"
#include "perfgauge/harness/run_report.hpp"
#include "perfgauge/harness/sample_codec.hpp"
#include "perfgauge/harness/store_location.hpp"
#include "perfgauge/harness/store_text.hpp"
#include "postgres_server.hpp"
#include "synthetic_results.hpp"

namespace perfgauge::test {
namespace {

using harness::HistoryStore;
using harness::StoreAccess;

// One statement on the store behind HistoryStore's back, as another program would run it.
void raw_sql(const std::string& location, const std::string& sql) {
    if (location.starts_with("postgresql://")) {
        PGconn* c = PQconnectdb(location.c_str());
        PGresult* r = PQexec(c, sql.c_str());
        const auto status = PQresultStatus(r);
        const std::string why = PQerrorMessage(c);
        PQclear(r);
        PQfinish(c);
        ASSERT_TRUE(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) << sql << ": " << why;
        return;
    }
    ASSERT_EQ(std::system(("sqlite3 '" + location + "' \"" + sql + "\"").c_str()), 0) << sql;
}

// The tables of a PostgreSQL database's public schema, comma-separated.
std::string pg_tables(const std::string& uri) {
    PGconn* c = PQconnectdb(uri.c_str());
    PGresult* r = PQexec(c,
                         "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables "
                         "WHERE schemaname = 'public'");
    std::string out = PQgetisnull(r, 0, 0) ? "" : PQgetvalue(r, 0, 0);
    PQclear(r);
    PQfinish(c);
    return out;
}

enum class Engine { sqlite, postgresql };

class HistoryStoreTest : public ::testing::TestWithParam<Engine> {
  protected:
    std::string location() {
        if (GetParam() == Engine::postgresql) {
            if (uri_.empty())
                uri_ = shared_postgres().new_database();
            return uri_;
        }
        return (dir_.path() / "sub" / "history.db").string();  // directory created on open
    }
    TempDir dir_;
    std::string uri_;
};

TEST_P(HistoryStoreTest, MigratesOnceAndReopens) {
    {
        const auto store = HistoryStore::open(location());
        EXPECT_EQ(store->schema_version(), harness::kHistorySchemaVersion);
        store->add(synthetic_run(10), {"a.json", "abc", {}});
    }
    const auto again = HistoryStore::open(location());
    EXPECT_EQ(again->schema_version(), harness::kHistorySchemaVersion);
    EXPECT_EQ(again->runs().size(), 1U);
}

TEST_P(HistoryStoreTest, KeepsEverySampleAndTheRunsContext) {
    const auto store = HistoryStore::open(location());
    const auto result = synthetic_run(12.5, 0.03, 4);
    const auto id = store->add(result, {"r.json", "deadbeef", {{"branch", "main"}}});
    const auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1U);
    EXPECT_EQ(runs[0].id, id);
    EXPECT_EQ(runs[0].commit, "deadbeef");
    EXPECT_EQ(runs[0].labels, "branch=main");
    EXPECT_EQ(runs[0].source, "r.json");
    EXPECT_EQ(runs[0].benchmarks, 1);
    EXPECT_EQ(runs[0].machine_class, harness::fingerprint_of(result).class_id);
    const auto all = store->measurements();
    ASSERT_EQ(all.size(), 1U);
    EXPECT_EQ(all[0].benchmark, "varint/decode");
    EXPECT_EQ(all[0].metric, "time");
    EXPECT_EQ(all[0].unit, "ns/item");
    EXPECT_EQ(all[0].samples, result.benchmarks[0].ns_per_item);  // bit for bit
}

TEST_P(HistoryStoreTest, ASeriesIsOneMachineClass) {
    const auto store = HistoryStore::open(location());
    store->add(synthetic_run(10), {"a.json", "c1", {}});
    store->add(synthetic_run(20, 0, 1, 25, "Other CPU 9000"), {"b.json", "c1", {}});
    store->add(synthetic_run(11), {"c.json", "c2", {}});
    const auto keys = store->series();
    ASSERT_EQ(keys.size(), 2U);
    for (const auto& key : keys) {
        const auto runs = store->series_runs(key);
        for (const auto& r : runs)
            EXPECT_EQ(r.point.spread, 0);  // identical samples: deterministic
        if (runs.size() == 2) {
            EXPECT_EQ(runs[0].point.value, 10);
            EXPECT_EQ(runs[1].point.value, 11);
        } else {
            ASSERT_EQ(runs.size(), 1U);
            EXPECT_EQ(runs[0].point.value, 20);
        }
    }
}

TEST_P(HistoryStoreTest, ForgetRemovesRunsAndTheirSamples) {
    const auto store = HistoryStore::open(location());
    const auto a = store->add(synthetic_run(10), {"a.json", "", {}});
    const auto b = store->add(synthetic_run(11), {"b.json", "", {}});
    EXPECT_EQ(store->forget({a, 999}), 1U);
    const auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1U);
    EXPECT_EQ(runs[0].id, b);
    EXPECT_EQ(store->measurements().size(), 1U);
}

TEST_P(HistoryStoreTest, KnownSlowdownFromRunSevenIsFlaggedThereAndOnEveryLaterRun) {
    const auto store = HistoryStore::open(location());
    for (int run = 1; run <= 12; ++run) {
        store->add(synthetic_run(run < 7 ? 40 : 44), {"r.json", std::to_string(run), {}});
        const auto keys = store->series();
        ASSERT_EQ(keys.size(), 1U);
        const auto entries = store->series_runs(keys[0]);
        std::vector<harness::RunPoint> points;
        for (const auto& e : entries)
            points.push_back(e.point);
        const auto verdict = harness::judge_series(points, 0, {});
        EXPECT_EQ(verdict.kind == harness::GateVerdict::Kind::regression, run >= 7)
            << "run " << run;
    }
}

// A run that kept no sample of a benchmark (every one disturbed, as under a load of 14 on two
// CPUs) stays out of the series' points but is still the series' last run: check names it
// instead of judging the run before it again.
TEST_P(HistoryStoreTest, ARunWithoutSamplesIsTheLastRunButNoPoint) {
    const auto store = HistoryStore::open(location());
    const auto first = store->add(synthetic_run(40), {"a.json", "c1", {}});
    const auto keys = store->series();
    ASSERT_EQ(keys.size(), 1U);
    EXPECT_EQ(store->last_run_of(keys[0]), first);
    const auto empty = store->add(synthetic_run(40, 0, 1, 0), {"b.json", "c2", {}});
    ASSERT_EQ(store->series().size(), 1U);  // the same series
    const auto entries = store->series_runs(keys[0]);
    ASSERT_EQ(entries.size(), 1U);
    EXPECT_EQ(entries[0].run_id, first);
    EXPECT_EQ(store->last_run_of(keys[0]), empty);
    EXPECT_EQ(store->last_run_of({"no/such", harness::kTimeMetric, keys[0].machine_class}), 0);
}

// Bytes that are not UTF-8 (from argv: a commit, a label, a file name) and a NUL in a name
// (JSON's \u0000) are stored as \xNN on both engines, and said; nothing is cut or refused.
TEST_P(HistoryStoreTest, TextThatIsNotUtf8IsEscapedTheSameOnBothEngines) {
    const auto store = HistoryStore::open(location());
    auto result = synthetic_run(10);
    result.benchmarks[0].name = std::string("nul\0name\xC3", 9);
    std::vector<std::string> escaped;
    store->add(result, {"r\x80.json", "c\xFF", {{"k", "v\xFE"}}}, &escaped);
    EXPECT_EQ(escaped.size(), 4U);  // the commit, the source, the labels and the benchmark
    const auto runs = store->runs();
    ASSERT_EQ(runs.size(), 1U);
    EXPECT_EQ(runs[0].commit, "c\\xFF");
    EXPECT_EQ(runs[0].source, "r\\x80.json");
    EXPECT_EQ(runs[0].labels, "k=v\\xFE");
    const auto all = store->measurements();
    ASSERT_EQ(all.size(), 1U);
    EXPECT_EQ(all[0].benchmark, "nul\\x00name\\xC3");
    EXPECT_EQ(all[0].samples, result.benchmarks[0].ns_per_item);
    EXPECT_EQ(store->series_runs(store->series().at(0)).size(), 1U);
}

// A benchmark name of 100 kB: PostgreSQL's B-tree entries hold about 2.7 kB, so the store
// indexes names by digest there; SQLite takes them as they are.
TEST_P(HistoryStoreTest, KeepsABenchmarkNameOfAHundredKilobytes) {
    const auto store = HistoryStore::open(location());
    const std::string name(100'000, 'a');
    store->add(synthetic_run(10, 0, 1, 25, "Test CPU 3000", name), {"a.json", "c1", {}});
    store->add(synthetic_run(11, 0, 1, 25, "Test CPU 3000", name), {"b.json", "c2", {}});
    const auto keys = store->series();
    ASSERT_EQ(keys.size(), 1U);
    EXPECT_EQ(keys[0].benchmark, name);
    EXPECT_EQ(store->series_runs(keys[0]).size(), 2U);
}

TEST_P(HistoryStoreTest, AcceptancesAreKeptInOrderAndFindTheirCommit) {
    const auto store = HistoryStore::open(location());
    store->add(synthetic_run(10), {"a.json", "abc123", {}});
    const auto second = store->add(synthetic_run(11), {"b.json", "abd456", {}});
    store->add(synthetic_run(11), {"c.json", "abd456", {}});  // the same commit again
    EXPECT_EQ(store->first_run_of_commit("abd").run_id, second);
    EXPECT_EQ(store->first_run_of_commit("abd").commit, "abd456");
    try {
        store->first_run_of_commit("ab");
        ADD_FAILURE() << "an ambiguous prefix was taken";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("abc123, abd456"), std::string::npos) << e.what();
    }
    EXPECT_THROW(store->first_run_of_commit("ffff"), std::invalid_argument);
    EXPECT_THROW(store->first_run_of_commit(""), std::invalid_argument);
    const auto id = store->accept({0, second, "abd456", "varint", "", "faster CPU", ""});
    store->accept({0, second, "abd456", "", "instructions", "new compiler", ""});
    const auto all = store->acceptances();
    ASSERT_EQ(all.size(), 2U);
    EXPECT_EQ(all[0].id, id);
    EXPECT_EQ(all[0].run_id, second);
    EXPECT_EQ(all[0].pattern, "varint");
    EXPECT_EQ(all[0].metric, "");
    EXPECT_EQ(all[0].reason, "faster CPU");
    EXPECT_FALSE(all[0].added_at.empty());
    EXPECT_EQ(all[1].metric, "instructions");
    store->forget({second});  // an acceptance names a commit: it stays
    EXPECT_EQ(store->acceptances().size(), 2U);
}

// A reader opens the store read-only: a database without perfgauge's tables is refused and
// left as it was (no table created), on either engine.
TEST_P(HistoryStoreTest, AReaderCreatesNothingWhereThereIsNoHistory) {
    const std::string where = location();
    if (GetParam() == Engine::sqlite) {
        std::filesystem::create_directories(std::filesystem::path(where).parent_path());
        raw_sql(where, "CREATE TABLE other (x INTEGER)");
    }
    const auto parsed = harness::parse_store_location(where);
    try {
        HistoryStore::open(parsed, StoreAccess::read);
        ADD_FAILURE() << "a store without history was read";
    } catch (const harness::StoreRefused& e) {
        EXPECT_NE(std::string(e.what()).find("no perfgauge history in"), std::string::npos)
            << e.what();
    }
    if (GetParam() == Engine::postgresql) {
        EXPECT_EQ(pg_tables(where), "");
    } else {
        const auto before = read_file(where);
        EXPECT_THROW(HistoryStore::open(parsed, StoreAccess::read), harness::StoreRefused);
        EXPECT_EQ(read_file(where), before);
    }
}

// A store of schema 1 (before acceptances) is read as it is by a reader, and migrated by the
// next writer.
TEST_P(HistoryStoreTest, AReaderReadsAnOlderSchemaWithoutMigratingIt) {
    const std::string where = location();
    HistoryStore::open(where)->add(synthetic_run(10), {"a.json", "c1", {}, "/w/a.json", "./a"});
    raw_sql(where, "DROP TABLE acceptances");
    raw_sql(where, "ALTER TABLE runs DROP COLUMN source_path");  // schema 3's
    raw_sql(where, "ALTER TABLE runs DROP COLUMN command");
    raw_sql(where, "DELETE FROM schema_version WHERE version > 1");
    {
        const auto reader =
            HistoryStore::open(harness::parse_store_location(where), StoreAccess::read);
        EXPECT_EQ(reader->schema_version(), 1);
        ASSERT_EQ(reader->runs().size(), 1U);
        EXPECT_EQ(reader->runs()[0].source, "a.json");
        EXPECT_EQ(reader->runs()[0].path, "");  // not recorded before schema 3
        EXPECT_TRUE(reader->acceptances().empty());
        EXPECT_EQ(reader->schema_version(), 1);
    }
    const auto writer = HistoryStore::open(where);
    EXPECT_EQ(writer->schema_version(), harness::kHistorySchemaVersion);
    writer->add(synthetic_run(10), {"b.json", "c2", {}, "/w/b.json", "./b --x"});
    const auto runs = writer->runs();
    ASSERT_EQ(runs.size(), 2U);
    EXPECT_EQ(runs[0].path + "|" + runs[0].command, "|");
    EXPECT_EQ(runs[1].path + "|" + runs[1].command, "/w/b.json|./b --x");
}

// A later perfgauge's store: refused by readers and writers before anything is written.
TEST_P(HistoryStoreTest, ANewerSchemaIsRefusedUntouchedByReadersAndWriters) {
    const std::string where = location();
    HistoryStore::open(where)->add(synthetic_run(10), {"a.json", "c1", {}});
    raw_sql(where, "INSERT INTO schema_version VALUES (99, 'later')");
    if (GetParam() == Engine::sqlite)
        raw_sql(where, "PRAGMA journal_mode=DELETE");  // as a later perfgauge might leave it
    const std::string before = GetParam() == Engine::sqlite ? read_file(where) : "";
    for (const auto access : {StoreAccess::read, StoreAccess::write}) {
        try {
            HistoryStore::open(harness::parse_store_location(where), access);
            ADD_FAILURE() << "a newer schema was opened";
        } catch (const harness::StoreRefused& e) {
            EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos)
                << e.what();
        }
    }
    if (GetParam() == Engine::sqlite) {
        EXPECT_EQ(read_file(where), before);  // not even switched to WAL
        EXPECT_FALSE(std::filesystem::exists(where + "-wal"));
    }
}

INSTANTIATE_TEST_SUITE_P(Engines, HistoryStoreTest,
                         ::testing::Values(Engine::sqlite, Engine::postgresql),
                         [](const auto& info) {
                             return info.param == Engine::sqlite ? "SQLite" : "PostgreSQL";
                         });

TEST(HistoryStoreSqlite, ANewerSchemaIsRefusedNotDamaged) {
    TempDir dir;
    const auto path = (dir.path() / "h.db").string();
    { HistoryStore::open(path)->add(synthetic_run(10), {"a.json", "", {}}); }
    // A later perfgauge's migration, simulated.
    ASSERT_EQ(
        std::system(
            ("sqlite3 " + path + " \"INSERT INTO schema_version VALUES (99, 'later')\"").c_str()),
        0);
    EXPECT_THROW(HistoryStore::open(path), std::runtime_error);
}

// A TCP port that takes connections and never answers (nobody accepts from its backlog), as a
// store behind a dropped route looks to libpq.
class SilentServer {
  public:
    SilentServer() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
            ::listen(fd_, 4) != 0 ||
            ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0)
            throw std::runtime_error("cannot listen on the loopback");
        port_ = ntohs(address.sin_port);
    }
    SilentServer(const SilentServer&) = delete;
    SilentServer& operator=(const SilentServer&) = delete;
    ~SilentServer() { ::close(fd_); }
    int port() const { return port_; }

  private:
    int fd_;
    int port_ = 0;
};

// libpq alone would wait for such a server for ever: the URI's connect_timeout, or
// PGCONNECT_TIMEOUT, or else perfgauge's own 10 s (the last case: without it the test hangs
// until ctest's timeout) ends the wait with an error naming the store.
TEST(HistoryStorePostgres, AServerThatNeverAnswersEndsInATimeout) {
    const SilentServer server;
    // The environment's own PGCONNECT_TIMEOUT (0 waits for ever) is set aside, and put back.
    const char* given = std::getenv("PGCONNECT_TIMEOUT");
    const std::optional<std::string> kept =
        given ? std::optional<std::string>(given) : std::nullopt;
    ::unsetenv("PGCONNECT_TIMEOUT");
    // sslmode=disable: one attempt, not an SSL one and a plain one, each waiting in full.
    const std::string uri =
        "postgresql://u@127.0.0.1:" + std::to_string(server.port()) + "/db?sslmode=disable";
    const struct {
        std::string suffix;
        const char* environment;
    } cases[] = {{"&connect_timeout=1", nullptr}, {"", "1"}, {"", nullptr}};
    for (const auto& c : cases) {
        if (c.environment)
            ::setenv("PGCONNECT_TIMEOUT", c.environment, 1);
        try {
            HistoryStore::open(harness::parse_store_location(uri + c.suffix), StoreAccess::read);
            ADD_FAILURE() << "connected to a server that never answers";
        } catch (const std::exception& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("cannot connect to the history store"), std::string::npos) << what;
            EXPECT_NE(what.find("timeout"), std::string::npos) << what;
        }
        ::unsetenv("PGCONNECT_TIMEOUT");
    }
    if (kept)
        ::setenv("PGCONNECT_TIMEOUT", kept->c_str(), 1);
}

TEST(StoreLocation, ParsesTheAcceptedFormsOnce) {
    using E = harness::StoreLocation::Engine;
    EXPECT_EQ(harness::parse_store_location("h.db").engine, E::sqlite);
    EXPECT_EQ(harness::parse_store_location("/a/b:c.db").engine, E::sqlite);
    EXPECT_EQ(harness::parse_store_location("a:b.db").engine, E::sqlite);  // no "//"
    EXPECT_EQ(harness::parse_store_location("postgresql:///perf?host=/run").engine, E::postgresql);
    EXPECT_EQ(harness::parse_store_location("postgres://u@h/db").engine, E::postgresql);
    EXPECT_EQ(harness::parse_store_location("postgres://u@h/db").target, "postgres://u@h/db");
}

// The location's text and where it came from, judged once: the option, else $PERFGAUGE_DB
// (not when empty), else the default path under $XDG_DATA_HOME or $HOME.
TEST(StoreLocation, TextComesFromTheOptionTheEnvironmentOrTheDefault) {
    using S = harness::LocationSource;
    const auto saved = [](const char* name) {
        const char* v = std::getenv(name);
        return v ? std::optional<std::string>(v) : std::nullopt;
    };
    const auto db = saved("PERFGAUGE_DB"), xdg = saved("XDG_DATA_HOME"), home = saved("HOME");
    ::setenv("PERFGAUGE_DB", "env.db", 1);
    ::setenv("XDG_DATA_HOME", "/xdg", 1);
    ::setenv("HOME", "/home/me", 1);
    const auto given = harness::history_location_text(std::string("given.db"));
    const auto env = harness::history_location_text(std::nullopt);
    ::setenv("PERFGAUGE_DB", "", 1);
    const auto under_xdg = harness::history_location_text(std::nullopt);
    ::unsetenv("XDG_DATA_HOME");
    const auto under_home = harness::history_location_text(std::nullopt);
    const auto restore = [](const char* name, const std::optional<std::string>& v) {
        v ? ::setenv(name, v->c_str(), 1) : ::unsetenv(name);
    };
    restore("PERFGAUGE_DB", db);
    restore("XDG_DATA_HOME", xdg);
    restore("HOME", home);
    EXPECT_EQ(given.text, "given.db");
    EXPECT_EQ(given.source, S::option);
    EXPECT_EQ(env.text, "env.db");
    EXPECT_EQ(env.source, S::environment);
    EXPECT_EQ(under_xdg.text, "/xdg/perfgauge/history.db");
    EXPECT_EQ(under_xdg.source, S::default_path);
    EXPECT_EQ(under_home.text, "/home/me/.local/share/perfgauge/history.db");
    EXPECT_EQ(under_home.source, S::default_path);
}

TEST(StoreLocation, RefusesEveryOtherSchemeNamingTheAcceptedForms) {
    for (const std::string bad :
         {"", "mysql://u@h/db", "postgresql+psycopg://h/db", "HTTP://h/x", "POSTGRESQL://h/db",
          "Postgres://h/db", "file:h.db", "file:///tmp/h.db", "sqlite:///h.db", "postgresql:h",
          // Named like a URI all the same: a new local file would be made of each (issue 49).
          "jdbc:postgresql://h/db", "sqlite:h.db", "SQLite3:h.db", "/srv/x://h",
          " postgresql://h/db", "postgresql://h/db\n", "h.db "}) {
        try {
            harness::parse_store_location(bad);
            ADD_FAILURE() << bad << " was taken";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("postgresql://... or postgres://..."),
                      std::string::npos)
                << e.what();
        }
    }
}

TEST(StoreLocation, RedactsPasswordsInEveryForm) {
    using harness::redact_passwords;
    EXPECT_EQ(redact_passwords("postgresql://me:s3cret@h/db"), "postgresql://me:***@h/db");
    EXPECT_EQ(redact_passwords("mysql://me:s3cret@h:5/db?x=1"), "mysql://me:***@h:5/db?x=1");
    EXPECT_EQ(redact_passwords("postgresql://h/db?password=s3cret&user=me"),
              "postgresql://h/db?password=***&user=me");
    EXPECT_EQ(redact_passwords("postgresql://h/db?user=me&PASSWORD=s3cret"),
              "postgresql://h/db?user=me&PASSWORD=***");
    EXPECT_EQ(redact_passwords("host=h password=s3cret user=me"), "host=h password=*** user=me");
    EXPECT_EQ(redact_passwords("host=h password='s 3cret' user=me"), "host=h password=*** user=me");
    EXPECT_EQ(redact_passwords("connect to \"postgresql://me:pw@h\" failed"),
              "connect to \"postgresql://me:***@h\" failed");
    EXPECT_EQ(redact_passwords("postgresql://me@h/db"), "postgresql://me@h/db");
    EXPECT_EQ(redact_passwords("/home/me/a:b@c.db"), "/home/me/a:b@c.db");  // no scheme
    try {
        harness::parse_store_location("mysql://me:s3cret@h/db?password=other");
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find("s3cret"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("other"), std::string::npos) << e.what();
    }
}

TEST(StoreText, EscapesWhatIsNotUtf8AndNulsOnly) {
    using harness::store_text;
    EXPECT_EQ(store_text("plain/name 1K"), "plain/name 1K");
    EXPECT_EQ(store_text("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
              "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");  // é, €, an emoji: kept
    EXPECT_EQ(store_text(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(store_text("\xFF\xFE"), "\\xFF\\xFE");
    EXPECT_EQ(store_text("\xC0\x80"), "\\xC0\\x80");                    // overlong NUL
    EXPECT_EQ(store_text("\xED\xA0\x80"), "\\xED\\xA0\\x80");           // a surrogate
    EXPECT_EQ(store_text("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
    EXPECT_EQ(store_text("\xE2\x82"), "\\xE2\\x82");                    // cut short
    EXPECT_EQ(store_text("\xE2\x82x"), "\\xE2\\x82x");
    EXPECT_EQ(store_text("back\\slash"), "back\\slash");  // kept as it is
    EXPECT_FALSE(harness::needs_escaping("caf\xC3\xA9"));
    EXPECT_TRUE(harness::needs_escaping(std::string("\0", 1)));
}

TEST(SampleCodec, RoundTripsEveryDoubleBitForBit) {
    const std::vector<double> samples{1.5,
                                      -0.0,
                                      0.0,
                                      1e-300,
                                      1e300,
                                      std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::denorm_min(),
                                      3.0};
    EXPECT_EQ(harness::decode_samples(harness::encode_samples(samples)), samples);
    EXPECT_TRUE(harness::decode_samples(harness::encode_samples({})).empty());
    const auto nan = harness::decode_samples(
        harness::encode_samples(std::vector<double>{std::numeric_limits<double>::quiet_NaN()}));
    ASSERT_EQ(nan.size(), 1U);
    EXPECT_TRUE(std::isnan(nan[0]));
}

TEST(SampleCodec, TakesFewerBytesThanTheRawDoubles) {
    std::mt19937_64 rng(3);
    std::normal_distribution<double> z(0, 1);
    std::vector<double> samples;
    for (int i = 0; i < 1000; ++i)
        samples.push_back(std::round(2.5e6 * (1 + 0.02 * z(rng))) / 1e6);  // ns, clock quantum
    // Noisy mantissas do not compress; sign, exponent and leading bits do (~6.4 of 8 bytes).
    const auto bytes = harness::encode_samples(samples);
    EXPECT_LT(bytes.size(), samples.size() * sizeof(double) * 7 / 8);
    // Deterministic samples (simulated counts) cost next to nothing.
    EXPECT_LT(harness::encode_samples(std::vector<double>(1000, 24.0)).size(), 100U);
    auto damaged = bytes;
    damaged.back() ^= 0xff;
    damaged[10] ^= 0xff;
    EXPECT_THROW(harness::decode_samples(damaged), harness::SampleCodecError);
    EXPECT_THROW(harness::decode_samples(std::vector<unsigned char>{7}), harness::SampleCodecError);
}

TEST(MachineFingerprint, HostAndKernelIdentifyAMachineNotItsClass) {
    auto a = synthetic_run(1), b = synthetic_run(1), c = synthetic_run(1);
    b.system.host_name = "other-host";
    b.system.kernel = "6.2";
    c.compiler_flags = "-O2";
    const auto fa = harness::fingerprint_of(a), fb = harness::fingerprint_of(b),
               fc = harness::fingerprint_of(c);
    EXPECT_EQ(fa.class_id, fb.class_id);
    EXPECT_NE(fa.machine_id, fb.machine_id);
    EXPECT_NE(fa.class_id, fc.class_id);
    EXPECT_EQ(fa.class_id.size(), 16U);
}

// A fully described machine: every fact the fingerprint's class is made of.
harness::RunResult described_run() {
    auto r = synthetic_run(1);
    r.system.cpu.stepping = 7;
    r.system.cpu.microcode = "0x5003604";
    r.system.cpu.cores = 2;
    r.system.smt_active = false;
    r.system.hypervisor = "KVMKVMKVM";
    r.system.mitigations = {{"spectre_v2", "Mitigation: Retpolines"},
                            {"spec_store_bypass", "Vulnerable"}};
    r.system.caches = {{1, "Data", 32768, 64, 1, 8}, {3, "Unified", 33554432, 64, 2, 16}};
    return r;
}

TEST(MachineFingerprint, EveryCpuFactMakesADifferentClass) {
    const auto base = harness::fingerprint_of(described_run());
    const std::vector<void (*)(harness::RunResult&)> changes = {
        [](harness::RunResult& r) { r.system.cpu.stepping = 4; },
        [](harness::RunResult& r) { r.system.cpu.microcode = "0x5003707"; },
        [](harness::RunResult& r) { r.system.cpu.cores = 1; },
        [](harness::RunResult& r) { r.system.cpu.logical_cpus = 4; },
        [](harness::RunResult& r) { r.system.smt_active = true; },
        [](harness::RunResult& r) { r.system.hypervisor = "none"; },
        [](harness::RunResult& r) { r.system.mitigations.pop_back(); },
        [](harness::RunResult& r) { r.system.caches[1].size_bytes /= 2; },
    };
    std::set<std::string> classes = {base.class_id};
    for (const auto& change : changes) {
        auto r = described_run();
        change(r);
        classes.insert(harness::fingerprint_of(r).class_id);
    }
    EXPECT_EQ(classes.size(), changes.size() + 1);  // each change its own class
    EXPECT_NE(base.summary.find("VM KVMKVMKVM"), std::string::npos) << base.summary;
}

TEST(MachineFingerprint, SurvivesTheResultFile) {
    // What history add reads back from a file must be the machine that wrote it: every fact
    // of the class and of the machine goes through the JSON.
    auto r = described_run();
    r.system.governor = "performance";
    r.system.boost = false;
    r.system.clocksource = "tsc";
    const auto read =
        harness::parse_result_json(harness::render_run(r, harness::OutputFormat::json), "r.json");
    const auto written = harness::fingerprint_of(r), back = harness::fingerprint_of(read);
    EXPECT_EQ(back.class_facts, written.class_facts);
    EXPECT_EQ(back.machine_facts, written.machine_facts);
    EXPECT_EQ(back.machine_id, written.machine_id);
}

TEST(MachineFingerprint, UnknownCpusAreClassedByMachineNeverTogether) {
    // Google Benchmark and stat files: no CPU facts. Their class is their machine.
    harness::RunResult a;
    a.kind = harness::ResultKind::google_benchmark;
    a.system.host_name = "node-a";
    auto b = a;
    b.system.host_name = "node-b";
    EXPECT_TRUE(harness::unidentified_machine(a, "").empty());
    EXPECT_NE(harness::fingerprint_of(a).class_id, harness::fingerprint_of(b).class_id);
    EXPECT_EQ(harness::fingerprint_of(a).summary, "unknown CPU on node-a");
    // A label names the machine when the file does not; without either it cannot be filed.
    harness::RunResult stat;
    stat.kind = harness::ResultKind::stat;
    EXPECT_NE(harness::unidentified_machine(stat, "").find("--label machine=NAME"),
              std::string::npos);
    EXPECT_TRUE(harness::unidentified_machine(stat, "box1").empty());
    EXPECT_NE(harness::fingerprint_of(stat, "box1").class_id,
              harness::fingerprint_of(stat, "box2").class_id);
    // A described CPU keeps its class whatever the label: a fleet of one CPU is one class.
    EXPECT_EQ(harness::fingerprint_of(described_run(), "box1").class_id,
              harness::fingerprint_of(described_run(), "box2").class_id);
}

}  // namespace
}  // namespace perfgauge::test
