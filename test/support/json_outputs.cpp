#include "json_outputs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string_view>
#include <utility>

namespace perfgauge::test {

namespace {

bool asks_for_json(const std::vector<std::string>& argv) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        if (argv[i] == "--")  // a measured command's own arguments follow
            return false;
        if ((argv[i] == "--format" && i + 1 < argv.size() && argv[i + 1] == "json") ||
            argv[i] == "--format=json")
            return true;
    }
    return false;
}

// The value of an option given as "--name VALUE" or "--name=VALUE", before any "--".
void add_values(const std::vector<std::string>& argv, std::string_view name,
                std::vector<std::string>& out) {
    for (std::size_t i = 0; i < argv.size() && argv[i] != "--"; ++i) {
        if (argv[i] == name && i + 1 < argv.size())
            out.push_back(argv[i + 1]);
        else if (argv[i].size() > name.size() && argv[i].starts_with(name) &&
                 argv[i][name.size()] == '=')
            out.push_back(argv[i].substr(name.size() + 1));
    }
}

// NAME.json (from the file `from_or_empty`, or `content`; none when `label` is empty: the
// command wrote no JSON, which the validator counts) and NAME.cmd, the command line.
void copy_with_command(const std::filesystem::path& from_or_empty, const std::string& content,
                       const std::string& label, const std::vector<std::string>& argv,
                       const std::filesystem::path& dir) {
    static std::atomic<unsigned> serial{0};
    const std::string stem = std::to_string(::getpid()) + "-" + std::to_string(serial++) + "-" +
                             (label.empty() ? "none" : label);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (label.empty()) {
        // only the command line
    } else if (from_or_empty.empty()) {
        std::ofstream(dir / (stem + ".json"), std::ios::binary) << content;
    } else {
        std::filesystem::copy_file(from_or_empty, dir / (stem + ".json"),
                                   std::filesystem::copy_options::overwrite_existing, ec);
        if (ec)
            return;
    }
    std::ofstream command(dir / (stem + ".cmd"));
    for (const auto& a : argv)
        command << a << '\n';
}

}  // namespace

std::vector<std::string> json_output_paths(const std::vector<std::string>& argv) {
    std::vector<std::string> paths;
    add_values(argv, "--json", paths);
    add_values(argv, "--against-json", paths);
    if (asks_for_json(argv)) {
        add_values(argv, "-o", paths);
        add_values(argv, "--output", paths);
    }
    std::erase_if(paths, [](const std::string& p) { return p == "-" || p.starts_with("/dev/"); });
    return paths;
}

bool json_on_stdout(const std::vector<std::string>& argv) {
    std::vector<std::string> outputs;
    add_values(argv, "-o", outputs);
    add_values(argv, "--output", outputs);
    const bool to_stdout = outputs.empty() || outputs.back() == "-";
    return asks_for_json(argv) && to_stdout;
}

namespace {

std::string identity_of(const std::filesystem::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return "";
    return std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
           std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

}  // namespace

JsonOutputs::JsonOutputs(std::vector<std::string> argv, std::filesystem::path working_directory)
    : argv_(std::move(argv)) {
    const char* dir = std::getenv(kJsonOutputsDirVariable);
    if (dir == nullptr || *dir == '\0')
        return;
    for (const auto& path : json_output_paths(argv_)) {
        const std::filesystem::path file =
            working_directory.empty() ? std::filesystem::path(path) : working_directory / path;
        before_.push_back({file, identity_of(file)});
    }
}

void JsonOutputs::collect(const std::string& out, const std::string& stdout_file) const {
    const char* dir = std::getenv(kJsonOutputsDirVariable);
    if (dir == nullptr || *dir == '\0')
        return;
    bool wrote = false;
    for (const auto& [file, identity] : before_) {
        if (!stdout_file.empty() && file == std::filesystem::path(stdout_file))
            continue;
        const std::string now = identity_of(file);
        if (!now.empty() && now != identity) {
            copy_with_command(file, "", file.filename().string(), argv_, dir);
            wrote = true;
        }
    }
    if (json_on_stdout(argv_) && !out.empty()) {
        copy_with_command({}, out, "stdout", argv_, dir);
        wrote = true;
    }
    if (!wrote && (!before_.empty() || json_on_stdout(argv_)))
        copy_with_command({}, "", "", argv_, dir);  // asked for JSON, wrote none
}

}  // namespace perfgauge::test
