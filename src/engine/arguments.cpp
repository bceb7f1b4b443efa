// Declared arguments of proof kinds: forms, the declarations' own rules, and the check of a request
// against them (include/proofline/engine/kind.hpp, "arguments").
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>

#include "proofline/engine/kind.hpp"

namespace proofline::engine {

namespace {

constexpr std::uint64_t kNoLimit = ~std::uint64_t{0};
constexpr std::uint64_t kMaxLog = 63;

std::string number(std::uint64_t x) { return x == kNoLimit ? std::string("2^64 - 1") : std::to_string(x); }

/// Digits only (no sign, blank, prefix or suffix), no wrap: the value, or nullopt.
std::optional<std::uint64_t> decimal(std::string_view s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  std::uint64_t x = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc{} || ptr != s.data() + s.size()) return std::nullopt;
  return x;
}

bool valid_name(std::string_view n) {
  if (n.empty() || n[0] < 'a' || n[0] > 'z') return false;
  return std::all_of(n.begin(), n.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

/// At most 64 characters of a value for a message.
std::string shown(std::string_view v) { return v.size() <= 64 ? std::string(v) : std::string(v.substr(0, 61)) + "..."; }

std::string list_names(const std::vector<ArgSpec>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : ", ") + a.name;
  return out.empty() ? "none" : out;
}

}  // namespace

std::string_view to_string(ArgType t) {
  switch (t) {
    case ArgType::String: return "string";
    case ArgType::File: return "file";
    case ArgType::Dir: return "dir";
    case ArgType::Int: return "int";
    case ArgType::Size: return "size";
    case ArgType::Bool: return "bool";
    case ArgType::Hex: return "hex";
  }
  return "string";
}

std::optional<ArgType> arg_type_from_string(std::string_view s) {
  for (ArgType t : {ArgType::String, ArgType::File, ArgType::Dir, ArgType::Int, ArgType::Size, ArgType::Bool,
                    ArgType::Hex}) {
    if (to_string(t) == s) return t;
  }
  return std::nullopt;
}

std::string describe_form(const ArgSpec& a) {
  switch (a.type) {
    case ArgType::String: return "text";
    case ArgType::File:
      return (a.payload ? "a file path on the prover's machine, or the file's bytes as the request payload"
                        : "a file path on the prover's machine") +
             (a.max == ~std::uint64_t{0} ? std::string() : ", at most " + number(a.max) + " bytes");
    case ArgType::Dir: return "a folder path on the prover's machine";
    case ArgType::Int: return "an integer " + number(a.min) + " … " + number(a.max);
    case ArgType::Size: {
      const std::uint64_t hi = std::min(a.max, kMaxLog);
      return "2^k or a power of two" + (a.min == 0 && hi == kMaxLog ? std::string() : ", k " + number(a.min) + " … " + number(hi));
    }
    case ArgType::Bool: return "0 or 1";
    case ArgType::Hex:
      return a.bytes == 0 ? std::string("hex digits") : std::to_string(2 * a.bytes) + " hex digits (" + std::to_string(a.bytes) + " bytes)";
  }
  return "text";
}

std::string check_value(const ArgSpec& a, std::string_view v) {
  bool ok = true;
  switch (a.type) {
    case ArgType::String: break;
    case ArgType::File:
    case ArgType::Dir: ok = !v.empty() && v.find('\0') == std::string_view::npos; break;
    case ArgType::Int: {
      const auto x = decimal(v);
      ok = x && *x >= a.min && *x <= a.max;
      break;
    }
    case ArgType::Size: {
      std::optional<std::uint64_t> k;
      if (v.rfind("2^", 0) == 0) {
        k = decimal(v.substr(2));
      } else if (const auto n = decimal(v); n && *n != 0 && (*n & (*n - 1)) == 0) {
        k = static_cast<std::uint64_t>(__builtin_ctzll(*n));
      }
      ok = k && *k >= a.min && *k <= std::min(a.max, kMaxLog);
      break;
    }
    case ArgType::Bool: ok = v == "0" || v == "1"; break;
    case ArgType::Hex:
      ok = !v.empty() && v.size() % 2 == 0 && v.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos &&
           (a.bytes == 0 || v.size() == 2 * a.bytes);
      break;
  }
  return ok ? std::string() : "expected " + describe_form(a);
}

void check_declarations(std::string_view kind, const std::vector<ArgSpec>& args) {
  const std::string k(kind);
  auto bad = [&](const std::string& why) { throw std::invalid_argument("kind '" + k + "' declares " + why); };
  std::set<std::string, std::less<>> names;
  std::size_t payloads = 0;
  for (const auto& a : args) {
    if (!valid_name(a.name)) bad("an argument named '" + a.name + "' (names are [a-z][a-z0-9_]*)");
    if (!names.insert(a.name).second) bad("the argument '" + a.name + "' twice");
    if ((a.payload || a.srs) && a.type != ArgType::File) bad("'" + a.name + "' as payload or srs, but it is not a file");
    payloads += a.payload ? 1 : 0;
    if (a.min > a.max) bad("'" + a.name + "' with min " + number(a.min) + " > max " + number(a.max));
  }
  if (payloads > 1) bad(std::to_string(payloads) + " payload arguments (at most one)");
  for (const auto& a : args) {
    for (const auto& n : a.needs) {
      if (n == a.name || names.count(n) == 0) bad("'" + a.name + "' needing '" + n + "', which it does not declare");
    }
  }
}

void check_arguments(std::string_view kind, const std::vector<ArgSpec>& args, const ProofRequest& r) {
  const std::string k(kind);
  auto find = [&](std::string_view name) -> const ArgSpec* {
    for (const auto& a : args) {
      if (a.name == name) return &a;
    }
    return nullptr;
  };
  auto given = [&](const std::string& name) {
    auto it = r.args.find(name);
    return it != r.args.end() && !it->second.empty();
  };
  for (const auto& [key, value] : r.args) {
    if (find(key) == nullptr) {
      throw std::invalid_argument("kind '" + k + "' has no argument '" + key + "' (its arguments: " + list_names(args) + ")");
    }
  }
  const auto payload_arg = std::find_if(args.begin(), args.end(), [](const ArgSpec& a) { return a.payload; });
  if (!r.payload.empty()) {
    if (payload_arg == args.end()) {
      throw std::invalid_argument("kind '" + k + "' takes no request payload (got " + std::to_string(r.payload.size()) +
                                  " bytes)");
    }
    if (given(payload_arg->name)) {
      throw std::invalid_argument("kind '" + k + "': both the argument '" + payload_arg->name +
                                  "' and the request payload (" + std::to_string(r.payload.size()) +
                                  " bytes) give its input; give one");
    }
  }
  for (const auto& [key, value] : r.args) {
    if (value.empty()) continue;
    const ArgSpec& a = *find(key);
    if (const std::string why = check_value(a, value); !why.empty()) {
      throw std::invalid_argument("kind '" + k + "': argument '" + key + "' = '" + shown(value) + "': " + why);
    }
  }
  for (const auto& a : args) {
    if (!a.required || given(a.name) || (a.payload && !r.payload.empty())) continue;
    throw std::invalid_argument("kind '" + k + "' needs the argument '" + a.name + "' (" +
                                (a.help.empty() ? describe_form(a) : a.help) + ")" +
                                (a.payload ? " or its bytes as the request payload" : ""));
  }
  for (const auto& a : args) {
    if (!given(a.name)) continue;
    for (const auto& n : a.needs) {
      if (!given(n)) throw std::invalid_argument("kind '" + k + "': argument '" + a.name + "' needs '" + n + "' too");
    }
  }
}

void check_srs_files(std::string_view kind, const std::vector<ArgSpec>& args, const ProofRequest& r) {
  for (const auto& a : args) {
    if (!a.srs) continue;
    auto it = r.args.find(a.name);
    if (it == r.args.end() || it->second.empty() || !groth16::is_verifying_key_file(it->second)) continue;
    std::error_code ec;
    throw ArgumentError("kind '" + std::string(kind) + "': argument '" + a.name + "' = '" + shown(it->second) +
                                "' is a verifying-key (.vk) file (" +
                                std::to_string(std::filesystem::file_size(it->second, ec)) +
                                " bytes: the key alone), not a parameter file; give the .params file (proofline "
                                "setup --params)");
  }
}

void check_arguments(const ProofKind& kind, const ProofRequest& r) { check_arguments(kind.name(), kind.arguments(), r); }

}  // namespace proofline::engine
