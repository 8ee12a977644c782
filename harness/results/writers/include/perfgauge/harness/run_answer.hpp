// The one-screen answer of a run that measured several varint decoders (answer.hpp, built by
// build_answer), rendered: plain text and Markdown, the ratio as people say it and the caveat
// where simulated misses and the measured time disagree. Pure: reads nothing from the machine.
#pragma once

#include <string>

#include "perfgauge/harness/answer.hpp"

namespace perfgauge::harness {

/// "3.70x faster", "1.20x slower": how people say a ratio of times (contender / baseline).
std::string speak_ratio(double time_ratio);

/// The caveat with its reason, said once per command wherever simulated misses and the time
/// disagree; `where` (" (bmi2 hot L1 against branchy)") follows its first words.
std::string simulation_caveat_text(const std::string& where = "");

/// Where the answer's rows disagree, as simulation_caveat_text's one line; "" when nowhere.
/// What the table and `plot` say under a run's simulated counts.
std::string simulation_caveat(const Answer& answer);

/// Plain text, at most 100 columns, a row per band and decoder (a band's decoders together),
/// then the legend and notes once, what was not counted and how many warnings are left out, and
/// the command that shows every entry of `saved_result` (the JSON result's path; "": a
/// placeholder); "" when the answer has no row.
std::string render_answer(const Answer& answer, const std::string& saved_result = "");

/// The same as a Markdown section (heading, table, notes); "" when the answer has no row.
std::string render_answer_markdown(const Answer& answer);

}  // namespace perfgauge::harness
