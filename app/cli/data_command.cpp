// `adala data export-fashion-mnist OUT`: Fashion-MNIST as image files in class folders plus a
// `path<TAB>label` list in idx order: 28x28 PNGs check image-folder and image-list against the
// embedded default; upscaled JPEGs feed the loader benchmark and larger runs.
#include <fmt/format.h>

#include <iostream>

#include "app/cli/arg_parser.h"
#include "app/cli/commands.h"
#include "engine/data/fashion_mnist.h"
#include "engine/data/opencv/fashion_mnist_export.h"

namespace adala::cli {

int data_command(const Args& args) {
  CLI::App app{"Data sets on disk for the image-folder and image-list sources.", "adala data"};
  prepare_command_app(app);
  app.require_subcommand(1);
  std::string out, split = "both", root = default_fashion_mnist_root();
  int64_t limit = 0;
  ImageExportFormat format;
  CLI::App* fm = app.add_subcommand(
      "export-fashion-mnist",
      "OUT/<split>/<label>_<class>/<index>.<png|jpg> and OUT/<split>.tsv (`path<TAB>label` per "
      "line, idx order, paths relative to OUT)");
  fm->add_option("OUT", out, "the folder to write (created)")->required();
  fm->add_option("--split", split, "train, test or both")
      ->check(CLI::IsMember({"train", "test", "both"}));
  fm->add_option("--limit", limit, "the first N images of each split (0: all)")
      ->check(non_negative_number());
  fm->add_option("--root", root, "the folder of the idx files");
  fm->add_option("--format", format.extension,
                 "png (28x28 grey, lossless: the default) or jpg (3-channel colour JPEG)")
      ->check(CLI::IsMember({"png", "jpg"}));
  fm->add_option("--size", format.size, "side of the written images, upscaled bilinearly (0: 28)")
      ->check(CLI::Range(int64_t(0), int64_t(4096)));
  fm->add_option("--quality", format.quality, "JPEG quality")->check(CLI::Range(1, 100));
  if (args.empty()) {
    std::cout << app.help();
    return 2;
  }
  if (args[0].rfind("-", 0) != 0 && !has_subcommand(app, args[0]))
    throw UsageError("unknown data command \"" + args[0] + "\" (export-fashion-mnist)");
  if (!parse_command_line(app, args)) return 0;
  for (const std::string s : {"train", "test"}) {
    if (split != "both" && split != s) continue;
    const FashionMnistExport e = export_fashion_mnist(root, s, out, limit, format);
    std::cout << fmt::format("{}: {} images, list {}\n", s, e.images, e.list_path);
  }
  return 0;
}

}  // namespace adala::cli
