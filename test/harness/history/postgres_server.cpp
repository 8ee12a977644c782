#include "postgres_server.hpp"

#include <libpq-fe.h>

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace perfgauge::test {
namespace {

constexpr int kPort = 5432;  // only names the socket file: nothing listens on TCP

std::string server_bin() {
    // Debian installs the server per major version; the newest installed is taken.
    std::string found;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/usr/lib/postgresql", ec))
        if (std::filesystem::exists(e.path() / "bin" / "postgres") && e.path().string() > found)
            found = e.path().string();
    if (found.empty())
        throw std::runtime_error(
            "PostgreSQL server binaries not found under /usr/lib/postgresql: install Debian's "
            "postgresql package (scripts/install-deps.sh does)");
    return found + "/bin/";
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Forks `argv` as the unprivileged user when root, in `dir`, output into `log`.
pid_t start(const std::vector<std::string>& argv, const std::string& dir, const std::string& log) {
    const passwd* nobody = geteuid() == 0 ? getpwnam("nobody") : nullptr;
    if (geteuid() == 0 && !nobody)
        throw std::runtime_error("running as root and there is no user 'nobody' to run postgres");
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error("fork failed");
    if (pid == 0) {
        if (nobody && (setgroups(0, nullptr) != 0 || setgid(nobody->pw_gid) != 0 ||
                       setuid(nobody->pw_uid) != 0))
            _exit(126);
        // A test that dies leaves no server behind (set after the credentials changed).
        prctl(PR_SET_PDEATHSIG, SIGINT);
        if (chdir(dir.c_str()) != 0)
            _exit(126);
        const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    return pid;
}

int wait_for(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct ConnCloser {
    void operator()(PGconn* c) const noexcept { PQfinish(c); }
};

}  // namespace

PostgresServer::PostgresServer() {
    std::string pattern = (std::filesystem::temp_directory_path() / "perfgauge-pg-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    chmod(dir_.c_str(), 0755);
    if (geteuid() == 0) {
        const passwd* nobody = getpwnam("nobody");
        if (nobody && chown(dir_.c_str(), nobody->pw_uid, nobody->pw_gid) != 0)
            throw std::runtime_error("cannot hand " + dir_ + " to nobody");
    }
    const std::string bin = server_bin();
    const std::string log = dir_ + "/server.log";
    if (wait_for(start({bin + "initdb", "-D", dir_ + "/data", "-A", "trust", "-U", "postgres", "-E",
                        "UTF8", "--no-sync", "--no-instructions"},
                       dir_, log)) != 0)
        throw std::runtime_error("initdb failed:\n" + slurp(log));
    server_ =
        start({bin + "postgres", "-D", dir_ + "/data", "-k", dir_, "-p", std::to_string(kPort),
               "-c", "listen_addresses=", "-c", "fsync=off", "-c", "max_connections=60"},
              dir_, log);
    const std::string uri =
        "postgresql:///postgres?host=" + dir_ + "&port=" + std::to_string(kPort) + "&user=postgres";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (PQping(uri.c_str()) != PQPING_OK) {
        int status = 0;
        if (waitpid(server_, &status, WNOHANG) == server_) {
            server_ = -1;
            throw std::runtime_error("postgres exited while starting:\n" + slurp(log));
        }
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("postgres did not accept connections in 30 s:\n" + slurp(log));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

PostgresServer::~PostgresServer() {
    if (server_ > 0) {
        kill(server_, SIGINT);  // fast shutdown: ends sessions, no checkpoint wait
        wait_for(server_);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

std::string PostgresServer::new_database() {
    const std::string base =
        "postgresql:///{}?host=" + dir_ + "&port=" + std::to_string(kPort) + "&user=postgres";
    const auto uri_of = [&](const std::string& db) {
        std::string u = base;
        u.replace(u.find("{}"), 2, db);
        return u;
    };
    const std::string name = "history_" + std::to_string(++databases_);
    std::unique_ptr<PGconn, ConnCloser> admin(PQconnectdb(uri_of("postgres").c_str()));
    if (PQstatus(admin.get()) != CONNECTION_OK)
        throw std::runtime_error(std::string("connecting to the test server: ") +
                                 PQerrorMessage(admin.get()));
    PGresult* r = PQexec(admin.get(), ("CREATE DATABASE " + name).c_str());
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok)
        throw std::runtime_error("CREATE DATABASE failed: " +
                                 std::string(PQerrorMessage(admin.get())));
    return uri_of(name);
}

PostgresServer& shared_postgres() {
    static PostgresServer server;
    return server;
}

}  // namespace perfgauge::test
