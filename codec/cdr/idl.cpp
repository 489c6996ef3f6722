// `ros2idl` schemas (docs/cdr.md): the OMG IDL rosidl generates from .msg files, the root type's
// first, then each type it uses after a line of '=' and `IDL: package/msg/Type`. The subset
// rosidl writes: modules, structs, typedefs (rosidl names fixed arrays through them), constants,
// enums, sequence<T[, N]>, string<N>, arrays after a member's name; annotations (@verbatim,
// @default, @key...) and preprocessor lines are read past. Types become the same MessageType as
// a ros2msg definition's, named by their module path (std_msgs::msg::Header -> std_msgs/msg/Header).
#include <cctype>
#include <map>
#include <string_view>
#include <vector>

#include "cdr/schema.h"

namespace logscope::cdr {
namespace {

struct Token {
  enum Kind { Word, Number, Text, Punct, End } kind = End;
  std::string text;
};

// Splits IDL into tokens: names (with ::), numbers, quoted strings, single punctuation. Comments
// and preprocessor lines go.
std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  bool line_start = true;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') { line_start = true; ++i; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (line_start && c == '#') { while (i < s.size() && s[i] != '\n') ++i; continue; }
    line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') { while (i < s.size() && s[i] != '\n') ++i; continue; }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
      continue;
    }
    Token t;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' || (s[j] == ':' && j + 1 < s.size() && s[j + 1] == ':')))
        j += s[j] == ':' ? 2 : 1;
      t = {Token::Word, std::string(s.substr(i, j - i))};
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || ((c == '-' || c == '.') && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t j = i + 1;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' || ((s[j] == '-' || s[j] == '+') && (s[j - 1] == 'e' || s[j - 1] == 'E')))) ++j;
      t = {Token::Number, std::string(s.substr(i, j - i))};
      i = j;
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < s.size() && s[j] != c) j += s[j] == '\\' ? 2 : 1;
      t = {Token::Text, std::string(s.substr(i, std::min(j + 1, s.size()) - i))};
      i = j + 1;
    } else {
      t = {Token::Punct, std::string(1, c)};
      ++i;
    }
    out.push_back(std::move(t));
  }
  return out;
}

// IDL's names for the ros2msg builtins (rosidl's mapping, both ways).
std::string msg_type(const std::string& idl) {
  static const std::map<std::string, std::string> names = {
      {"boolean", "bool"},     {"octet", "byte"},         {"char", "char"},
      {"short", "int16"},      {"unsigned short", "uint16"}, {"long", "int32"},   {"unsigned long", "uint32"},
      {"long long", "int64"},  {"unsigned long long", "uint64"}, {"float", "float32"}, {"double", "float64"},
      {"int8", "int8"},        {"uint8", "uint8"},        {"int16", "int16"},     {"uint16", "uint16"},
      {"int32", "int32"},      {"uint32", "uint32"},      {"int64", "int64"},     {"uint64", "uint64"},
      {"string", "string"},    {"wstring", "wstring"}};
  auto it = names.find(idl);
  if (it != names.end()) return it->second;
  std::string out;  // a scoped name: a::b::C -> a/b/C
  for (size_t i = 0; i < idl.size(); ++i) {
    if (idl[i] == ':' && i + 1 < idl.size() && idl[i + 1] == ':') out += '/', ++i;
    else out += idl[i];
  }
  return out;
}

