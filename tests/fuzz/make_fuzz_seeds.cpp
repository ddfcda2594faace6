// Writes the seed corpora of the fuzz targets into OUT/<target>/: the project's example
// configs, and small valid (and a few almost valid) files of each format, laid out the way the
// project's writers lay them out.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/progress_events.h"

#ifdef ADALA_FUZZ_PNG
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#endif

namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string le64(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[size_t(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

std::string be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

void json_and_config_seeds(const fs::path& out) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(ADALA_SOURCE_DIR "/experiments")) {
    if (entry.path().extension() != ".json") continue;
    const std::string text = read(entry.path());
    write(out / "fuzz_config" / entry.path().filename(), text);
    write(out / "fuzz_json" / entry.path().filename(), text);
    ++n;
  }
  const char* snippets[] = {
      R"({"a":1,"b":[true,false,null],"c":{"d":"x\"y\u00e9"},"e":-2.5e-3})",
      R"({"model":{"preset":"fmnist_tiny","patch_size":7},"stages":{"teacher":{"lr":0.001}}})",
      "\xEF\xBB\xBF{\"name\":\"bom\"}",
      R"(["\ud83d\ude00", 18446744073709551615, -9223372036854775808, 1e308])",
  };
  for (const char* s : snippets) write(out / "fuzz_json" / ("snippet" + std::to_string(n++)), s);
  // The method fields (linearisation_method.h), valid and not, so the fuzzer starts from them.
  const char* method_configs[] = {
      R"({"method":"lolcats","lora_rank":8,"lora_alpha":16,"model":{"preset":"fmnist_micro"}})",
      R"({"method":"hedgehog","attention_rows":32,"model":{"feature_map":"hedgehog"}})",
      R"({"method":"naive","model":{"feature_map":"relu"}})",
      R"({"method":"adala","stages":{"feature_alignment":{"trainable":"qkv"}}})",
      R"({"method":"lolcats","model":{"feature_map":"elu1"},"lora_rank":0})",
      R"({"method":"monarch","stages":{"teacher":{"trainable":"qkv"}}})",
      R"({"stages":{"feature_alignment":{"align_blocks":[2,3,4]}}})",
      R"({"stages":{"feature_alignment":{"align_blocks":[0,2,2,99]}}})",
      R"({"method":"performer","model":{"performer_features":64,"performer_redraw_interval":5}})",
      R"({"method":"performer","model":{"feature_map":"relu","performer_seed":-1}})",
  };
  for (const char* s : method_configs)
    write(out / "fuzz_config" / ("method" + std::to_string(n++) + ".json"), s);
  // The attention plan (engine/train/config/attention_plan_config.cpp), valid and not.
  const char* attention_configs[] = {
      R"({"attention":{"blocks":["softmax","linear","window+linear","linear"],"window":5}})",
      R"({"model":{"preset":"fmnist_micro"},"attention":{"softmax_blocks":[0],"mode":"window+linear"}})",
      R"({"attention":{"softmax_blocks":[0,0],"window":4}})",
      R"({"attention":{"blocks":["linear"],"softmax_blocks":[9],"mode":"softmax","window":-1}})",
      R"({"method":"performer","attention":{"mode":"window+linear"}})",
  };
  for (const char* s : attention_configs)
    write(out / "fuzz_config" / ("attention" + std::to_string(n++) + ".json"), s);
}

void safetensors_seeds(const fs::path& out) {
  // 8 bytes: the data section's size; then the header as write_safetensors writes it.
  const std::pair<uint64_t, std::string> headers[] = {
      {24, R"({"__metadata__":{"adala.format":"adala-vit/1"},"a":{"dtype":"F32","shape":[2,2],)"
           R"("data_offsets":[0,16]},"b":{"dtype":"F16","shape":[4],"data_offsets":[16,24]}})"},
      {0, "{}      "},
      {8, R"({"w":{"dtype":"BF16","shape":[],"data_offsets":[0,2]},"x":{"dtype":"U8","shape":[0],)"
          R"("data_offsets":[2,2]},"y":{"dtype":"I16","shape":[3],"data_offsets":[2,8]}})"},
      {16,
       R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],)"
       R"("data_offsets":[4,12]}})"},
      {0, R"({"w":{"dtype":"F32","shape":[2147483648,2147483648,2,0],"data_offsets":[0,0]}})"},
  };
  int n = 0;
  for (const auto& [data_size, header] : headers)
    write(out / "fuzz_safetensors_header" / ("header" + std::to_string(n++)),
          le64(data_size) + header);
}

