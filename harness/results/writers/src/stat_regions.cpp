#include "stat_regions.hpp"

#include <fmt/format.h>

#include "perfgauge/harness/text_table.hpp"

namespace perfgauge::harness {

nlohmann::json regions_json(const StatResult& r) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& region : r.regions) {
        nlohmann::json counters = nlohmann::json::object();
        for (const auto& [event, total] : region.counters)
            counters[event] = total;
        out.push_back({{"name", region.name},
                       {"count", region.count},
                       {"source", "sim"},
                       {"counters", counters}});
    }
    return out;
}

std::string regions_text(const StatResult& r, bool markdown) {
    if (r.regions.empty())
        return "";
    std::vector<std::string> headers = {"REGION", "COUNT"};
    for (const auto& [event, total] : r.regions.front().counters)
        headers.push_back(event);
    std::vector<TextTable::Align> align(headers.size(), TextTable::Align::right);
    align.front() = TextTable::Align::left;
    TextTable table(headers, align);
    for (const auto& region : r.regions) {
        std::vector<std::string> row = {region.name, std::to_string(region.count)};
        for (const auto& [event, total] : region.counters)
            row.push_back(fmt::format("{:.0f}", total));
        table.add_row(std::move(row));
    }
    const char* title =
        "Session regions, simulated under callgrind [sim] (totals over every entry, nested "
        "regions included)";
    if (markdown)
        return fmt::format("\n{}:\n\n{}", title, table.render_markdown());
    return fmt::format("\n  {}:\n\n{}", title, table.render());
}

}  // namespace perfgauge::harness
