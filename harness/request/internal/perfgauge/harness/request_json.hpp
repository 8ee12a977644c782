// A RunRequest as JSON: how perfgauge hands a measuring child (--processes, --against) exactly
// what to measure, instead of rebuilding a command line from it. One writer, one reader; the
// text carries a format number, and a reader of another format refuses it by name.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "perfgauge/harness/run_request.hpp"

namespace perfgauge::harness {

/// The request format this build writes and reads: raised whenever RunRequest's fields change.
inline constexpr int kRunRequestFormat = 1;

/// A request text that cannot be read: not JSON, a field missing or mistyped, or another
/// format (what() names both builds' versions and formats).
class RequestError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `request` as one line of JSON, stamped with kRunRequestFormat and `version` (the writing
/// perfgauge's, for messages).
std::string run_request_to_json(const RunRequest& request, std::string_view version);

/// The request `text` holds; RequestError when it cannot be read or is of another format
/// (`version` is this perfgauge's, for the message).
RunRequest run_request_from_json(std::string_view text, std::string_view version);

}  // namespace perfgauge::harness
