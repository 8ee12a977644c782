#include "perfgauge/pmu/pmu_format.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace perfgauge::pmu {

namespace fs = std::filesystem;

namespace {

constexpr unsigned kHighestBit = 63;

// Bits low..high inclusive, 0 <= low <= high <= 63.
std::uint64_t bit_span(unsigned low, unsigned high) {
    const std::uint64_t up_to_high = high == kHighestBit ? ~0ull : (1ull << (high + 1)) - 1;
    return up_to_high & ~((1ull << low) - 1);
}

std::optional<unsigned> parse_bit(std::string_view text) {
    if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) != 0;
        }))
        return std::nullopt;
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value > kHighestBit)
        return std::nullopt;
    return value;
}

// "config" -> 0, "config2" -> 2; nullopt for anything else.
std::optional<unsigned> parse_word(std::string_view text) {
    constexpr std::string_view kConfig = "config";
    if (text.substr(0, kConfig.size()) != kConfig)
        return std::nullopt;
    const std::string_view number = text.substr(kConfig.size());
    if (number.empty())
        return 0u;
    if (number.front() == '0')
        return std::nullopt;  // "config0" is not a word the kernel writes
    unsigned word = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), word);
    if (ec != std::errc() || end != number.data() + number.size())
        return std::nullopt;
    return word;
}

std::string word_name(unsigned word) {
    return word == 0 ? std::string("config") : fmt::format("config{}", word);
}

// The config words perf_event_attr has and perfgauge may set: config, config1, config2.
constexpr unsigned kCheckedWords = 3;

std::uint64_t word_value(const perf_event_attr& attr, unsigned word) {
    switch (word) {
        case 0:
            return attr.config;
        case 1:
            return attr.config1;
        default:
            return attr.config2;
    }
}

std::optional<std::string> read_small_file(const fs::path& path) {
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
        return std::nullopt;
    return text;
}

// A PMU's perf_event_attr.type, from its sysfs "type" file ("4\n").
std::optional<unsigned> read_type(const fs::path& pmu_directory) {
    const auto text = read_small_file(pmu_directory / "type");
    if (!text)
        return std::nullopt;
    unsigned type = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), type);
    if (ec != std::errc() || (end != text->data() + text->size() && *end != '\n'))
        return std::nullopt;
    return type;
}

bool by_word_then_lowest_bit(const FormatField& a, const FormatField& b) {
    return a.word != b.word ? a.word < b.word : std::countr_zero(a.mask) < std::countr_zero(b.mask);
}

