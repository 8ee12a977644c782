#include "run_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "json_outputs.hpp"
#include "temp_dir.hpp"

namespace perfgauge::test {

namespace {

// In the child: `fd` becomes `path` ("" the capture file, "-" closed). False on failure.
bool redirect(int fd, const std::string& path, const std::filesystem::path& capture) {
    if (path == "-")
        return ::close(fd) == 0 || errno == EBADF;
    const std::string target = path.empty() ? capture.string() : path;
    const int opened = ::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    return opened >= 0 && ::dup2(opened, fd) >= 0;
}

// Waits until `ready()`; false if `pid` ended first (left unreaped for the caller).
bool wait_until(const std::function<bool()>& ready, pid_t pid) {
    for (;;) {
        if (ready())
            return true;
        siginfo_t info{};
        if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == pid)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
    // Files instead of pipes: no risk of a full pipe blocking the child while we wait.
    const TempDir dir;
    const auto out_path = dir.path() / "stdout";
    const auto err_path = dir.path() / "stderr";
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const JsonOutputs json_outputs(argv, options.working_directory);
    const pid_t pid = ::fork();
    if (pid < 0)
        throw std::runtime_error("fork failed");
    if (pid == 0) {
        if (options.signal)
            ::setpgid(0, 0);
        const int null = ::open("/dev/null", O_RDONLY);
        if (null < 0 || ::dup2(null, STDIN_FILENO) < 0 ||
            !redirect(STDOUT_FILENO, options.stdout_path, out_path))
            ::_exit(126);
        if (!options.working_directory.empty() && ::chdir(options.working_directory.c_str()) != 0)
            ::_exit(126);
        // Last: with stderr gone, nothing above could have said what failed anyway.
        if (!redirect(STDERR_FILENO, options.stderr_path, err_path))
            ::_exit(126);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    if (options.signal) {
        ::setpgid(pid, pid);  // also here: whichever runs first, the group exists before kill
        bool send = true;
        if (options.signal_when)
            send = wait_until(options.signal_when, pid);
        else
            std::this_thread::sleep_for(std::chrono::duration<double>(options.signal_after_s));
        if (send)
            ::kill(options.signal_program_only ? pid : -pid, *options.signal);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            throw std::runtime_error("waitpid failed");
    }
    ProcessResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_file(out_path);
    result.err = read_file(err_path);
    json_outputs.collect(options.stdout_path.empty() ? result.out : std::string(),
                         options.stdout_path);
    return result;
}

std::function<bool()> once_exists(const std::filesystem::path& path) {
    return [path] {
        std::error_code ec;
        return std::filesystem::exists(path, ec);
    };
}

}  // namespace perfgauge::test
