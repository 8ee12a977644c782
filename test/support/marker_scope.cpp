// The C++ side of perfgauge/marker.h for `stat --markers` tests: 2000 pages touched unmarked,
// then 1000 touched by another thread inside a perfgauge::MarkedScope (threads inherit the
// counters, so they count), then 2000 more unmarked.
#include <perfgauge/marker.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

void touch_pages(long pages) {
    const long page = ::sysconf(_SC_PAGESIZE);
    void* map = ::mmap(nullptr, static_cast<std::size_t>(pages * page), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        std::perror("mmap");
        std::exit(1);
    }
    auto* p = static_cast<volatile char*>(map);  // volatile: every write happens
    for (long i = 0; i < pages; ++i)
        p[i * page] = static_cast<char>(i);
}

}  // namespace

int main() {
    touch_pages(2000);
    {
        const perfgauge::MarkedScope marked;
        std::thread worker([] { touch_pages(1000); });
        worker.join();
    }
    touch_pages(2000);
    return 0;
}
