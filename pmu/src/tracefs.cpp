#include "perfgauge/pmu/tracefs.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace perfgauge::pmu {

namespace fs = std::filesystem;

Tracefs::Tracefs(fs::path root) : root_(std::move(root)) {}

std::optional<Tracefs> Tracefs::locate() {
    std::ifstream mounts("/proc/mounts");
    std::string line;
    std::optional<fs::path> debugfs_tracing;
    while (std::getline(mounts, line)) {
        std::istringstream fields(line);
        std::string device, mount_point, type;
        fields >> device >> mount_point >> type;
        std::error_code ec;
        if (type == "tracefs" && fs::is_directory(fs::path(mount_point) / "events", ec)) {
            return Tracefs(mount_point);
        }
        if (type == "debugfs" && fs::is_directory(fs::path(mount_point) / "tracing/events", ec)) {
            debugfs_tracing = fs::path(mount_point) / "tracing";
        }
    }
    if (debugfs_tracing)
        return Tracefs(*debugfs_tracing);
    return std::nullopt;
}

std::optional<std::uint64_t> Tracefs::tracepoint_id(const std::string& subsystem,
                                                    const std::string& event) const {
    if (subsystem.empty() || event.empty() || subsystem.find('/') != std::string::npos ||
        event.find('/') != std::string::npos || subsystem[0] == '.' || event[0] == '.') {
        return std::nullopt;
    }
    std::ifstream in(root_ / "events" / subsystem / event / "id");
    std::uint64_t id = 0;
    if (!(in >> id))
        return std::nullopt;
    return id;
}

bool Tracefs::has_subsystem(const std::string& subsystem) const {
    std::error_code ec;
    return !subsystem.empty() && subsystem.find('/') == std::string::npos &&
           fs::is_directory(root_ / "events" / subsystem, ec);
}

std::vector<std::string> Tracefs::events_of(const std::string& subsystem) const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root_ / "events" / subsystem, ec)) {
        if (entry.is_directory(ec))
            out.push_back(entry.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> Tracefs::all_tracepoints() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& subsystem : fs::directory_iterator(root_ / "events", ec)) {
        if (!subsystem.is_directory(ec))
            continue;
        const std::string name = subsystem.path().filename().string();
        for (const auto& event : events_of(name))
            out.push_back(name + ":" + event);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace perfgauge::pmu
