#include "doctor/options.hpp"

#include "common/option_parsing.hpp"

namespace perfgauge::cli {

std::optional<DoctorRequest> parse_doctor_request(const std::vector<std::string>& args) {
    po::options_description options(
        "usage: perfgauge doctor [--brief]\n\n"
        "Reports whether this machine can count hardware and software events, and why not,\n"
        "with a one-line fix where there is one: what perf_event_open allows this process\n"
        "(found by trying, not from perf_event_paranoid alone), whether libpfm4 knows this\n"
        "CPU's own events, whether simulation (valgrind) is available; then what makes\n"
        "timings unreliable here, including the gaps in a thread's time that it cannot see\n"
        "(it spins on the clock for 50 ms: 'interruptions').\n"
        "Exit status 1 when not even software events can be counted.\n\noptions");
    options.add_options()("help,h", "show this help")(
        "brief",
        "one line of at most 100 columns per check: its first clause, no fix (what "
        "scripts/quickstart.sh shows; the full report has every detail)");
    const auto parsed = parse_command_line(args, options);
    if (!parsed)
        return std::nullopt;
    DoctorRequest request;
    request.brief = parsed->count("brief") > 0;
    return request;
}

}  // namespace perfgauge::cli
