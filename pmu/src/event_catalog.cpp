#include "perfgauge/pmu/event_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "extra_software_events.hpp"
#include "libpfm.hpp"
#include "perfgauge/pmu/event_resolver.hpp"
#include "perfgauge/pmu/perf_event.hpp"
#include "perfgauge/pmu/suggest.hpp"
#include "perfgauge/pmu/tracefs.hpp"

namespace perfgauge::pmu {

namespace {

bool matches(const CatalogEntry& e, const std::string& filter) {
    if (filter.empty())
        return true;
    const std::string needle = to_lower(filter);
    return to_lower(e.name).find(needle) != std::string::npos ||
           to_lower(e.pmu + "::" + e.name).find(needle) != std::string::npos;
}

// Probing the same encoding twice (aliases) tells nothing new; remember the answer.
class Prober {
  public:
    int probe(const perf_event_attr& attr) {
        const auto key = std::make_tuple(attr.type, attr.config, attr.config1, attr.config2,
                                         attr.exclude_kernel);
        auto it = cache_.find(key);
        if (it == cache_.end())
            it = cache_.emplace(key, probe_open(attr)).first;
        return it->second;
    }

  private:
    std::map<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t, unsigned>, int>
        cache_;
};

}  // namespace

std::vector<CatalogEntry> list_events(const CatalogOptions& options) {
    EventResolver resolver;
    Prober prober;
    std::vector<CatalogEntry> out;

    // `kind` stands until resolution (which knows better) succeeds.
    auto add = [&](const std::string& name, const std::string& pmu, EventKind kind,
                   const std::string& description, const std::string& typed_name, bool try_open) {
        CatalogEntry entry;
        entry.kind = kind;
        entry.name = name;
        entry.pmu = pmu;
        entry.description = description;
        if (!matches(entry, options.filter))
            return;
        try {
            EventTerm term;
            term.name = typed_name;
            const EventSpec spec = resolver.resolve(term);
            entry.kind = spec.kind;
            if (try_open) {
                entry.probed = true;
                entry.open_error = prober.probe(spec.attr);
            }
        } catch (const std::exception& e) {
            entry.encode_error = e.what();
        }
        out.push_back(std::move(entry));
    };

    for (const auto& e : libpfm::present_events()) {
        if (e.pmu == "perf_raw")
            continue;  // "r0000" is syntax, not an event
        if (e.pmu == "perf") {
            // libpfm4 lists each generic event under PERF_COUNT_* and under perf's short
            // aliases; users type the aliases.
            if (!e.is_alias)
                continue;
            const std::string name = perf_style_name(e.name);
            add(name, e.pmu, EventKind::hardware, e.description, name, options.try_open);
        } else {
            add(e.name, e.pmu, EventKind::pmu, e.description, e.pmu + "::" + e.name,
                options.try_open);
        }
    }
    // perf's software events libpfm4 does not list, unless a newer libpfm4 already did.
    for (const auto& e : extra_software_events()) {
        const bool listed = std::any_of(out.begin(), out.end(), [&](const CatalogEntry& c) {
            return c.pmu == "perf" && c.name == e.name;
        });
        if (!listed) {
            const std::string name(e.name);
            add(name, "perf", EventKind::software, std::string(e.description), name,
                options.try_open);
        }
    }
    if (options.tracepoints) {
        if (const auto tracefs = Tracefs::locate()) {
            const auto names = tracefs->all_tracepoints();
            const bool open_each = options.try_open && options.probe_each_tracepoint;
            for (std::size_t i = 0; i < names.size(); ++i) {
                add(names[i], "tracepoint", EventKind::tracepoint, "", names[i], open_each);
                if (options.tracepoint_progress)
                    options.tracepoint_progress(i + 1, names.size());
            }
        }
    }
    return out;
}

}  // namespace perfgauge::pmu
