#include "perfgauge/pmu/event_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

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
                   const std::string& description, const std::string& typed_name) {
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
            if (options.try_open) {
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
            add(name, e.pmu, EventKind::hardware, e.description, name);
        } else {
            add(e.name, e.pmu, EventKind::pmu, e.description, e.pmu + "::" + e.name);
        }
    }
    if (options.tracepoints) {
        if (const auto tracefs = Tracefs::locate()) {
            for (const auto& name : tracefs->all_tracepoints()) {
                add(name, "tracepoint", EventKind::tracepoint, "", name);
            }
        }
    }
    return out;
}

}  // namespace perfgauge::pmu
