// perfgauge list: the workloads, varint variants (and whether they run here), data
// distributions, shapes, cache states and the default size sweep on this machine.
#include <iostream>

#include <fmt/format.h>

#include "common/cli_common.hpp"
#include "common/option_parsing.hpp"
#include "perfgauge/harness/system_info.hpp"
#include "perfgauge/harness/text_table.hpp"
#include "perfgauge/workloads/suite.hpp"
#include "perfgauge/workloads/variant_availability.hpp"
#include "registry.hpp"

namespace perfgauge::cli {

int list_command(const std::vector<std::string>& args) {
    if (printed_help(
            args,
            "usage: perfgauge list\n\nWhat perfgauge run can run here: workloads, varint variants "
            "(with why one cannot run on this CPU), distributions, shapes, cache states, and the "
            "default working-set sweep for this machine's caches.\n\noptions"))
        return kExitOk;
    const auto system = harness::collect_system_info();
    fmt::print(
        "workloads: varint (decode varint32, protobuf wire format), memcpy (speed of "
        "light: copies the same bytes)\n\nvarint variants:\n");
    harness::TextTable table({"VARIANT", "HERE", "DESCRIPTION"},
                             {harness::TextTable::Align::left, harness::TextTable::Align::left,
                              harness::TextTable::Align::left});
    std::vector<std::string> remarks;
    for (const auto& v : workloads::varint_variants()) {
        const auto why = workloads::unavailable_reason(v, system.cpu);
        const auto note = workloads::caveat(v, system.cpu);
        table.add_row({std::string(v.name),
                       why.empty() ? (note.empty() ? "runs" : "runs (!)") : "unavailable",
                       std::string(v.description)});
        if (!why.empty())
            remarks.push_back(why);
        if (!note.empty())
            remarks.push_back(note);
    }
    fmt::print("{}", table.render());
    for (const auto& r : remarks)
        fmt::print("  {}\n", r);

    fmt::print("\ndistributions:");
    for (const auto d : workloads::all_distributions())
        fmt::print(" {}", workloads::distribution_name(d));
    fmt::print(
        "\nshapes: end-on-end (buffer parsed in sequence), one-shot (one varint again and "
        "again)\ncache states: hot (same buffer), cold (rotate over 2x LLC, shuffled), "
        "flush (clflush before each iteration, paused)\n");

    const auto caches = workloads::cache_sizes_from(system.caches);
    fmt::print("\ncaches (sysfs; override with --l1d/--l2/--l3): L1d {}, L2 {}, L3 {}\n",
               harness::format_bytes(caches.l1d), harness::format_bytes(caches.l2),
               harness::format_bytes(caches.l3));
    std::vector<std::string> labels;
    for (const auto s : workloads::sweep_sizes(caches, 3))
        labels.push_back(workloads::size_label(s));
    fmt::print("default sweep (log-uniform; the first point is one varint): {}\n",
               fmt::join(labels, " "));
    return kExitOk;
}

}  // namespace perfgauge::cli