void idx_seeds(const fs::path& out) {
  std::string pixels;
  for (int i = 0; i < 2 * 3 * 2; ++i) pixels += static_cast<char>(i * 20);
  write(out / "fuzz_idx" / "images", be32(0x803) + be32(2) + be32(3) + be32(2) + pixels);
  write(out / "fuzz_idx" / "labels", be32(0x801) + be32(3) + std::string("\x00\x09\x04", 3));
  write(out / "fuzz_idx" / "images-truncated", be32(0x803) + be32(5) + be32(28) + be32(28));
}

void png_seeds(const fs::path& out) {
#ifdef ADALA_FUZZ_PNG
  fs::create_directories(out / "fuzz_png");
  cv::Mat labels(6, 5, CV_8UC1);
  for (int y = 0; y < labels.rows; ++y)
    for (int x = 0; x < labels.cols; ++x) labels.at<uint8_t>(y, x) = uint8_t((y * 31 + x) % 151);
  labels.at<uint8_t>(0, 0) = 255;
  cv::imwrite((out / "fuzz_png" / "labels.png").string(), labels);
  cv::Mat rgb(4, 3, CV_8UC3, cv::Scalar(10, 200, 30));
  cv::imwrite((out / "fuzz_png" / "rgb.png").string(), rgb);
#else
  (void)out;
#endif
}

}  // namespace

// `--progress jsonl` streams as `adala run` and `adala bench scaling` write them, plus text
// lines and a few almost valid events.
void progress_seeds(const fs::path& out) {
  char* data = nullptr;
  size_t size = 0;
  std::FILE* stream = open_memstream(&data, &size);
  {
    adala::cli::ProgressEvents e(stream);
    e.run("micro", "/runs/micro-1", 2);
    e.recorded(42);
    adala::StageEvent stage;
    stage.stage = "attention_alignment";
    stage.total_steps = 6;
    e.engine_event(stage);
    adala::StepMetrics m;
    m.stage = "attention_alignment";
    m.step = 3;
    m.total_steps = 6;
    m.loss = 0.25;
    m.per_block_mse = {0.1, std::nan("")};
    m.extra["wall_time"] = 1764870000.5;
    m.per_block["health.min_normaliser"] = {1e-6, std::nan("")};
    e.engine_event(m);
    e.engine_event(adala::EvalMetrics{"teacher", "top1", 0.5, 12});
    e.engine_event(adala::ArtifactEvent{"teacher", "weights", "/runs/w.safetensors"});
    e.engine_event(adala::LogEvent{adala::LogEvent::Level::Warning, "slow"});
    e.finished("done", 42);
    e.start("scaling", 4, "vit_small", {64, 96}, {"softmax", "linear"});
    e.progress(1, 4, "64px softmax");
    e.point({{"preset", "vit_small"},
             {"resolution", "64"},
             {"mode", "linear"},
             {"ms_per_img", "2.5"},
             {"ms_per_img_min", "2.25"},
             {"ms_per_img_max", "3"},
             {"load_1m", "1.5"},
             {"note", "a \"quoted\", note"}});
    e.csv("/tmp/s.csv");
    e.done(4, -1);
    e.error("adala run: error: x");
  }
  std::fclose(stream);
  const std::string events(data, size);
  std::free(data);
  write(out / "fuzz_progress_stream" / "events", events);
  write(out / "fuzz_progress_stream" / "mixed",
        "== teacher: 5 steps\nadala run: started 2 processes\n" +
            events.substr(0, events.size() / 2));
  write(out / "fuzz_progress_stream" / "bad",
        "{\"event\":\"recorded\",\"run_id\":0}\n{\"event\":\"step\",\"step\":-1}\n{\n");
}

// Scaling CSVs as `adala bench scaling --csv` writes them (with and without the spread
// columns) and a few almost valid ones.
void scaling_csv_seeds(const fs::path& out) {
  const fs::path dir = out / "fuzz_scaling_csv";
  write(dir / "spread",
        "preset,resolution,mode,ran,note,ms_per_img,ms_per_img_min,ms_per_img_max,peak_rss_mb,"
        "peak_rss_mb_min,peak_rss_mb_max,train_ms,train_ms_min,train_ms_max,load_1m,rounds\n"
        "vit_small,224,softmax,1,,10,9.5,12,50,49,51,30,29,33,1.25,3\n"
        "vit_small,224,linear,1,\"a \"\"quoted\"\", note\",20,19,21,60,,,,,,0.5,2\n");
  write(dir / "older", "mode,resolution,gflops,peak_mb\r\nlinear,224,4.3,60\r\n");
  write(dir / "bad", "resolution,mode,ms_per_img,ms_per_img_min\n224,linear,10,12\n");
}

