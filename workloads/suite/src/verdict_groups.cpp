#include <map>
#include <string>
#include <tuple>

#include "perfgauge/workloads/suite.hpp"

namespace perfgauge::workloads {

namespace {

std::string param_of(const harness::Benchmark& b, const std::string& key) {
    for (const auto& [k, v] : b.params) {
        if (k == key)
            return v;
    }
    return "";
}

}  // namespace

std::vector<harness::VerdictGroup> verdict_groups(
    const std::vector<harness::Benchmark>& benchmarks) {
    // What the answer compares (harness/results answer.cpp): end-on-end decoders at the same
    // distribution, cache state and size, against branchy where it ran, else the first decoder.
    using Key = std::tuple<std::string, std::string, std::string>;  // dist, cache, size
    const auto key_of = [](const harness::Benchmark& b) {
        return Key{param_of(b, "dist"), param_of(b, "cache"), param_of(b, "size_bytes")};
    };
    std::map<Key, std::vector<std::size_t>> decoders, memcpys;
    bool branchy = false;
    for (std::size_t i = 0; i < benchmarks.size(); ++i) {
        const auto& b = benchmarks[i];
        const std::string workload = param_of(b, "workload");
        if (workload == "varint" && param_of(b, "shape") == "end-on-end") {
            decoders[key_of(b)].push_back(i);
            branchy = branchy || param_of(b, "variant") == "branchy";
        } else if (workload == "memcpy") {
            memcpys[key_of(b)].push_back(i);
        }
    }
    std::vector<harness::VerdictGroup> groups;
    for (const auto& [key, members] : decoders) {
        if (members.size() < 2)
            continue;  // nothing to compare: precision alone decides
        harness::VerdictGroup g;
        g.baseline = members.front();
        for (const std::size_t m : members) {
            if (branchy && param_of(benchmarks[m], "variant") == "branchy")
                g.baseline = m;
        }
        for (const std::size_t m : members) {
            if (m != g.baseline)
                g.contenders.push_back(m);
        }
        if (const auto it = memcpys.find(key); it != memcpys.end())
            g.riders = it->second;
        groups.push_back(std::move(g));
    }
    return groups;
}

}  // namespace perfgauge::workloads
