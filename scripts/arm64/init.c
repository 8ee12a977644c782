/* The guest's /init (static, aarch64): mounts the kernel's file systems, runs the steps of
 * /plan one after another, and sends what they wrote back over the serial console, framed as
 * base64 between marker lines that scripts/arm64-guest.sh reads; then powers off.
 *
 * /plan, one step a line, fields separated by tabs:
 *   run   NAME TIMEOUT_S UID DIR ARGV...  stdout, stderr and status to /out/NAME.{out,err,rc}
 *   write PATH VALUE                      write VALUE to a /proc or /sys file (a sysctl)
 *   send  DIR                             send every regular file in DIR (not recursive)
 * A step's files are sent when it ends, and every file left in /out at the end, so a step
 * that hangs or dies still reports. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static FILE* console;

static void note(const char* format, ...) {
    FILE* log = fopen("/out/_init.log", "a");
    va_list args;
    va_start(args, format);
    if (log) {
        vfprintf(log, format, args);
        fclose(log);
    }
    va_end(args);
}

static void send_file(const char* path, const char* name) {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    FILE* in = fopen(path, "rb");
    if (!in)
        return;
    struct stat st;
    fstat(fileno(in), &st);
    fprintf(console, "\n@@PG-BEGIN %s %lld\n", name, (long long)st.st_size);
    unsigned char block[57]; /* 57 bytes: one 76-character line */
    size_t n;
    while ((n = fread(block, 1, sizeof block, in)) > 0) {
        char line[80];
        size_t out = 0;
        for (size_t i = 0; i < n; i += 3) {
            unsigned v = (unsigned)block[i] << 16;
            if (i + 1 < n)
                v |= (unsigned)block[i + 1] << 8;
            if (i + 2 < n)
                v |= block[i + 2];
            line[out++] = table[v >> 18 & 63];
            line[out++] = table[v >> 12 & 63];
            line[out++] = i + 1 < n ? table[v >> 6 & 63] : '=';
            line[out++] = i + 2 < n ? table[v & 63] : '=';
        }
        line[out] = '\0';
        fprintf(console, "%s\n", line);
    }
    fprintf(console, "@@PG-END %s\n", name);
    fflush(console);
    fclose(in);
}

static void send_dir(const char* dir, const char* prefix) {
    DIR* d = opendir(dir);
    if (!d)
        return;
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
        char path[4096], name[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        snprintf(name, sizeof name, "%s%s", prefix, e->d_name);
        send_file(path, name);
    }
    closedir(d);
}

/* A step's files go out as soon as it ends, and move to /out/sent so that the final sweep of
 * /out does not send them again: what finished arrives even if a later step outlasts the
 * guest's timeout. */
static void send_step(const char* name) {
    static const char* const kinds[] = {"out", "err", "rc", "json"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) {
        char path[512], sent[512], as[512];
        snprintf(path, sizeof path, "/out/%s.%s", name, kinds[i]);
        snprintf(sent, sizeof sent, "/out/sent/%s.%s", name, kinds[i]);
        snprintf(as, sizeof as, "out/%s.%s", name, kinds[i]);
        if (access(path, R_OK) != 0)
            continue;
        send_file(path, as);
        rename(path, sent);
    }
}

static void write_value(const char* path, const char* value) {
    int fd = open(path, O_WRONLY);
    if (fd < 0 || write(fd, value, strlen(value)) < 0)
        note("write %s %s: %s\n", path, value, strerror(errno));
    if (fd >= 0)
        close(fd);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run_step(char** field, int count) {
    if (count < 6) {
        note("run: too few fields\n");
        return;
    }
    const char* name = field[1];
    const double timeout = atof(field[2]);
    const int uid = atoi(field[3]);
    char out[512], err[512], rc[512];
    snprintf(out, sizeof out, "/out/%s.out", name);
    snprintf(err, sizeof err, "/out/%s.err", name);
    snprintf(rc, sizeof rc, "/out/%s.rc", name);
    const double started = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int i = open("/dev/null", O_RDONLY);
        dup2(i, 0);
        dup2(o, 1);
        dup2(e, 2);
        if (chdir(field[4]) != 0) {
            fprintf(stderr, "init: cannot enter %s: %s\n", field[4], strerror(errno));
            _exit(126);
        }
        if (uid != 0 && (setgid((gid_t)uid) != 0 || setuid((uid_t)uid) != 0)) {
            fprintf(stderr, "init: cannot become uid %d: %s\n", uid, strerror(errno));
            _exit(126);
        }
        field[count] = NULL;
        execvp(field[5], field + 5);
        fprintf(stderr, "init: cannot run %s: %s\n", field[5], strerror(errno));
        _exit(127);
    }
    int status = 0;
    int timed_out = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0) {
            status = 0;
            break;
        }
        if (now_s() - started > timeout) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            timed_out = 1;
            break;
        }
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    FILE* f = fopen(rc, "w");
    if (f) {
        if (timed_out)
            fprintf(f, "timeout %.0f\n", timeout);
        else if (WIFSIGNALED(status))
            fprintf(f, "signal %d\n", WTERMSIG(status));
        else
            fprintf(f, "exit %d\n", WEXITSTATUS(status));
        fprintf(f, "seconds %.3f\n", now_s() - started);
        fclose(f);
    }
    /* Anything left in the step's process group (a daemonised child) goes too. */
    kill(-pid, SIGKILL);
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
    send_step(name);
}

int main(void) {
    mount("proc", "/proc", "proc", 0, NULL);
    mount("sysfs", "/sys", "sysfs", 0, NULL);
    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
    mount("tmpfs", "/tmp", "tmpfs", 0, "mode=1777");
    mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
    mkdir("/out", 0755);
    mkdir("/out/sent", 0755);
    console = fopen("/dev/console", "w");
    if (!console)
        console = stdout;
    setenv("PATH", "/bin:/work", 1);
    setenv("HOME", "/tmp", 1);
    setenv("TMPDIR", "/tmp", 1);
    fprintf(console, "\n@@PG-BOOTED\n");
    fflush(console);

    FILE* plan = fopen("/plan", "r");
    char* line = NULL;
    size_t size = 0;
    while (plan && getline(&line, &size, plan) > 0) {
        line[strcspn(line, "\n")] = '\0';
        char* field[256];
        int count = 0;
        for (char *save = NULL, *f = strtok_r(line, "\t", &save); f && count < 255;
             f = strtok_r(NULL, "\t", &save))
            field[count++] = f;
        if (count == 0)
            continue;
        if (strcmp(field[0], "run") == 0) {
            fprintf(console, "@@PG-STEP %s\n", count > 1 ? field[1] : "?");
            fflush(console);
            run_step(field, count);
        } else if (strcmp(field[0], "write") == 0 && count == 3) {
            write_value(field[1], field[2]);
        } else if (strcmp(field[0], "send") == 0 && count == 2) {
            send_dir(field[1], "work/");
        } else {
            note("unknown step: %s\n", field[0]);
        }
    }
    free(line);
    send_dir("/out", "out/");
    fprintf(console, "@@PG-DONE\n");
    fflush(console);
    sync();
    reboot(RB_POWER_OFF);
    return 0;
}
