// A command whose counts are known in advance, for testing `perfgauge stat`:
//   stat_workload write K      K write() syscalls to /dev/null (nothing else writes)
//   stat_workload touch N      touch N fresh 4 KiB pages (N page faults)
//   stat_workload spin MS      burn about MS milliseconds of CPU
//   stat_workload fork-write K a child does K writes; the parent waits
//   stat_workload print TEXT   print TEXT on stdout and stderr
//   stat_workload abort        abort()
//   stat_workload exit CODE    exit with CODE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

void do_writes(long k) {
    const int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    for (long i = 0; i < k; ++i)
        ::syscall(SYS_write, fd, "x", 1);
    ::close(fd);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2)
        return 2;
    const char* mode = argv[1];
    const long n = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 0;
    if (!std::strcmp(mode, "write")) {
        do_writes(n);
    } else if (!std::strcmp(mode, "touch")) {
        const std::size_t page = 4096, bytes = static_cast<std::size_t>(n) * page;
        if (n > 0) {
            void* mem =
                ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (mem == MAP_FAILED)
                return 3;
            ::madvise(mem, bytes, MADV_NOHUGEPAGE);
            auto* p = static_cast<volatile char*>(mem);
            for (std::size_t i = 0; i < bytes; i += page)
                p[i] = 1;
        }
    } else if (!std::strcmp(mode, "spin")) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(n);
        volatile unsigned long sink = 0;
        while (std::chrono::steady_clock::now() < end) {
            for (int i = 0; i < 1000; ++i)
                sink = sink + static_cast<unsigned long>(i);
        }
    } else if (!std::strcmp(mode, "fork-write")) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            do_writes(n);
            ::_exit(0);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
    } else if (!std::strcmp(mode, "print")) {
        std::printf("%s\n", argc > 2 ? argv[2] : "");
        std::fprintf(stderr, "%s\n", argc > 2 ? argv[2] : "");
    } else if (!std::strcmp(mode, "abort")) {
        std::abort();
    } else if (!std::strcmp(mode, "exit")) {
        return static_cast<int>(n);
    } else {
        return 2;
    }
    return 0;
}
