#include "engine/io/safetensors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>

#include "engine/json/json.h"

namespace adala {

namespace {

// The safetensors spec caps the header at 100 MB; anything larger is a corrupt length field.
constexpr uint64_t kMaxHeaderBytes = 100ull * 1024 * 1024;

// What a file that is not safetensors probably is, from its first bytes ("" when unknown), so
// that opening a PyTorch checkpoint says so instead of quoting a nonsense header length.
std::string guess_other_format(const unsigned char* prefix) {
  const auto starts = [&](const char* magic) {
    return std::memcmp(prefix, magic, std::strlen(magic)) == 0;
  };
  if (starts("PK\x03\x04"))
    return "it is a ZIP archive, as PyTorch's torch.save writes .pt/.pth files; convert it with "
           "safetensors.torch.save_file";
  if (prefix[0] == 0x80 && prefix[1] >= 2 && prefix[1] <= 5)
    return "it is a Python pickle (an old-style torch.save file?); convert it with "
           "safetensors.torch.save_file";
  if (starts("\x93NUMPY")) return "it is a NumPy .npy array";
  if (starts("\x89HDF")) return "it is an HDF5 file (Keras weights?)";
  if (starts("GGUF")) return "it is a GGUF file";
  if (starts("\x89PNG") || starts("\xff\xd8\xff")) return "it is an image";
  if (prefix[0] == '{') return "it starts with '{': a JSON file rather than a safetensors one?";
  return "";
}

// The dtypes safetensors_itemsize knows; the last five have no LibTorch tensor type here.
struct DtypeEntry {
  const char* name;
  bool loadable;
  at::ScalarType type;
};

const DtypeEntry kDtypes[] = {
    {"F64", true, at::kDouble},    {"F32", true, at::kFloat},     {"F16", true, at::kHalf},
    {"BF16", true, at::kBFloat16}, {"I64", true, at::kLong},      {"I32", true, at::kInt},
    {"I16", true, at::kShort},     {"I8", true, at::kChar},       {"U8", true, at::kByte},
    {"BOOL", true, at::kBool},     {"U64", false, at::kLong},     {"U32", false, at::kInt},
    {"U16", false, at::kShort},    {"F8_E4M3", false, at::kByte}, {"F8_E5M2", false, at::kByte},
};

const DtypeEntry* find_dtype(const std::string& name) {
  for (const auto& d : kDtypes)
    if (name == d.name) return &d;
  return nullptr;
}

bool host_is_little_endian() {
  const uint16_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// safetensors data is little-endian; on a big-endian host every element is reversed.
void to_from_little_endian(void* data, size_t nbytes, size_t itemsize) {
  if (itemsize <= 1 || host_is_little_endian()) return;
  auto* p = static_cast<unsigned char*>(data);
  for (size_t i = 0; i + itemsize <= nbytes; i += itemsize) std::reverse(p + i, p + i + itemsize);
}

uint64_t read_le_u64(const unsigned char* b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}

}  // namespace

at::ScalarType safetensors_scalar_type(const std::string& dtype) {
  const auto* d = find_dtype(dtype);
  if (!d) throw SafetensorsError("unknown safetensors dtype \"" + dtype + "\"");
  if (!d->loadable)
    throw SafetensorsError("safetensors dtype " + dtype + " has no LibTorch tensor type");
  return d->type;
}

std::string safetensors_dtype_name(at::ScalarType type) {
  for (const auto& d : kDtypes)
    if (d.loadable && d.type == type) return d.name;
  throw SafetensorsError(std::string("tensors of type ") + c10::toString(type) +
                         " cannot be stored in safetensors");
}

// ---------------------------------------------------------------------------------------------
// Reader

struct SafetensorsReader::Impl {
  std::string path;
  ReadMode mode = ReadMode::Mmap;
  uint64_t file_size = 0;
  uint64_t header_size = 0;
  std::vector<TensorInfo> tensors;
  std::map<std::string, size_t> index;
  std::map<std::string, std::string> metadata;

  // Mmap mode
  int fd = -1;
  void* map = nullptr;
  // Stream mode
  mutable std::ifstream stream;
  mutable std::mutex stream_mutex;

  ~Impl() {
    if (map) munmap(map, file_size);
    if (fd >= 0) close(fd);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw SafetensorsError(path + ": " + what);
  }

