// What CounterSet keeps per opened group (its file descriptors, mapped pages, read buffer),
// shared by counter_set.cpp and flat_reads.cpp.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "perfgauge/pmu/counter_set.hpp"
#include "perfgauge/pmu/file_descriptor.hpp"

namespace perfgauge::pmu {

// RAII for one mmap'd perf_event_mmap_page.
class PageMapping {
  public:
    PageMapping() = default;
    explicit PageMapping(int fd) {
        void* p = ::mmap(nullptr, page_size(), PROT_READ, MAP_SHARED, fd, 0);
        if (p != MAP_FAILED)
            page_ = static_cast<perf_event_mmap_page*>(p);
    }
    PageMapping(PageMapping&& o) noexcept : page_(std::exchange(o.page_, nullptr)) {}
    PageMapping& operator=(PageMapping&& o) noexcept {
        if (this != &o) {
            unmap();
            page_ = std::exchange(o.page_, nullptr);
        }
        return *this;
    }
    ~PageMapping() { unmap(); }
    const volatile perf_event_mmap_page* get() const { return page_; }

  private:
    static std::size_t page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }
    void unmap() {
        if (page_ != nullptr)
            ::munmap(page_, page_size());
        page_ = nullptr;
    }
    perf_event_mmap_page* page_ = nullptr;
};

struct CounterSet::Group {
    std::vector<FileDescriptor> fds;  // leader first
    std::vector<PageMapping> pages;   // parallel to fds when mapped
    std::vector<std::size_t> slots;   // events_ index of each member
    mutable std::vector<std::uint64_t> buffer;
    mutable GroupReading reading;  // read_flat()'s read(), sized at opening: no allocation

    int leader() const { return fds.front().get(); }
    /// One read() of the group into `out` (sized), parsed.
    void read_syscall(GroupReading& out) const;
    /// Mapped with a PMU page that allows rdpmc: read() may skip the system call.
    bool rdpmc_capable() const {
        return !pages.empty() && pages.front().get() != nullptr &&
               pages.front().get()->cap_user_rdpmc;
    }
};

}  // namespace perfgauge::pmu
