// The structure Bencher Metric Format requires, checked with nlohmann::json:
//   {"<benchmark>": {"<measure>": {"value": v, "lower_value": lo, "upper_value": hi}}}
// Every benchmark an object of measures (at least one), every measure an object with numeric
// (finite) value, lower_value and upper_value and no other key, lower_value <= value <=
// upper_value.
#pragma once

#include <cmath>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace perfgauge::test {

/// "" when `bmf` is valid BMF as perfgauge writes it; otherwise the first problem, named.
inline std::string bmf_schema_problem(const nlohmann::json& bmf) {
    if (!bmf.is_object())
        return "the document is not an object";
    for (const auto& [benchmark, measures] : bmf.items()) {
        if (benchmark.empty())
            return "a benchmark has an empty name";
        if (!measures.is_object() || measures.empty())
            return benchmark + ": not a non-empty object of measures";
        for (const auto& [name, m] : measures.items()) {
            const std::string where = benchmark + " / " + name;
            if (!m.is_object())
                return where + ": not an object";
            static const std::set<std::string> keys = {"value", "lower_value", "upper_value"};
            for (const auto& [key, v] : m.items()) {
                if (!keys.count(key))
                    return where + ": unexpected key '" + key + "'";
            }
            for (const auto& key : keys) {
                if (!m.contains(key) || !m[key].is_number() || !std::isfinite(m[key].get<double>()))
                    return where + ": '" + key + "' missing or not a finite number";
            }
            const double value = m["value"], low = m["lower_value"], high = m["upper_value"];
            if (!(low <= value && value <= high))
                return where + ": not lower_value <= value <= upper_value (" + m.dump() + ")";
        }
    }
    return "";
}

}  // namespace perfgauge::test
