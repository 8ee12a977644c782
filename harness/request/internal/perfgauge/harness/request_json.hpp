// A child's request as JSON: how perfgauge hands a measuring child (--processes, --against's
// pairs, of this build or another) and its simulation child exactly what to do, instead of
// rebuilding a command line from the options. One writer, one reader, one argv (child_argv);
// the text carries a format number, and a reader of another format refuses it by name.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "perfgauge/harness/child_request.hpp"

namespace perfgauge::harness {

/// The request format this build writes and reads: raised whenever RunRequest's or a role's
/// fields change.
inline constexpr int kRunRequestFormat = 1;

/// A request text that cannot be read: not JSON, a field missing or mistyped, or another
/// format (what() names both builds' versions and formats).
class RequestError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `request` as one line of JSON, stamped with kRunRequestFormat and `version` (the writing
/// perfgauge's, for messages).
std::string child_request_to_json(const ChildRequest& request, std::string_view version);

/// The request `text` holds; RequestError when it cannot be read, is of another format
/// (`version` is this perfgauge's, for the message), or gives no role or both.
ChildRequest child_request_from_json(std::string_view text, std::string_view version);

/// The command that starts `executable` (this perfgauge, or --against's other build) as the
/// child `request` describes: `run --internal-request=JSON`. The one place a child's command
/// line is made.
std::vector<std::string> child_argv(const std::string& executable, const ChildRequest& request,
                                    std::string_view version);

}  // namespace perfgauge::harness
