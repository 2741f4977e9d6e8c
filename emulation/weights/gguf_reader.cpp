// GGUF: a bounded cursor over the mapping reads the header; every count and offset is checked
// against the bytes left before it is used (format: ggml/docs/gguf.md in the ggml repository).
#include "emulation/weights/gguf_reader.hpp"

#include <cstring>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/input_excerpt.hpp"

namespace floatscope::emu {

namespace {

constexpr std::size_t max_dims = 4;  // GGML_MAX_DIMS
constexpr std::uint64_t default_alignment = 32;  // GGUF_DEFAULT_ALIGNMENT
constexpr int max_array_depth = 8;  // arrays of arrays: deeper is a malformed (or hostile) file
constexpr std::size_t shown_array_values = 8;

/// gguf_metadata_value_type.
enum ValueType : std::uint32_t {
    U8 = 0,
    I8 = 1,
    U16 = 2,
    I16 = 3,
    U32 = 4,
    I32 = 5,
    F32 = 6,
    BOOL = 7,
    STRING = 8,
    ARRAY = 9,
    U64 = 10,
    I64 = 11,
    F64 = 12,
};

std::size_t scalar_bytes(std::uint32_t type) {
    switch (type) {
        case U8:
        case I8:
        case BOOL: return 1;
        case U16:
        case I16: return 2;
        case U32:
        case I32:
        case F32: return 4;
        case U64:
        case I64:
        case F64: return 8;
        default: return 0;
    }
}

/// Reads little-endian fields front to back; running past the end is an error naming the field.
class Cursor {
public:
    Cursor(const MappedFile& file) : file_(file), bytes_(file.bytes()) {}

    const std::string& path() const { return file_.path(); }
    std::uint64_t position() const { return position_; }
    std::uint64_t left() const { return bytes_.size() - position_; }

