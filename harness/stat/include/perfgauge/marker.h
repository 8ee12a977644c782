/* perfgauge/marker.h - mark the part of any program that `perfgauge stat --markers` counts.
 *
 * Header only, C (C99) and C++, nothing to link:
 *
 *     #include <perfgauge/marker.h>
 *     ...set-up...
 *     perfgauge_marker_start();
 *     ...the work to count...
 *     perfgauge_marker_stop();
 *
 * or, in C++, `perfgauge::MarkedScope scope;` for the rest of a block.
 *
 * Natively: `perfgauge stat --markers -- CMD` starts CMD with its counters disabled and passes
 * it a control socket named by the environment variable PERFGAUGE_MARKER_FD (FD:INODE).
 * start() sends 'E' and stop() sends 'D'; perfgauge enables or disables the whole counter group
 * (every thread and child of CMD counts through the inherited counters) and acknowledges, and only
 * then does the marker return - so the counters are on before the marked work begins and off before
 * what follows it. Markers nest: counting stops at the stop() that balances the first start().
 * Without the variable (not run under perfgauge) a marker costs one getenv() on its first call
 * and a test of a cached int afterwards, and does nothing.
 *
 * Simulated (`perfgauge stat --markers --backend sim` runs CMD once more under callgrind with
 * --instr-atstart=no and PERFGAUGE_MARKER_FD=callgrind): when <valgrind/callgrind.h> is
 * available where the program is built, the markers issue CALLGRIND_START_INSTRUMENTATION /
 * CALLGRIND_STOP_INSTRUMENTATION instead. Only then: under callgrind without --markers (or run
 * by hand) they do nothing, so the whole program is simulated. Define
 * PERFGAUGE_MARKER_NO_VALGRIND to leave them out (simulated counts of --markers are then 0).
 * Under callgrind markers do not nest: the first stop() ends the simulated interval.
 *
 * Markers called at the same time from several threads or processes are each acknowledged,
 * but acknowledgements are not addressed: one caller may resume on another's (as with perf
 * stat --control). Marking from one thread at a time is exact.
 */
#ifndef PERFGAUGE_MARKER_H
#define PERFGAUGE_MARKER_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>

#if !defined(PERFGAUGE_MARKER_NO_VALGRIND) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PERFGAUGE_MARKER_CALLGRIND 1
#endif
#endif

/* The environment variable naming the control socket (perfgauge sets it for --markers). */
#define PERFGAUGE_MARKER_ENV "PERFGAUGE_MARKER_FD"

/* What the markers do: PERFGAUGE_MARKER_DETAIL_OFF (not run by `perfgauge stat --markers`),
 * PERFGAUGE_MARKER_DETAIL_CALLGRIND (perfgauge's simulated run: callgrind client requests), or
 * a control socket (>= 0). The variable reads "FD:INODE" for a socket, the descriptor and the
 * inode of the socket perfgauge made, so a variable leaked into an unrelated program (whose FD
 * is something else, or another socket) is ignored and a marker never writes to a descriptor
 * it was not meant for; "callgrind" for the simulated run. Looked up once per translation
 * unit; racing first calls from two threads compute the same value. */
#define PERFGAUGE_MARKER_DETAIL_OFF (-1)
#define PERFGAUGE_MARKER_DETAIL_CALLGRIND (-3)
static inline int perfgauge_marker_detail_fd(void) {
    static int cached = -2; /* -2: not looked up yet */
    int fd = cached;
    if (fd == -2) {
        const int saved_errno = errno;
        const char* text = getenv(PERFGAUGE_MARKER_ENV);
        fd = PERFGAUGE_MARKER_DETAIL_OFF;
        if (text != NULL && strcmp(text, "callgrind") == 0) {
            fd = PERFGAUGE_MARKER_DETAIL_CALLGRIND;
        } else if (text != NULL && *text != '\0') {
            char* end = NULL;
            const long value = strtol(text, &end, 10);
            if (end != NULL && *end == ':' && value >= 0 && value < 1048576) {
                const unsigned long long inode = strtoull(end + 1, &end, 10);
                struct stat st;
                int type = 0;
                socklen_t size = sizeof type;
                /* getsockopt, not S_ISSOCK: declared in strict C99 too. */
                if (*end == '\0' && fstat((int)value, &st) == 0 &&
                    (unsigned long long)st.st_ino == inode &&
                    getsockopt((int)value, SOL_SOCKET, SO_TYPE, &type, &size) == 0 &&
                    type == SOCK_STREAM)
                    fd = (int)value;
            }
        }
        cached = fd;
        errno = saved_errno;
    }
    return fd;
}

/* Sends one request and waits for perfgauge's acknowledgement. MSG_NOSIGNAL: if perfgauge has
 * gone, the send fails (EPIPE) instead of killing the program with SIGPIPE. errno is kept. */
static inline void perfgauge_marker_detail_request(char request) {
    const int fd = perfgauge_marker_detail_fd();
    int saved_errno;
    ssize_t n;
    char ack;
    if (fd < 0)
        return;
    saved_errno = errno;
    do {
        n = send(fd, &request, 1, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    if (n == 1) {
        do {
            n = recv(fd, &ack, 1, 0);
        } while (n < 0 && errno == EINTR);
    }
    errno = saved_errno;
}

/* Counting starts (for every thread and child of the program) before this returns. */
static inline void perfgauge_marker_start(void) {
#ifdef PERFGAUGE_MARKER_CALLGRIND
    if (perfgauge_marker_detail_fd() == PERFGAUGE_MARKER_DETAIL_CALLGRIND) {
        CALLGRIND_START_INSTRUMENTATION;
        return;
    }
#endif
    perfgauge_marker_detail_request('E');
}

/* Counting has stopped when this returns (once every start() is balanced). */
static inline void perfgauge_marker_stop(void) {
#ifdef PERFGAUGE_MARKER_CALLGRIND
    if (perfgauge_marker_detail_fd() == PERFGAUGE_MARKER_DETAIL_CALLGRIND) {
        CALLGRIND_STOP_INSTRUMENTATION;
        return;
    }
#endif
    perfgauge_marker_detail_request('D');
}

#ifdef __cplusplus
namespace perfgauge {
/// Counts from its construction to the end of its scope (perfgauge_marker_start/stop).
class MarkedScope {
  public:
    MarkedScope() { perfgauge_marker_start(); }
    ~MarkedScope() { perfgauge_marker_stop(); }
    MarkedScope(const MarkedScope&) = delete;
    MarkedScope& operator=(const MarkedScope&) = delete;
};
}  // namespace perfgauge
#endif

#endif /* PERFGAUGE_MARKER_H */