namespace {

// index.json of a segmentation results folder as write_segmentation_results writes it
// (engine/seg/results_folder.cpp), with the story, sweep and paper reference of
// segmentation_index_extra; an older one without them; and a few almost valid ones.
void seg_index_seeds(const fs::path& out) {
  const fs::path dir = out / "fuzz_seg_index";
  const std::string classes =
      R"("classes": [{"name": "background", "color": "#000000"},)"
      R"( {"name": "shirt", "color": "#ff8000"}, {"name": "trouser", "color": "#2040c0"}],)";
  const std::string summary = R"("summary": {"teacher": {"miou": 0.61, "pixel_accuracy": 0.9,)"
                              R"( "per_class_iou": [0.95, 0.5, null]},)"
                              R"( "student": {"miou": 0.55, "pixel_accuracy": 0.88,)"
                              R"( "per_class_iou": [0.93, 0.41, null]}},)";
  const std::string images =
      R"("images": [{"id": "scene-0", "image": "images/scene-0.png", "truth": "truth/scene-0.png",)"
      R"( "teacher": "teacher/scene-0.png", "student": "student/scene-0.png",)"
      R"( "teacher_miou": 0.7, "student_miou": 0.65, "teacher_iou": [0.9, 0.5, null],)"
      R"( "student_iou": [0.88, 0.42, null], "disagreement": 0.031},)"
      R"( {"id": "scene-1", "image": "images/scene-1.png", "truth": "truth/scene-1.png",)"
      R"( "teacher": "teacher/scene-1.png", "student": "student/scene-1.png",)"
      R"( "teacher_miou": null, "student_miou": null, "disagreement": null}])";
  const std::string sweep_row =
      R"({"image_size": 56, "val_images": 64, "garments": [1, 4],)"
      R"( "teacher": {"miou": 0.61, "pixel_accuracy": 0.9, "img_per_s": 412.5, "peak_mb": 3.1},)"
      R"( "student": {"miou": 0.55, "pixel_accuracy": 0.88, "img_per_s": 530.0, "peak_mb": 2.2}})";
  const std::string sweep =
      R"("sweep": [)" + sweep_row +
      R"(, {"image_size": 112, "val_images": 64, "garments": [3, 12],)"
      R"( "teacher": {"miou": 0.58, "pixel_accuracy": 0.87, "img_per_s": 101.25, "peak_mb": 20.4},)"
      R"( "student": {"miou": null, "pixel_accuracy": null, "img_per_s": null, "peak_mb": null}}])";
  const std::string paper =
      R"("paper_reference": {"dataset": "Cityscapes", "image_size": 1024,)"
      R"( "teacher": {"miou": 0.8098, "img_per_s": 7.07, "peak_mb": 3283.6},)"
      R"( "student": {"miou": 0.7873, "img_per_s": 15.95, "peak_mb": 1376.4}})";
  const std::string story_fine_tuned =
      R"("story": {"image_size": 56, "backbone": "fine-tuned", "backbone_lr_scale": 0.1,)"
      R"( "layer_decay": 0.75, "head": "linear", "train_images": 512,)"
      R"( "adaptation": "Stages 1+2 on the training scenes"})";
  const std::string head = R"({"head": "linear", "split": "val", "ignore_index": 255, )";
  write(dir / "full.json", head + classes + summary + images + ", " + story_fine_tuned + ", " +
                               sweep + ", " + paper + "}\n");
  // Older writers: no story, sweep or paper reference; no head; numeric ids.
  write(dir / "older.json",
        R"({"split": "val", )" + classes + summary +
            R"("images": [{"id": 7, "image": "images/7.png", "truth": "truth/7.png",)"
            R"( "teacher": "teacher/7.png", "student": "student/7.png"}]})");
  // A frozen backbone; the optional parts null.
  write(
      dir / "frozen.json",
      head + classes + summary + images +
          R"(, "story": {"image_size": 224, "backbone": "frozen", "head": "mask2former",)"
          R"( "train_images": null, "adaptation": null}, "sweep": null, "paper_reference": null})");
  // Almost valid: each breaks one rule.
  const std::string almost[] = {
      head + classes + summary + images + R"(, "sweep": [{"image_size": 56, "val_images": 64,)" +
          R"( "garments": [5, 2], "teacher": {}, "student": {}}]})",
      head + classes + summary + images +
          R"(, "story": {"image_size": 56, "backbone": "fine-tuned", "layer_decay": 0,)" +
          R"( "head": "linear"}})",
      head + classes + summary + images + R"(, "story": {"image_size": 70000,)" +
          R"( "backbone": "partial", "head": "linear"}})",
      R"({"ignore_index": 1, )" + classes + summary + images + "}",
      head + classes +
          R"("summary": {"teacher": {"miou": 0.5, "per_class_iou": [0.5]},)"
          R"( "student": {"miou": 2}},)" +
          images + "}",
      head + classes + summary + images + ", " + paper.substr(0, paper.size() / 2),
      R"({"classes": [], "classes": [], "images": []})",
  };
  int n = 0;
  for (const auto& text : almost) write(dir / ("almost" + std::to_string(n++) + ".json"), text);
}

// summary.json as `adala segment` writes it (segmentation_job_summary_json in
// engine/seg/segmentation_summary.cpp), an older one without the sweep, paper reference and layer
// decay, and a few almost valid ones.
void seg_summary_seeds(const fs::path& out) {
  const fs::path dir = out / "fuzz_seg_summary";
  const std::string scores_t =
      R"({"miou": 0.612345, "pixel_accuracy": 0.9, "per_class_iou": [0.95, 0.5, null]})";
  const std::string scores_s =
      R"({"miou": 0.55, "pixel_accuracy": 0.88, "per_class_iou": [0.93, 0.41, null]})";
  const std::string heads =
      R"("heads": {"linear": {"teacher": )" + scores_t + R"(, "student": )" + scores_s +
      R"(, "miou_gap": -0.062345, "teacher_train_seconds": 12.5, "student_train_seconds": 13.1,)"
      R"( "results": "linear/index.json"}, "mask2former": {"teacher": )" +
      scores_t + R"(, "student": )" + scores_s +
      R"(, "miou_gap": null, "teacher_train_seconds": 40, "student_train_seconds": 0,)"
      R"( "results": "mask2former/index.json"}})";
  const std::string point =
      R"({"miou": 0.61, "pixel_accuracy": 0.9, "img_per_s": 412.5, "peak_mb": 3.1})";
  const std::string sweep =
      R"("sweep": [{"image_size": 56, "val_images": 64, "garments": [1, 4], "heads": {"linear":)"
      R"( {"teacher": )" +
      point + R"(, "student": )" + point +
      R"(}}}, {"image_size": 112, "val_images": 64, "garments": [3, 12], "heads": {"linear":)"
      R"( {"teacher": )" +
      point +
      R"(, "student": {"miou": null, "pixel_accuracy": null, "img_per_s": null,)"
      R"( "peak_mb": null}}}}])";
  const std::string paper =
      R"("paper_reference": {"dataset": "Cityscapes", "image_size": 1024,)"
      R"( "teacher": {"miou": 0.8098, "img_per_s": 7.07, "peak_mb": 3283.6},)"
      R"( "student": {"miou": 0.7873, "img_per_s": 15.95, "peak_mb": 1376.4}})";
  const std::string top =
      R"({"experiment": "seg_fmnist_scenes", "dataset": "fmnist_scenes", "image_size": 56,)"
      R"( "train_images": 512, "val_images": 64, "train_backbone": true,)"
      R"( "backbone_lr_scale": 0.1, "layer_decay": 0.75,)"
      R"( "teacher_weights": "runs/teacher.safetensors",)"
      R"( "student_weights": "runs/student.safetensors",)"
      R"( "adaptation": "Stages 1+2 on the training scenes",)"
      R"( "story": "56x56 · backbone fine-tuned (lr x 0.1, layer decay 0.75) · linear head", )";
  write(dir / "full.json", top + heads + ", " + sweep + ", " + paper + "}\n");
  write(dir / "older.json",
        R"({"experiment": "seg_old", "dataset": "ade20k", "image_size": 224,)"
        R"( "train_images": 100, "val_images": 20, "train_backbone": false,)"
        R"( "heads": {"linear": {"teacher": {"miou": 0.3}, "student": {"miou": 0.25},)"
        R"( "results": "linear/index.json"}}})");
  write(dir / "minimal.json", R"({"heads": {"": {}}})");
  const std::string almost[] = {
      R"({"heads": {}})",
      top + R"("heads": {"linear": {"teacher": {"miou": 1.5}}}})",
      top + R"("heads": {"linear": {"miou_gap": 2}}})",
      top + heads + R"(, "sweep": [{"val_images": 64, "garments": [1, 4]}]})",
      top + heads + R"(, "sweep": [{"image_size": 56, "garments": [-1, 2097152]}]})",
      R"({"layer_decay": 1.5, )" + heads + "}",
      R"({"train_backbone": 1, "image_size": 56.5, )" + heads + "}",
      top + heads + ", " + sweep.substr(0, sweep.size() / 2),
      R"([{"heads": {"linear": {}}}])",
  };
  int n = 0;
  for (const auto& text : almost) write(dir / ("almost" + std::to_string(n++) + ".json"), text);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_fuzz_seeds OUT_DIR\n";
    return 2;
  }
  const fs::path out = argv[1];
  json_and_config_seeds(out);
  scaling_csv_seeds(out);
  seg_index_seeds(out);
  seg_summary_seeds(out);
  safetensors_seeds(out);
  idx_seeds(out);
  png_seeds(out);
  progress_seeds(out);
  std::cout << "seed corpora written to " << out.string() << "\n";
  return 0;
}
