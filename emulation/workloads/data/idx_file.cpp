// Reading IDX files through zlib, checking the header against what follows it.
#include "emulation/workloads/data/idx_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>
#include <zlib.h>

#include "core/error.hpp"

namespace floatscope::emu {

namespace {

/// A gzip or plain file read through zlib; errors name the file.
class GzipReader {
public:
    explicit GzipReader(const std::filesystem::path& path) : path_(path.string()) {
        errno = 0;
        file_ = gzopen(path_.c_str(), "rb");
        if (file_ == nullptr)
            throw Error(fmt::format("cannot open IDX file '{}': {}", path_,
                                    errno != 0 ? std::strerror(errno) : "out of memory"));
    }
    GzipReader(const GzipReader&) = delete;
    GzipReader& operator=(const GzipReader&) = delete;
    ~GzipReader() { gzclose(file_); }

    /// Reads up to `size` bytes; returns how many were read (fewer only at the end of the file).
    std::size_t read(void* buffer, std::size_t size) {
        auto* bytes = static_cast<unsigned char*>(buffer);
        std::size_t done = 0;
        while (done < size) {
            // gzread takes an unsigned count: read in chunks of at most 1 GiB.
            const auto chunk = static_cast<unsigned>(std::min<std::size_t>(size - done, std::size_t{1} << 30));
            const int got = gzread(file_, bytes + done, chunk);
            if (got < 0) {
                int code = Z_OK;
                const char* message = gzerror(file_, &code);
                throw Error(fmt::format("cannot read IDX file '{}': {}", path_,
                                        code == Z_ERRNO ? std::strerror(errno) : message));
            }
            if (got == 0) break;
            done += static_cast<std::size_t>(got);
        }
        return done;
    }

    const std::string& path() const { return path_; }

private:
    std::string path_;
    gzFile file_ = nullptr;
};

constexpr std::uint8_t unsigned_byte_type = 0x08;
constexpr std::size_t max_values = std::size_t{1} << 31;

}  // namespace

IdxArray read_idx(const std::filesystem::path& path, std::size_t max_items) {
    GzipReader in(path);
    unsigned char magic[4];
    if (in.read(magic, 4) != 4 || magic[0] != 0 || magic[1] != 0)
        throw Error(fmt::format("'{}' is not an IDX file: it does not start with two zero bytes", in.path()));
    if (magic[2] != unsigned_byte_type)
        throw Error(
            fmt::format("IDX file '{}' holds type 0x{:02x}; only unsigned bytes (0x08) are read", in.path(), magic[2]));
    const int rank = magic[3];
    if (rank < 1 || rank > 4)
        throw Error(fmt::format("IDX file '{}' has {} dimensions; 1 to 4 are read", in.path(), rank));

    IdxArray array;
    std::size_t total = 1;
    for (int i = 0; i < rank; ++i) {
        unsigned char b[4];
        if (in.read(b, 4) != 4)
            throw Error(
                fmt::format("IDX file '{}' ends inside its header (dimension {} of {})", in.path(), i + 1, rank));
        const std::uint32_t d = (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) |
                                std::uint32_t{b[3]};
        array.dimensions.push_back(d);
        if (d != 0 && total > max_values / d)
            throw Error(fmt::format("IDX file '{}' declares more than 2^31 values; not read", in.path()));
        total *= d;
    }
    const std::size_t declared_items = array.dimensions[0];
    const std::size_t item_size = declared_items == 0 ? 0 : total / declared_items;
    const std::size_t items = max_items > 0 ? std::min(max_items, declared_items) : declared_items;
    array.dimensions[0] = static_cast<std::uint32_t>(items);
    // The buffer grows with the data read, so that a short file with a huge declared size costs
    // only what it holds.
    const std::size_t wanted = items * item_size;
    constexpr std::size_t chunk = std::size_t{1} << 20;
    std::size_t got = 0;
    while (got < wanted) {
        const std::size_t step = std::min(chunk, wanted - got);
        array.values.resize(got + step);
        const std::size_t read = in.read(array.values.data() + got, step);
        got += read;
        if (read != step)
            throw Error(fmt::format("IDX file '{}' is truncated: its header declares {} values, it holds {}", in.path(),
                                    total, got));
    }
    if (items == declared_items) {
        unsigned char extra;
        if (in.read(&extra, 1) != 0)
            throw Error(fmt::format("IDX file '{}' is longer than its header declares ({} values)", in.path(), total));
    }
    return array;
}

}  // namespace floatscope::emu