    template <typename T>
    T read(const std::string& field) {
        T value{};
        std::memcpy(&value, take(sizeof(T), field), sizeof(T));
        return value;
    }
    /// A name (a metadata key, a tensor's name): GGUF allows keys of up to 65535 bytes, and
    /// ggml's tensor names are far shorter; a longer one is refused before it is copied.
    std::string name(const std::string& field) {
        constexpr std::uint64_t longest_name = 65535;
        const std::string_view text = view(field);
        if (text.size() > longest_name)
            throw Error(fmt::format("{}: {} is {} bytes long; names hold at most {}", file_.path(), field, text.size(),
                                    longest_name));
        return std::string(text);
    }
    /// A string value as weights-info shows it: a long one (a tokenizer's chat template is a few
    /// kilobytes) whole, one past a mebibyte as its start and length, not copied out of the mapping.
    std::string value(const std::string& field) {
        constexpr std::size_t longest_value = std::size_t{1} << 20;
        const std::string_view text = view(field);
        return text.size() > longest_value ? core::input_excerpt(text) : std::string(text);
    }
    std::string_view view(const std::string& field) {
        const auto length = read<std::uint64_t>(field + " (its length)");
        const std::byte* text = take(length, field);
        return {reinterpret_cast<const char*>(text), static_cast<std::size_t>(length)};
    }
    const std::byte* take(std::uint64_t n, const std::string& field) {
        if (n > left())
            throw Error(fmt::format("{}: truncated: {} needs {} bytes at offset {}, {} are left", file_.path(), field,
                                    n, position_, left()));
        const std::byte* p = bytes_.data() + position_;
        position_ += n;
        return p;
    }

private:
    const MappedFile& file_;
    std::span<const std::byte> bytes_;
    std::uint64_t position_ = 0;
};

std::string scalar_text(Cursor& c, std::uint32_t type, const std::string& field) {
    switch (type) {
        case U8: return std::to_string(c.read<std::uint8_t>(field));
        case I8: return std::to_string(c.read<std::int8_t>(field));
        case U16: return std::to_string(c.read<std::uint16_t>(field));
        case I16: return std::to_string(c.read<std::int16_t>(field));
        case U32: return std::to_string(c.read<std::uint32_t>(field));
        case I32: return std::to_string(c.read<std::int32_t>(field));
        case F32: return fmt::format("{}", c.read<float>(field));
        case BOOL: return c.read<std::uint8_t>(field) != 0 ? "true" : "false";
        case U64: return std::to_string(c.read<std::uint64_t>(field));
        case I64: return std::to_string(c.read<std::int64_t>(field));
        case F64: return fmt::format("{}", c.read<double>(field));
        default: return "";
    }
}

/// One metadata value as text; arrays show their first values and their length.
std::string value_text(Cursor& c, std::uint32_t type, const std::string& field, int depth) {
    if (type == STRING) return c.value(field);
    if (type != ARRAY) {
        if (scalar_bytes(type) == 0)
            throw Error(fmt::format("{}: {}: unknown value type {} (valid 0..12)", c.path(), field, type));
        return scalar_text(c, type, field);
    }
    if (depth >= max_array_depth)
        throw Error(fmt::format("{}: {}: arrays nested deeper than {}", c.path(), field, max_array_depth));
    const auto element_type = c.read<std::uint32_t>(field + " (array type)");
    const auto count = c.read<std::uint64_t>(field + " (array length)");
    // Each element takes at least a byte (a string at least its 8-byte length): a lying count fails here.
    const std::size_t smallest = element_type == STRING ? 8 : element_type == ARRAY ? 12 : scalar_bytes(element_type);
    if (smallest == 0)
        throw Error(fmt::format("{}: {}: unknown array element type {} (valid 0..12)", c.path(), field, element_type));
    if (count > c.left() / smallest)
        throw Error(
            fmt::format("{}: {}: array length {} cannot fit in the {} bytes left", c.path(), field, count, c.left()));
    std::string text = fmt::format("[{} values]", count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::string value = value_text(c, element_type, fmt::format("{}[{}]", field, i), depth + 1);
        if (i < shown_array_values) text += (i == 0 ? " " : ", ") + value;
    }
    if (count > shown_array_values) text += ", ...";
    return text;
}

struct TypeEncoding {
    TensorEncoding encoding;
    const char* format = "";  ///< Codes: catalog name
    std::optional<GgmlBlock> block;
};

/// ggml_type: F32 0, F16 1, BF16 30, F64 28, I8 24, and the block types.
std::optional<TypeEncoding> encoding_of(std::uint32_t type) {
    switch (type) {
        case 0: return TypeEncoding{TensorEncoding::F32, "fp32", {}};
        case 1: return TypeEncoding{TensorEncoding::Codes, "fp16", {}};
        case 24: return TypeEncoding{TensorEncoding::Codes, "int8", {}};
        case 28: return TypeEncoding{TensorEncoding::F64, "fp64", {}};
        case 30: return TypeEncoding{TensorEncoding::Codes, "bf16", {}};
        default:
            if (const std::optional<GgmlBlock> block = ggml_block_of_type(type))
                return TypeEncoding{TensorEncoding::Blocks, "", block};
            return std::nullopt;
    }
}

const char* type_name(std::uint32_t type) {
    switch (type) {
        case 0: return "F32";
        case 1: return "F16";
        case 24: return "I8";
        case 28: return "F64";
        case 30: return "BF16";
        default: return ggml_block_name(*ggml_block_of_type(type));
    }
}

struct TensorInfo {
    WeightTensor tensor;
    std::uint64_t offset = 0;  ///< from the start of the data section
};

TensorInfo tensor_info(Cursor& c, const std::string& path, std::uint64_t index) {
    TensorInfo info;
    WeightTensor& t = info.tensor;
    t.name = c.name(fmt::format("tensor info {} (name)", index));
    const std::string where = fmt::format("tensor '{}'", t.name);
    const auto dims = c.read<std::uint32_t>(where + " n_dims");
    if (dims == 0 || dims > max_dims)
        throw Error(fmt::format("{}: {}: n_dims {} (valid 1..{})", path, where, dims, max_dims));
    std::vector<std::uint64_t> ne(dims);
    for (std::uint32_t d = 0; d < dims; ++d) ne[d] = c.read<std::uint64_t>(fmt::format("{} dims[{}]", where, d));
    t.shape.assign(ne.rbegin(), ne.rend());  // ne[0] is the fastest dimension
    t.count = element_count(t.name, t.shape);
    const auto type = c.read<std::uint32_t>(where + " type");
    const std::optional<TypeEncoding> encoding = encoding_of(type);
    if (!encoding)
        throw Error(
            fmt::format("{}: {}: tensor type {} is not supported (supported: F32 0, F16 1, Q4_0 2, Q4_1 3, "
                        "Q5_0 6, Q5_1 7, Q8_0 8, I8 24, F64 28, BF16 30, MXFP4 39)",
                        path, where, type));
    t.dtype = type_name(type);
    t.encoding = encoding->encoding;
    if (encoding->block) {
        t.block = *encoding->block;
        t.format = core::parse_format("fp32");
        // ggml blocks run along rows: a row must be whole blocks.
        if (ne[0] % ggml_block_values != 0)
            throw Error(fmt::format("{}: {}: dims[0] = {} is not a multiple of the {} block of {}", path, where, ne[0],
                                    t.dtype, ggml_block_values));
    } else {
        t.format = core::parse_format(encoding->format);
    }
    info.offset = c.read<std::uint64_t>(where + " offset");
    return info;
}

}  // namespace

bool is_gguf(const MappedFile& file) { return file.size() >= 4 && std::memcmp(file.bytes().data(), "GGUF", 4) == 0; }

void read_gguf(const std::shared_ptr<const MappedFile>& file, Checkpoint& into) {
    const std::string& path = file->path();
    Cursor c(*file);
    if (!is_gguf(*file)) throw Error(fmt::format("{}: not a GGUF file (no 'GGUF' magic)", path));
    c.take(4, "magic");
    const auto version = c.read<std::uint32_t>("version");
    if (version == 0x02000000 || version == 0x03000000)
        throw Error(
            fmt::format("{}: a big-endian GGUF file (version {} byte-swapped); only little-endian files are read", path,
                        version >> 24));
    if (version != 2 && version != 3) throw Error(fmt::format("{}: GGUF version {} (readable: 2, 3)", path, version));
    const auto tensor_count = c.read<std::uint64_t>("tensor_count");
    const auto kv_count = c.read<std::uint64_t>("metadata_kv_count");
    // A key-value pair takes at least 12 bytes (key length, type), a tensor info at least 32.
    if (kv_count > c.left() / 12)
        throw Error(fmt::format("{}: metadata_kv_count {} cannot fit in the file", path, kv_count));
    if (tensor_count > c.left() / 32)
        throw Error(fmt::format("{}: tensor_count {} cannot fit in the file", path, tensor_count));
    std::uint64_t alignment = default_alignment;
    for (std::uint64_t i = 0; i < kv_count; ++i) {
        const std::string key = c.name(fmt::format("metadata key {}", i));
        const std::string field = fmt::format("metadata '{}'", key);
        const auto type = c.read<std::uint32_t>(field + " (value type)");
        if (key == "general.alignment") {
            if (type != U32) throw Error(fmt::format("{}: {}: value type {}, not uint32 (4)", path, field, type));
            alignment = c.read<std::uint32_t>(field);
            if (alignment == 0 || alignment % 8 != 0)
                throw Error(
                    fmt::format("{}: {}: alignment {} is not a positive multiple of 8", path, field, alignment));
            into.metadata.emplace_back(key, std::to_string(alignment));
            continue;
        }
        into.metadata.emplace_back(key, value_text(c, type, field, 0));
    }
    std::vector<TensorInfo> infos;
    std::set<std::string> names;
    for (std::uint64_t i = 0; i < tensor_count; ++i) {
        infos.push_back(tensor_info(c, path, i));
        if (!names.insert(infos.back().tensor.name).second)
            throw Error(fmt::format("{}: tensor '{}' is named twice", path, infos.back().tensor.name));
    }
    const std::uint64_t data_start = (c.position() + alignment - 1) / alignment * alignment;
    const std::uint64_t data_bytes = data_start <= file->size() ? file->size() - data_start : 0;
    const std::size_t first = into.tensors.size();
    for (TensorInfo& info : infos) {
        WeightTensor& t = info.tensor;
        const std::string where = fmt::format("{}: tensor '{}'", path, t.name);
        if (info.offset % alignment != 0)
            throw Error(
                fmt::format("{}: offset {} is not a multiple of the alignment {}", where, info.offset, alignment));
        const std::uint64_t bytes = encoded_bytes(t.name, t.encoding, t.format, t.block, t.count);
        // A file cut before its data's alignment padding holds no data at all, not even an empty tensor's.
        if (data_start > file->size() || info.offset > data_bytes || bytes > data_bytes - info.offset)
            throw Error(fmt::format("{}: offset {} + {} bytes end past the data ({} bytes from offset {})", where,
                                    info.offset, bytes, data_bytes, data_start));
        t.file = path;
        t.file_offset = data_start + info.offset;
        t.data = file->bytes().subspan(t.file_offset, bytes);
        into.tensors.push_back(std::move(t));
    }
    check_disjoint(std::span(into.tensors).subspan(first), path);
}

}  // namespace floatscope::emu
