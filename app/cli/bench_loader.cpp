#include "app/cli/bench_loader.h"

#include <cstdio>

#include <fmt/format.h>

#include "app/cli/arg_parser.h"
#include "engine/train/loader_throughput.h"

namespace adala::cli {

void declare_loader(CLI::App& app, LoaderBenchArgs& a) {
  app.add_option("FOLDER", a.folder, "class folders (image-folder) or an image tree / list")
      ->required();
  app.add_option("--source", a.source, "image-folder or image-list")
      ->check(CLI::IsMember({"image-folder", "image-list"}));
  app.add_option("--res", a.resolution, "output side of RandomResizedCrop")
      ->check(CLI::Range(int64_t(1), int64_t(4096)));
  app.add_option("--batch-size", a.batch_size)->check(CLI::Range(int64_t(1), int64_t(4096)));
  app.add_option("--batches", a.batches, "timed batches per thread count")
      ->check(CLI::Range(int64_t(1), int64_t(100000)));
  app.add_option("--warmup", a.warmup, "batches drawn before the clock starts")
      ->check(CLI::Range(int64_t(0), int64_t(1000)));
  app.add_option("--limit", a.limit, "use the first N images (0: all)")
      ->check(non_negative_number());
  app.add_option("--seed", a.seed)->check(non_negative_number());
  app.add_option("--decode-threads", a.threads, "decode-thread counts to time")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::Range(int64_t(1), int64_t(256)))
      ->default_str("1,2");
  app.add_flag("--json", a.json, "one JSON object per thread count instead of a table");
}

int bench_loader(const LoaderBenchArgs& a) {
  DataSourceConfig source;
  source.source = a.source;
  source.root = a.folder;
  source.channels = 3;
  source.limit = a.limit;
  source.transform.resolution = a.resolution;
  DataConfig data;
  StageData stage = open_stage_data(source, data, "FOLDER");
  if (!a.json)
    std::printf(
        "%s\nRandomResizedCrop %lld + flip + normalise, batches of %lld, %lld timed after "
        "%lld warm-up\n\n%8s %10s %10s %10s\n",
        stage.dataset->describe().c_str(), (long long)a.resolution, (long long)a.batch_size,
        (long long)a.batches, (long long)a.warmup, "threads", "images", "seconds", "images/s");
  for (const int64_t threads : a.threads) {
    stage.decode_threads = threads;
    const LoaderThroughput t =
        measure_loader_throughput(stage, a.batch_size, a.batches, a.warmup, uint64_t(a.seed));
    if (a.json)
      std::printf(
          "{\"loader\": \"adala\", \"threads\": %lld, \"images\": %lld, \"seconds\": %.6f, "
          "\"images_per_second\": %.3f}\n",
          (long long)threads, (long long)t.images, t.seconds, t.images_per_second());
    else
      std::printf("%8lld %10lld %10.3f %10.1f\n", (long long)threads, (long long)t.images,
                  t.seconds, t.images_per_second());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace adala::cli