  uint64_t data_start() const { return 8 + header_size; }
  uint64_t data_size() const { return file_size - data_start(); }

  void open_mmap() {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (fstat(fd, &st) != 0) fail(std::string("cannot stat: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail("not a regular file");
    file_size = static_cast<uint64_t>(st.st_size);
    check_length_prefix_size();
    map = mmap(nullptr, file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      map = nullptr;
      fail(std::string("cannot mmap: ") + std::strerror(errno));
    }
    const auto* bytes = static_cast<const unsigned char*>(map);
    header_size = read_le_u64(bytes);
    check_header_size(bytes);
    parse_header(reinterpret_cast<const char*>(bytes + 8), header_size);
  }

  void open_stream() {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) fail(std::string("cannot open: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail("not a regular file");
    stream.open(path, std::ios::binary);
    if (!stream) fail("cannot open for reading");
    file_size = static_cast<uint64_t>(st.st_size);
    check_length_prefix_size();
    unsigned char prefix[8];
    if (!stream.read(reinterpret_cast<char*>(prefix), 8)) fail("cannot read the header length");
    header_size = read_le_u64(prefix);
    check_header_size(prefix);
    std::string header(header_size, '\0');
    if (!stream.read(header.data(), static_cast<std::streamsize>(header_size)))
      fail("cannot read the " + std::to_string(header_size) + "-byte header");
    parse_header(header.data(), header_size);
  }

  void check_length_prefix_size() const {
    if (file_size < 8)
      fail("truncated: the file is " + std::to_string(file_size) +
           " bytes, shorter than the 8-byte header length");
  }

  // A length past the file or the spec's cap means the file is not safetensors at all.
  void check_header_size(const unsigned char* prefix) const {
    const std::string other = guess_other_format(prefix);
    const std::string lead =
        "not a safetensors file" + (other.empty() ? std::string() : " (" + other + ")") +
        ": its first 8 bytes give a header length " + std::to_string(header_size) + " that ";
    if (header_size > file_size - 8)
      fail(lead + "runs past the end of the file (" + std::to_string(file_size) +
           " bytes, so at most " + std::to_string(file_size - 8) + " header bytes)");
    if (header_size > kMaxHeaderBytes)
      fail(lead + "is larger than the format's limit of " + std::to_string(kMaxHeaderBytes) +
           " bytes");
    if (header_size < 2)
      fail("header length " + std::to_string(header_size) + " is too short for a JSON object");
  }

  void parse_header(const char* text, uint64_t length) {
    SafetensorsHeader header =
        parse_safetensors_header(std::string_view(text, length), data_size(), path);
    tensors = std::move(header.tensors);
    metadata = std::move(header.metadata);
    for (size_t k = 0; k < tensors.size(); ++k) index.emplace(tensors[k].name, k);
  }

  at::Tensor load(const TensorInfo& info) const {
    const auto type = [&] {
      try {
        return safetensors_scalar_type(info.dtype);
      } catch (const SafetensorsError& e) {
        fail("tensor \"" + info.name + "\": " + e.what());
      }
    }();
    at::Tensor out = at::empty(info.shape, at::TensorOptions().dtype(type));
    const size_t n = info.nbytes();
    if (n == 0) return out;
    if (static_cast<size_t>(out.nbytes()) != n)
      fail("tensor \"" + info.name + "\": size mismatch while loading");
    if (mode == ReadMode::Mmap) {
      std::memcpy(out.data_ptr(),
                  static_cast<const unsigned char*>(map) + data_start() + info.begin, n);
    } else {
      std::lock_guard<std::mutex> lock(stream_mutex);
      stream.clear();
      stream.seekg(static_cast<std::streamoff>(data_start() + info.begin));
      if (!stream.read(static_cast<char*>(out.data_ptr()), static_cast<std::streamsize>(n)))
        fail("tensor \"" + info.name + "\": short read (file changed or truncated?)");
    }
    to_from_little_endian(out.data_ptr(), n, out.element_size());
    return out;
  }
};

SafetensorsReader::SafetensorsReader(const std::string& path, ReadMode mode)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->mode = mode;
  if (mode == ReadMode::Mmap)
    impl_->open_mmap();
  else
    impl_->open_stream();
}

SafetensorsReader::~SafetensorsReader() = default;
SafetensorsReader::SafetensorsReader(SafetensorsReader&&) noexcept = default;
SafetensorsReader& SafetensorsReader::operator=(SafetensorsReader&&) noexcept = default;

const std::string& SafetensorsReader::path() const { return impl_->path; }
ReadMode SafetensorsReader::mode() const { return impl_->mode; }
uint64_t SafetensorsReader::file_size() const { return impl_->file_size; }
uint64_t SafetensorsReader::header_size() const { return impl_->header_size; }
const std::vector<TensorInfo>& SafetensorsReader::tensors() const { return impl_->tensors; }
const std::map<std::string, std::string>& SafetensorsReader::metadata() const {
  return impl_->metadata;
}

bool SafetensorsReader::contains(const std::string& name) const {
  return impl_->index.count(name) > 0;
}

const TensorInfo& SafetensorsReader::info(const std::string& name) const {
  auto it = impl_->index.find(name);
  if (it == impl_->index.end()) impl_->fail("no tensor named \"" + name + "\"");
  return impl_->tensors[it->second];
}

at::Tensor SafetensorsReader::load(const std::string& name) const {
  return impl_->load(info(name));
}

std::map<std::string, at::Tensor> SafetensorsReader::load_all() const {
  std::map<std::string, at::Tensor> out;
  for (const auto& t : impl_->tensors) out[t.name] = impl_->load(t);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writer

void write_safetensors(const std::string& path,
                       const std::vector<std::pair<std::string, at::Tensor>>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  auto fail = [&](const std::string& what) -> void {
    throw SafetensorsError(path + ": cannot write: " + what);
  };
  std::vector<std::pair<std::string, at::Tensor>> sorted;
  sorted.reserve(tensors.size());
  for (const auto& [name, t] : tensors) {
    if (name.empty()) fail("a tensor has an empty name");
    if (name == "__metadata__") fail("\"__metadata__\" is reserved and cannot name a tensor");
    if (!t.defined()) fail("tensor \"" + name + "\" is undefined");
    sorted.emplace_back(name, t.detach().to(at::kCPU).contiguous());
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].first == sorted[i - 1].first)
      fail("tensor name \"" + sorted[i].first + "\" appears twice");

  Json header = Json::object();
  if (!metadata.empty()) {
    Json meta = Json::object();
    for (const auto& [k, v] : metadata) meta[k] = Json(v);
    header["__metadata__"] = std::move(meta);
  }
  uint64_t offset = 0;
  for (const auto& [name, t] : sorted) {
    std::string dtype;
    try {
      dtype = safetensors_dtype_name(t.scalar_type());
    } catch (const SafetensorsError& e) {
      fail("tensor \"" + name + "\": " + e.what());
    }
    Json shape = Json::array();
    for (auto d : t.sizes()) shape.push_back(Json(static_cast<int64_t>(d)));
    const auto n = static_cast<uint64_t>(t.nbytes());
    Json entry = Json::object();
    entry["dtype"] = Json(dtype);
    entry["shape"] = std::move(shape);
    Json offsets = Json::array();
    offsets.push_back(Json(offset));
    offsets.push_back(Json(offset + n));
    entry["data_offsets"] = std::move(offsets);
    header[name] = std::move(entry);
    offset += n;
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');

  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) fail(std::string("cannot create ") + tmp + ": " + std::strerror(errno));
  bool ok = true;
  unsigned char prefix[8];
  uint64_t len = text.size();
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<unsigned char>((len >> (8 * i)) & 0xff);
  ok = ok && std::fwrite(prefix, 1, 8, f) == 8;
  ok = ok && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  for (const auto& [name, t] : sorted) {
    if (!ok) break;
    const auto n = static_cast<size_t>(t.nbytes());
    if (n == 0) continue;
    if (host_is_little_endian() || t.element_size() <= 1) {
      ok = std::fwrite(t.data_ptr(), 1, n, f) == n;
    } else {
      std::vector<unsigned char> buf(static_cast<const unsigned char*>(t.data_ptr()),
                                     static_cast<const unsigned char*>(t.data_ptr()) + n);
      to_from_little_endian(buf.data(), n, t.element_size());
      ok = std::fwrite(buf.data(), 1, n, f) == n;
    }
  }
  ok = ok && std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
  const int saved_errno = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    std::remove(tmp.c_str());
    fail(std::strerror(saved_errno ? saved_errno : EIO));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    fail(std::string("cannot rename ") + tmp + ": " + std::strerror(e));
  }
}

}  // namespace adala
