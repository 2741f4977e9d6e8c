// safetensors: the header's JSON checked field by field against the file before any tensor is used.
#include "emulation/weights/safetensors_reader.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "core/json_input.hpp"

namespace floatscope::emu {

namespace {

using nlohmann::json;

/// The safetensors library refuses headers above 100 MB; so does this reader, before parsing.
constexpr std::uint64_t max_header_bytes = 100'000'000;

struct DtypeEncoding {
    const char* dtype;
    TensorEncoding encoding;
    const char* format;  ///< catalog name (Codes, Fp4Pairs)
};

constexpr DtypeEncoding dtypes[] = {
    {"F64", TensorEncoding::F64, "fp64"},           {"F32", TensorEncoding::F32, "fp32"},
    {"F16", TensorEncoding::Codes, "fp16"},         {"BF16", TensorEncoding::Codes, "bf16"},
    {"I8", TensorEncoding::Codes, "int8"},          {"U8", TensorEncoding::Codes, "uint8"},
    {"F8_E4M3", TensorEncoding::Codes, "fp8_e4m3"}, {"F8_E5M2", TensorEncoding::Codes, "fp8_e5m2"},
    {"F8_E8M0", TensorEncoding::Codes, "e8m0"},     {"F4", TensorEncoding::Fp4Pairs, "fp4_e2m1"},
};

std::string supported_dtypes() {
    std::string names;
    for (const DtypeEncoding& d : dtypes) {
        if (!names.empty()) names += ' ';
        names += d.dtype;
    }
    return names;
}

std::uint64_t unsigned_field(const json& value, const std::string& where) {
    if (!value.is_number_unsigned())
        throw Error(fmt::format("{} is {}, not a non-negative integer", where, value.dump()));
    return value.get<std::uint64_t>();
}

WeightTensor tensor_of(const std::string& name, const json& entry, const MappedFile& file, std::uint64_t data_start) {
    const std::string where = fmt::format("{}: tensor '{}'", file.path(), name);
    if (!entry.is_object()) throw Error(fmt::format("{}: its header entry is not an object", where));
    for (const char* field : {"dtype", "shape", "data_offsets"})
        if (!entry.contains(field)) throw Error(fmt::format("{}: field '{}' is missing", where, field));
    WeightTensor t;
    t.name = name;
    t.file = file.path();
    if (!entry["dtype"].is_string()) throw Error(fmt::format("{}: field 'dtype' is not a string", where));
    t.dtype = entry["dtype"].get<std::string>();
    const auto* d =
        std::find_if(std::begin(dtypes), std::end(dtypes), [&](const DtypeEncoding& e) { return t.dtype == e.dtype; });
    if (d == std::end(dtypes))
        throw Error(fmt::format("{}: dtype '{}' is not supported (supported: {})", where, t.dtype, supported_dtypes()));
    t.encoding = d->encoding;
    t.format = core::parse_format(d->format);
    const json& shape = entry["shape"];
    if (!shape.is_array()) throw Error(fmt::format("{}: field 'shape' is not an array", where));
    for (std::size_t i = 0; i < shape.size(); ++i)
        t.shape.push_back(unsigned_field(shape[i], fmt::format("{}: shape[{}]", where, i)));
    t.count = element_count(name, t.shape);
    const json& offsets = entry["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2)
        throw Error(fmt::format("{}: field 'data_offsets' is not [begin, end]", where));
    const std::uint64_t begin = unsigned_field(offsets[0], where + ": data_offsets[0]");
    const std::uint64_t end = unsigned_field(offsets[1], where + ": data_offsets[1]");
    const std::uint64_t data_bytes = file.size() - data_start;
    if (begin > end) throw Error(fmt::format("{}: data_offsets [{}, {}] run backwards", where, begin, end));
    if (end > data_bytes)
        throw Error(fmt::format("{}: data_offsets [{}, {}] end past the data ({} bytes after the header)", where, begin,
                                end, data_bytes));
    const std::uint64_t needed = encoded_bytes(name, t.encoding, t.format, t.block, t.count);
    if (end - begin != needed)
        throw Error(fmt::format("{}: data_offsets [{}, {}] hold {} bytes; shape {} of {} needs {}", where, begin, end,
                                end - begin, shape.dump(), t.dtype, needed));
    t.file_offset = data_start + begin;
    t.data = file.bytes().subspan(t.file_offset, needed);
    return t;
}

}  // namespace

void read_safetensors(const std::shared_ptr<const MappedFile>& file, Checkpoint& into) {
    const std::span<const std::byte> bytes = file->bytes();
    if (bytes.size() < 8)
        throw Error(
            fmt::format("{}: truncated: {} bytes, fewer than the 8 of the header length", file->path(), bytes.size()));
    std::uint64_t header_bytes = 0;
    std::memcpy(&header_bytes, bytes.data(), 8);
    if (header_bytes > bytes.size() - 8)
        throw Error(fmt::format("{}: the header length {} runs past the end of the file ({} bytes)", file->path(),
                                header_bytes, bytes.size()));
    if (header_bytes > max_header_bytes)
        throw Error(
            fmt::format("{}: the header length {} is above safetensors' limit of 100 MB", file->path(), header_bytes));
    const char* text = reinterpret_cast<const char*>(bytes.data() + 8);
    json header;
    try {
        header = core::parse_bounded_json<json>(std::string_view(text, header_bytes), file->path());
    } catch (const json::exception& e) {
        throw Error(fmt::format("{}: the header is not JSON: {}", file->path(), e.what()));
    }
    if (!header.is_object()) throw Error(fmt::format("{}: the header is not a JSON object", file->path()));
    const std::uint64_t data_start = 8 + header_bytes;
    const std::size_t first = into.tensors.size();
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__") {
            if (!entry.is_object()) throw Error(fmt::format("{}: __metadata__ is not an object", file->path()));
            for (const auto& [key, value] : entry.items())
                into.metadata.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
            continue;
        }
        into.tensors.push_back(tensor_of(name, entry, *file, data_start));
    }
    // File order, as the writer laid the tensors out.
    std::sort(into.tensors.begin() + static_cast<std::ptrdiff_t>(first), into.tensors.end(),
              [](const WeightTensor& a, const WeightTensor& b) { return a.file_offset < b.file_offset; });
    check_disjoint(std::span(into.tensors).subspan(first), file->path());
}

}  // namespace floatscope::emu
