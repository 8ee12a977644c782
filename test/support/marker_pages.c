/* A C program for `perfgauge stat --markers` tests: touches 3000 pages, then 1000 between the
 * markers, then 3000 more, each page once (one minor page fault per page).
 *   marker_pages            the above
 *   marker_pages none       the same pages, never calling a marker
 *   marker_pages sleep MS   3000 pages, sleep MS milliseconds, 1000 pages (for --delay)
 *   marker_pages twice      two marked intervals of 500 pages each (2 intervals, ~1000) */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and nanosleep under -std=c99 */
#include <perfgauge/marker.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Fresh anonymous pages, each written once: the first write of each faults. volatile: the
 * compiler may not skip or merge the writes. */
static void touch_pages(long pages) {
    const long page = sysconf(_SC_PAGESIZE);
    volatile char* p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    long i;
    if ((void*)p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    for (i = 0; i < pages; ++i)
        p[i * page] = (char)i;
    /* Not unmapped: munmap costs no fault, but keeping them keeps the test simple. */
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "markers";
    if (strcmp(mode, "sleep") == 0) {
        const long ms = argc > 2 ? atol(argv[2]) : 0;
        struct timespec t;
        t.tv_sec = ms / 1000;
        t.tv_nsec = (ms % 1000) * 1000000L;
        touch_pages(3000);
        nanosleep(&t, NULL);
        touch_pages(1000);
        return 0;
    }
    touch_pages(3000);
    if (strcmp(mode, "none") == 0) {
        touch_pages(1000);
    } else if (strcmp(mode, "twice") == 0) {
        perfgauge_marker_start();
        touch_pages(500);
        perfgauge_marker_stop();
        perfgauge_marker_start();
        touch_pages(500);
        perfgauge_marker_stop();
    } else {
        perfgauge_marker_start();
        touch_pages(1000);
        perfgauge_marker_stop();
    }
    touch_pages(3000);
    return 0;
}
