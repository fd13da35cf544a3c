// Pattern helpers of the OTTL functions: Go-style replacement templates ($1, ${name}, $$) over RE2
// matches, and filepath.Match-style globs compiled to RE2.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/attributes/named_regex.h"

namespace proflow::ottl {

// Replaces every match of `re` in `text`; `replacement(expanded)` turns the template expanded for
// one match into its final text. Returns whether anything matched.
bool replaceAll(const re2::RE2& re, std::string_view text, std::string_view tmpl,
                const std::function<std::string(std::string)>& finish, std::string* out);

// `*` (any run of characters but '/'), `?` (one such character), `[...]` / `[^...]` classes and `\`
// escapes, matching the whole text. nullptr with `error` set when malformed.
attributes::Regex compileGlob(std::string_view glob, std::string* error);

}  // namespace proflow::ottl