// "event = config:0-15, long = config1:0": the fields as sysfs writes them, each once.
std::string fields_text(const std::vector<PmuFormat>& formats) {
    std::vector<FormatField> fields;
    for (const auto& format : formats)
        fields.insert(fields.end(), format.fields.begin(), format.fields.end());
    std::stable_sort(fields.begin(), fields.end(), by_word_then_lowest_bit);
    std::vector<std::string> parts;
    for (const auto& f : fields) {
        auto text = fmt::format("{} = {}:{}", f.name, word_name(f.word), bit_ranges_text(f.mask));
        if (std::find(parts.begin(), parts.end(), text) == parts.end())
            parts.push_back(std::move(text));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

FormatFieldParse parse_format_field(std::string name, std::string_view text) {
    auto fail = [&](const std::string& why) {
        return FormatFieldParse{
            std::nullopt, fmt::format("format '{}' ('{}'): {}", name, text.substr(0, 80), why)};
    };
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos)
        return fail("no ':' between the config word and its bits");
    const auto word = parse_word(text.substr(0, colon));
    if (!word)
        return fail("the word before ':' is not config, config1, config2, ...");
    std::uint64_t mask = 0;
    std::string_view bits = text.substr(colon + 1);
    if (bits.empty())
        return fail("no bits after ':'");
    while (true) {
        const std::size_t comma = bits.find(',');
        const std::string_view part = bits.substr(0, comma);
        const std::size_t dash = part.find('-');
        const auto low = parse_bit(part.substr(0, dash));
        const auto high = dash == std::string_view::npos ? low : parse_bit(part.substr(dash + 1));
        if (!low || !high)
            return fail(fmt::format("'{}' is not a bit 0-63 or a range LOW-HIGH of them", part));
        if (*low > *high)
            return fail(fmt::format("the range '{}' ends below its start", part));
        mask |= bit_span(*low, *high);
        if (comma == std::string_view::npos)
            break;
        bits.remove_prefix(comma + 1);
    }
    return {FormatField{std::move(name), *word, mask}, {}};
}

std::uint64_t PmuFormat::allowed(unsigned word) const {
    std::uint64_t mask = 0;
    for (const auto& f : fields) {
        if (f.word == word)
            mask |= f.mask;
    }
    return mask;
}

std::string bit_ranges_text(std::uint64_t mask) {
    if (mask == 0)
        return "none";
    std::vector<std::string> ranges;
    unsigned bit = 0;
    while (bit <= kHighestBit) {
        if ((mask >> bit & 1) == 0) {
            ++bit;
            continue;
        }
        const unsigned low = bit;
        while (bit < kHighestBit && (mask >> (bit + 1) & 1) != 0)
            ++bit;
        ranges.push_back(low == bit ? fmt::format("{}", low) : fmt::format("{}-{}", low, bit));
        ++bit;
    }
    return fmt::format("{}", fmt::join(ranges, ","));
}

namespace {

// x86's event-select register holds, beside the event, its USR (16), OS (17), INT (20) and EN
// (22) bits, which encodings copied from Intel's and AMD's manuals often set (r5300c0). The
// kernel sets them itself from the modifiers (exclude_user, exclude_kernel, ...) and its `cpu`
// format does not declare them: say what they are and what to write instead, since the kernel
// part they meant is :k here (perfgauge counts user space only by default).
std::string x86_control_bits_hint(const std::vector<PmuFormat>& formats, std::uint64_t config,
                                  std::uint64_t kept) {
    constexpr std::uint64_t kControlBits =
        (1ull << 16) | (1ull << 17) | (1ull << 20) | (1ull << 22);
    const bool x86_core = std::any_of(formats.begin(), formats.end(), [](const PmuFormat& f) {
        return f.pmu == "cpu" || f.pmu == "cpu_core" || f.pmu == "cpu_atom";
    });
    if (!x86_core || (config & kControlBits) == 0 || (config & kControlBits & kept) != 0)
        return "";
    return fmt::format(
        " (bits 16, 17, 20 and 22 are the event select's USR, OS, INT and EN, "
        "which the kernel sets itself from the modifiers: write r{:x}, and "
        "r{:x}:uk to count the kernel too)",
        kept, kept);
}

}  // namespace

std::optional<std::string> undeclared_config_bits(const std::string& event_text,
                                                  const perf_event_attr& attr,
                                                  const std::vector<PmuFormat>& formats) {
    if (formats.empty())
        return std::nullopt;
    std::vector<std::string> outside;
    std::array<std::uint64_t, kCheckedWords> kept{};
    for (unsigned word = 0; word < kCheckedWords; ++word) {
        std::uint64_t allowed = 0;
        for (const auto& format : formats)
            allowed |= format.allowed(word);
        const std::uint64_t value = word_value(attr, word);
        kept[word] = value & allowed;
        if ((value & ~allowed) != 0) {
            const auto undeclared = value & ~allowed;
            outside.push_back(fmt::format("{} {} {}", word_name(word),
                                          std::has_single_bit(undeclared) ? "bit" : "bits",
                                          bit_ranges_text(undeclared)));
        }
    }
    if (outside.empty())
        return std::nullopt;
    std::vector<std::string> pmus, directories;
    for (const auto& format : formats) {
        pmus.push_back(format.pmu);
        directories.push_back(format.directory.string());
    }
    const bool one = formats.size() == 1;
    return fmt::format(
        "{} sets {}, which {} {} {} not declare: {} ({}) {} {}. A kernel may drop undeclared "
        "bits without an error and count what the others encode (config {:#x}), so perfgauge "
        "refuses it: set only the declared bits{}",
        event_text, fmt::join(outside, " and "), one ? "the PMU" : "the PMUs",
        fmt::join(pmus, " and "), one ? "does" : "do", one ? "its format" : "their formats",
        fmt::join(directories, ", "), one ? "is" : "are", fields_text(formats), kept[0],
        x86_control_bits_hint(formats, word_value(attr, 0), kept[0]));
}

std::optional<PmuFormat> read_pmu_format(const fs::path& pmu_directory) {
    const fs::path directory = pmu_directory / "format";
    std::error_code ec;
    if (!fs::is_directory(directory, ec))
        return std::nullopt;
    PmuFormat format{pmu_directory.filename().string(), directory, {}};
    for (const auto& entry : fs::directory_iterator(directory, ec)) {
        const auto text = read_small_file(entry.path());
        if (!text)
            return std::nullopt;
        auto parsed = parse_format_field(entry.path().filename().string(), *text);
        if (!parsed.field)
            return std::nullopt;  // a syntax this reader does not know: nothing is known
        format.fields.push_back(*std::move(parsed.field));
    }
    if (ec || format.fields.empty())
        return std::nullopt;
    std::sort(format.fields.begin(), format.fields.end(), by_word_then_lowest_bit);
    return format;
}

std::vector<PmuFormat> raw_event_formats(const fs::path& devices) {
    std::set<fs::path> listing_cpus;
    std::optional<fs::path> raw_type;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(devices, ec)) {
        if (read_type(entry.path()) == PERF_TYPE_RAW)
            raw_type = entry.path();
        std::error_code exists_ec;
        if (fs::exists(entry.path() / "cpus", exists_ec))
            listing_cpus.insert(entry.path());
    }
    std::vector<PmuFormat> formats;
    for (const auto& pmu : raw_type ? std::set<fs::path>{*raw_type} : listing_cpus) {
        auto format = read_pmu_format(pmu);
        if (!format)
            return {};  // one of them unknown: whichever the kernel picks may accept the bits
        formats.push_back(*std::move(format));
    }
    return formats;
}

}  // namespace perfgauge::pmu