// A member's type as written: its name, a bound (sequence<T, N>, string<N>), whether a sequence.
struct TypeSpec {
  std::string name;  // ros2msg spelling
  bool sequence = false;
  uint64_t sequence_bound = 0;
  uint64_t string_bound = 0;
  std::vector<uint64_t> dims;  // from a typedef
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::map<std::string, std::unique_ptr<MessageType>>* types) : t_(std::move(tokens)), types_(types) {}

  bool run(std::string* error) {
    while (!at_end())
      if (!definition(error)) return false;
    return true;
  }

 private:
  const Token& peek(size_t ahead = 0) const {
    static const Token end;
    return pos_ + ahead < t_.size() ? t_[pos_ + ahead] : end;
  }
  bool at_end() const { return pos_ >= t_.size(); }
  bool is(const char* text, size_t ahead = 0) const { return peek(ahead).text == text; }
  bool eat(const char* text) {
    if (!is(text)) return false;
    ++pos_;
    return true;
  }
  bool expect(const char* text, std::string* error) {
    if (eat(text)) return true;
    *error = std::string("expected '") + text + "' but found '" + peek().text + "' in the IDL";
    return false;
  }
  std::string scope() const {
    std::string s;
    for (const std::string& m : modules_) s += m + "/";
    return s;
  }
  bool number(uint64_t* out, std::string* error) {
    const Token& t = peek();
    uint64_t n = 0;
    bool ok = t.kind == Token::Number && !t.text.empty() && t.text.size() <= 12;
    for (char c : t.text) ok = ok && c >= '0' && c <= '9', n = n * 10 + static_cast<uint64_t>(c - '0');
    if (!ok) {
      *error = "expected a count but found '" + t.text + "' in the IDL";
      return false;
    }
    ++pos_;
    *out = n;
    return true;
  }
  // @name or @name(...): skipped, parentheses balanced.
  void annotations() {
    while (is("@") && peek(1).kind == Token::Word) {
      pos_ += 2;
      if (!eat("(")) continue;
      for (int depth = 1; depth > 0 && !at_end(); ++pos_) depth += is("(") ? 1 : is(")") ? -1 : 0;
    }
  }
  bool type(TypeSpec* out, std::string* error) {
    if (eat("sequence")) {
      if (!expect("<", error) || !type(out, error)) return false;
      if (out->sequence || !out->dims.empty()) return *error = "a sequence of sequences or arrays in the IDL is not a ROS type", false;
      out->sequence = true;
      if (eat(",") && !number(&out->sequence_bound, error)) return false;
      return expect(">", error);
    }
    std::string name = peek().text;
    if (peek().kind != Token::Word) return *error = "expected a type but found '" + name + "' in the IDL", false;
    ++pos_;
    if (name == "unsigned" || name == "long") {  // unsigned short/long/long long, long long
      while (peek().kind == Token::Word && (is("short") || is("long"))) name += " " + t_[pos_++].text;
    }
    if ((name == "string" || name == "wstring") && eat("<")) {
      if (!number(&out->string_bound, error) || !expect(">", error)) return false;
    }
    auto alias = typedefs_.find(scope() + name);
    if (alias == typedefs_.end()) alias = typedefs_.find(name);
    if (alias != typedefs_.end()) {
      TypeSpec bound = alias->second;
      *out = bound;
      return true;
    }
    out->name = msg_type(name);
    return true;
  }
  bool dims(std::vector<uint64_t>* out, std::string* error) {
    while (eat("[")) {
      uint64_t n = 0;
      if (!number(&n, error) || !expect("]", error)) return false;
      out->push_back(n);
    }
    return true;
  }
  bool definition(std::string* error) {
    annotations();
    if (eat(";")) return true;
    if (eat("module")) {
      if (peek().kind != Token::Word) return *error = "a module without a name in the IDL", false;
      modules_.push_back(t_[pos_++].text);
      if (!expect("{", error)) return false;
      while (!at_end() && !is("}"))
        if (!definition(error)) return false;
      modules_.pop_back();
      return expect("}", error);
    }
    if (eat("struct")) return structure(error);
    if (eat("typedef")) {
      TypeSpec spec;
      if (!type(&spec, error) || peek().kind != Token::Word) return error->empty() ? (*error = "a typedef without a name in the IDL", false) : false;
      std::string name = t_[pos_++].text;
      if (!dims(&spec.dims, error)) return false;
      typedefs_[scope() + name] = spec;
      return expect(";", error);
    }
    if (eat("const")) {  // constants are not on the wire: read past, kept for the record
      while (!at_end() && !is(";")) ++pos_;
      return expect(";", error);
    }
    if (eat("enum")) {  // an enum is a uint32 on the wire
      if (peek().kind != Token::Word) return *error = "an enum without a name in the IDL", false;
      TypeSpec spec;
      spec.name = "uint32";
      typedefs_[scope() + t_[pos_++].text] = spec;
      while (!at_end() && !is("}")) ++pos_;
      return expect("}", error);
    }
    *error = "unexpected '" + peek().text + "' in the IDL";
    return false;
  }
  bool structure(std::string* error) {
    if (peek().kind != Token::Word) return *error = "a struct without a name in the IDL", false;
    auto st = std::make_unique<MessageType>();
    st->name = scope() + t_[pos_++].text;
    if (!expect("{", error)) return false;
    while (!at_end() && !is("}")) {
      annotations();
      if (is("}")) break;
      TypeSpec spec;
      if (!type(&spec, error)) return false;
      do {
        if (peek().kind != Token::Word) return *error = "a member without a name in " + st->name, false;
        Field field;
        field.name = t_[pos_++].text;
        std::vector<uint64_t> member_dims = spec.dims;
        if (!dims(&member_dims, error)) return false;
        if (member_dims.size() > 1 || (spec.sequence && !member_dims.empty()))
          return *error = "member '" + field.name + "' of " + st->name + " is a multi-dimensional array, not a ROS type", false;
        field.type_name = spec.name;
        field.string_bound = spec.string_bound;
        if (spec.sequence) {
          field.array = spec.sequence_bound ? ArrayKind::Bounded : ArrayKind::Unbounded;
          field.array_size = spec.sequence_bound;
        } else if (!member_dims.empty()) {
          if (member_dims[0] > Schema::kMaxFixedArray) return *error = "member '" + field.name + "' has a bad array length", false;
          field.array = ArrayKind::Fixed;
          field.array_size = member_dims[0];
        }
        st->fields.push_back(std::move(field));
      } while (eat(","));
      if (!expect(";", error)) return false;
    }
    if (!expect("}", error)) return false;
    std::string key = st->name;
    if (!types_->count(key)) (*types_)[key] = std::move(st);
    return true;
  }

  std::vector<Token> t_;
  size_t pos_ = 0;
  std::map<std::string, std::unique_ptr<MessageType>>* types_;
  std::vector<std::string> modules_;
  std::map<std::string, TypeSpec> typedefs_;
};

}  // namespace

std::unique_ptr<Schema> Schema::parse_ros2idl(const std::string& root_name, const std::string& idl, std::string* error) {
  auto schema = std::unique_ptr<Schema>(new Schema());
  // Sections: a line of '=' then "IDL: pkg/msg/Type"; each section is parsed on its own (its
  // typedefs are its own), into the one set of types.
  std::vector<std::string> sections(1);
  size_t pos = 0;
  while (pos < idl.size()) {
    size_t eol = idl.find('\n', pos);
    if (eol == std::string::npos) eol = idl.size();
    std::string_view line(idl.data() + pos, eol - pos);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    if (line.substr(0, 2) == "==") sections.emplace_back();
    else if (line.substr(0, 4) != "IDL:") sections.back().append(line).append("\n");
    pos = eol + 1;
  }
  for (const std::string& text : sections) {
    Parser parser(tokenize(text), &schema->types_);
    if (!parser.run(error)) {
      *error = "the IDL of " + root_name + ": " + *error;
      return nullptr;
    }
  }
  if (!schema->finish(root_name, error)) return nullptr;
  return schema;
}

}  // namespace logscope::cdr
