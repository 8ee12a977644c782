#include "libpfm.hpp"

#include <perfmon/pfmlib_perf_event.h>

#include <cstring>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

namespace perfgauge::pmu::libpfm {

namespace {

pfm_pmu_info_t pmu_info(pfm_pmu_t pmu) {
    pfm_pmu_info_t info;
    std::memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (pfm_get_pmu_info(pmu, &info) != PFM_SUCCESS)
        info.is_present = 0;
    return info;
}

bool event_info(int index, pfm_event_info_t& info) {
    std::memset(&info, 0, sizeof info);
    info.size = sizeof info;
    return pfm_get_event_info(index, PFM_OS_PERF_EVENT_EXT, &info) == PFM_SUCCESS;
}

}  // namespace

void ensure_initialized() {
    static std::once_flag once;
    static int status = PFM_SUCCESS;
    std::call_once(once, [] { status = pfm_initialize(); });
    if (status != PFM_SUCCESS) {
        throw std::runtime_error(
            fmt::format("libpfm4 failed to initialise: {}", pfm_strerror(status)));
    }
}

Encoding encode(const std::string& name, bool user, bool kernel) {
    ensure_initialized();
    Encoding result;
    pfm_perf_encode_arg_t arg;
    std::memset(&arg, 0, sizeof arg);
    arg.size = sizeof arg;
    arg.attr = &result.attr;
    char* fstr = nullptr;
    arg.fstr = &fstr;
    const int plm = (user ? PFM_PLM3 : 0) | (kernel ? PFM_PLM0 : 0);
    result.status = pfm_get_os_event_encoding(name.c_str(), plm, PFM_OS_PERF_EVENT_EXT, &arg);
    if (fstr != nullptr) {
        result.fstr = fstr;
        std::free(fstr);  // allocated by libpfm4 with malloc
    }
    if (result.status == PFM_SUCCESS) {
        pfm_event_info_t info;
        if (event_info(arg.idx, info))
            result.pmu_name = pmu_info(info.pmu).name;
        result.attr.size = sizeof(perf_event_attr);
    }
    return result;
}

std::string error_text(int status) {
    return pfm_strerror(status);
}

const std::vector<PfmEvent>& present_events() {
    static const std::vector<PfmEvent> events = [] {
        ensure_initialized();
        std::vector<PfmEvent> out;
        for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; ++p) {
            const auto info = pmu_info(static_cast<pfm_pmu_t>(p));
            if (!info.is_present)
                continue;
            for (int i = info.first_event; i != -1; i = pfm_get_event_next(i)) {
                pfm_event_info_t ev;
                if (!event_info(i, ev))
                    continue;
                out.push_back({info.name, ev.name, ev.desc ? ev.desc : "",
                               ev.equiv != nullptr && ev.equiv[0] != '\0'});
            }
        }
        return out;
    }();
    return events;
}

std::vector<std::string> present_pmus() {
    ensure_initialized();
    std::vector<std::string> out;
    for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; ++p) {
        const auto info = pmu_info(static_cast<pfm_pmu_t>(p));
        if (info.is_present)
            out.emplace_back(info.name);
    }
    return out;
}

std::vector<std::string> unit_mask_names(const std::string& name) {
    ensure_initialized();
    // pfm_find_event wants the event without its attributes.
    const std::size_t pmu_sep = name.find("::");
    const std::size_t attr_sep = name.find(':', pmu_sep == std::string::npos ? 0 : pmu_sep + 2);
    const std::string base = name.substr(0, attr_sep);
    const int index = pfm_find_event(base.c_str());
    std::vector<std::string> out;
    pfm_event_info_t info;
    if (index < 0 || !event_info(index, info))
        return out;
    for (int a = 0; a < info.nattrs; ++a) {
        pfm_event_attr_info_t attr;
        std::memset(&attr, 0, sizeof attr);
        attr.size = sizeof attr;
        if (pfm_get_event_attr_info(index, a, PFM_OS_PERF_EVENT_EXT, &attr) != PFM_SUCCESS) {
            continue;
        }
        if (attr.type != PFM_ATTR_UMASK)
            continue;
        out.push_back(std::string(attr.name) + (attr.is_dfl ? " (default)" : ""));
    }
    return out;
}

}  // namespace perfgauge::pmu::libpfm
