#include "perfgauge/harness/request_json.hpp"

#include <utility>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "perfgauge/harness/json_reader.hpp"
#include "perfgauge/harness/result_file.hpp"

namespace perfgauge::harness {

namespace {

using nlohmann::json;

template <class T>
json optional_json(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

template <class T>
std::optional<T> optional_from(const json& j) {
    return j.is_null() ? std::nullopt : std::optional<T>(j.get<T>());
}

// Names through the workloads' own spellings, so that the text reads as the options do.
template <class T, class Name>
json names_json(const std::vector<T>& values, Name name) {
    json out = json::array();
    for (const auto& v : values)
        out.push_back(std::string(name(v)));
    return out;
}

template <class T, class Parse>
std::vector<T> names_from(const json& j, Parse parse, const char* what) {
    std::vector<T> out;
    for (const auto& name : j) {
        const auto value = parse(name.get<std::string>());
        if (!value)
            throw RequestError(fmt::format("unknown {} '{}'", what, name.get<std::string>()));
        out.push_back(*value);
    }
    return out;
}

json saved_json(const SavedResult& saved) {
    static const char* where[] = {"new_file", "nowhere", "path"};
    return {{"where", where[static_cast<int>(saved.where)]}, {"path", saved.path.string()}};
}

SavedResult saved_from(const json& j) {
    const std::string where = j.at("where").get<std::string>();
    SavedResult out;
    out.where = where == "path"      ? SavedResult::Where::path
                : where == "nowhere" ? SavedResult::Where::nowhere
                                     : SavedResult::Where::new_file;
    out.path = j.at("path").get<std::string>();
    return out;
}

json selection_json(const SuiteSelection& s) {
    return {{"workloads", s.workloads},
            {"variants", s.variants},
            {"distributions", names_json(s.distributions, workloads::distribution_name)},
            {"shapes", names_json(s.shapes, workloads::shape_name)},
            {"caches", names_json(s.caches, workloads::cache_state_name)},
            {"sizes", s.sizes},
            {"l1d", optional_json(s.l1d)},
            {"l2", optional_json(s.l2)},
            {"l3", optional_json(s.l3)},
            {"data_seed", s.data_seed}};
}

SuiteSelection selection_from(const json& j) {
    SuiteSelection s;
    s.workloads = j.at("workloads").get<std::vector<std::string>>();
    s.variants = j.at("variants").get<std::vector<std::string>>();
    s.distributions = names_from<workloads::Distribution>(
        j.at("distributions"), workloads::parse_distribution, "distribution");
    s.shapes = names_from<workloads::Shape>(j.at("shapes"), workloads::parse_shape, "shape");
    s.caches = names_from<workloads::CacheState>(j.at("caches"), workloads::parse_cache_state,
                                                 "cache state");
    s.sizes = j.at("sizes").get<std::vector<std::uint64_t>>();
    s.l1d = optional_from<std::uint64_t>(j.at("l1d"));
    s.l2 = optional_from<std::uint64_t>(j.at("l2"));
    s.l3 = optional_from<std::uint64_t>(j.at("l3"));
    s.data_seed = j.at("data_seed").get<std::uint64_t>();
    return s;
}

json against_json(const std::optional<AgainstRequest>& a) {
    if (!a)
        return nullptr;
    return {{"other", a->other.string()},
            {"pairs", a->pairs},
            {"max_pairs", a->max_pairs},
            {"pair_precision_percent", a->pair_precision_percent},
            {"other_json", saved_json(a->other_json)}};
}

std::optional<AgainstRequest> against_from(const json& j) {
    if (j.is_null())
        return std::nullopt;
    AgainstRequest a;
    a.other = j.at("other").get<std::string>();
    a.pairs = j.at("pairs").get<std::size_t>();
    a.max_pairs = j.at("max_pairs").get<std::size_t>();
    a.pair_precision_percent = j.at("pair_precision_percent").get<double>();
    a.other_json = saved_from(j.at("other_json"));
    return a;
}

json measuring_json(const MeasuringChild* c) {
    if (c == nullptr)
        return nullptr;
    json j = {{"index", c->index}, {"count", c->count}, {"result_path", c->result_path.string()}};
    if (!c->checks_decoders)
        j["checks_decoders"] = false;
    return j;
}

std::optional<MeasuringChild> measuring_from(const json& j) {
    if (j.is_null())
        return std::nullopt;
    return MeasuringChild{j.at("index").get<std::size_t>(), j.at("count").get<std::size_t>(),
                          j.at("result_path").get<std::string>(), j.value("checks_decoders", true)};
}

// The child's role: the simulation child (where its manifest goes) or a measuring process
// with a place among them, never both.
ProcessRole role_from(const json& j) {
    const auto measuring = measuring_from(j.at("measuring_child"));
    const auto simulation = optional_from<std::string>(j.at("sim_child_manifest"));
    if (simulation && measuring)
        throw RequestError("a measuring process's request for the simulation");
    if (simulation)
        return SimulationChild{*simulation};
    if (!measuring || measuring->index >= measuring->count)
        throw RequestError("a request for no measuring process");
    return *measuring;
}
// What the request says about measuring: events, backend, rounds, times, scheduling.
void read_measuring(const json& j, RunRequest& r) {
    r.events = j.at("events").get<std::string>();
    r.backend = parse_backend(j.at("backend").get<std::string>());
    r.repetitions = j.at("repetitions").get<std::size_t>();
    r.precision_percent = j.at("precision_percent").get<double>();
    r.max_time_s = j.at("max_time_s").get<double>();
    r.min_time_s = j.at("min_time_s").get<double>();
    r.warmup_s = j.at("warmup_s").get<double>();
    r.processes = j.at("processes").get<std::size_t>();
    r.seed = optional_from<std::uint64_t>(j.at("seed"));
    r.interleave = j.at("interleave").get<bool>();
    r.pin_cpu = optional_from<int>(j.at("pin_cpu"));
    r.fifo = j.at("fifo").get<bool>();
    r.mlock = j.at("mlock").get<bool>();
    r.quiet = j.at("quiet").get<bool>();
}

// What the request says about outputs and the simulation.
void read_outputs(const json& j, RunRequest& r) {
    r.format = parse_output_format(j.at("format").get<std::string>());
    r.show_answer = j.at("show_answer").get<bool>();
    r.output = j.at("output").get<std::string>();
    r.json = saved_from(j.at("json"));
    r.sim_items = j.at("sim_items").get<std::uint64_t>();
    r.sim_jobs = j.at("sim_jobs").get<unsigned>();
    r.against = against_from(j.at("against"));
}

}  // namespace

std::string child_request_to_json(const ChildRequest& child, std::string_view version) {
    const RunRequest& r = child.run;
    const SimulationChild* simulation = child.simulation();
    // The role sits beside the run's fields, as in the first format that had no role of its
    // own: a build of that format reads it.
    const json j = {
        {"perfgauge_request", kRunRequestFormat},
        {"perfgauge_version", std::string(version)},
        {"selection", selection_json(r.selection)},
        {"notes", r.notes},
        {"default_suite", r.default_suite},
        {"events", r.events},
        {"backend", backend_name(r.backend)},
        {"repetitions", r.repetitions},
        {"precision_percent", r.precision_percent},
        {"max_time_s", r.max_time_s},
        {"min_time_s", r.min_time_s},
        {"warmup_s", r.warmup_s},
        {"processes", r.processes},
        {"seed", optional_json(r.seed)},
        {"interleave", r.interleave},
        {"pin_cpu", optional_json(r.pin_cpu)},
        {"fifo", r.fifo},
        {"mlock", r.mlock},
        {"quiet", r.quiet},
        {"format", output_format_name(r.format)},
        {"show_answer", r.show_answer},
        {"output", r.output.string()},
        {"json", saved_json(r.json)},
        {"sim_items", r.sim_items},
        {"sim_jobs", r.sim_jobs},
        {"against", against_json(r.against)},
        {"sim_child_manifest", simulation ? json(simulation->manifest.string()) : json(nullptr)},
        {"measuring_child", measuring_json(child.measuring())}};
    // Strict: a text that is not UTF-8 (a path under such a TMPDIR) would not arrive as it was.
    try {
        return j.dump();
    } catch (const json::exception& e) {
        throw RequestError(
            fmt::format("cannot hand the request to a measuring process: {}", e.what()));
    }
}

ChildRequest child_request_from_json(std::string_view text, std::string_view version) {
    json j;
    try {
        j = parse_json_bounded(text, "the request");
    } catch (const json::exception& e) {
        throw RequestError(fmt::format("not a perfgauge request: {}", e.what()));
    } catch (const ResultFileError& e) {  // nested too deeply
        throw RequestError(fmt::format("not a perfgauge request: {}", e.what()));
    }
    if (!j.is_object() || !j.contains("perfgauge_request"))
        throw RequestError("not a perfgauge request (no perfgauge_request format)");
    const json& format = j["perfgauge_request"];
    if (!format.is_number_integer() || format.get<int>() != kRunRequestFormat) {
        throw RequestError(fmt::format(
            "the request comes from perfgauge {} (request format {}), and this perfgauge {} "
            "reads format {}: a run's measuring processes must be perfgauge builds that share "
            "the request format (with --against, build the other one from a commit that has "
            "this format)",
            j.value("perfgauge_version", std::string("?")), format.dump(), version,
            kRunRequestFormat));
    }
    try {
        RunRequest r;
        r.selection = selection_from(j.at("selection"));
        r.notes = j.at("notes").get<std::vector<std::string>>();
        r.default_suite = j.at("default_suite").get<bool>();
        read_measuring(j, r);
        read_outputs(j, r);
        return {std::move(r), role_from(j)};
    } catch (const json::exception& e) {
        throw RequestError(fmt::format("a malformed perfgauge request: {}", e.what()));
    } catch (const std::invalid_argument& e) {
        throw RequestError(fmt::format("a malformed perfgauge request: {}", e.what()));
    }
}

std::vector<std::string> child_argv(const std::string& executable, const ChildRequest& request,
                                    std::string_view version) {
    return {executable, "run", "--internal-request=" + child_request_to_json(request, version)};
}

}  // namespace perfgauge::harness
