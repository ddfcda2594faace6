#include "engine/train/pipeline.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>

#include <torch/utils.h>

#include "engine/runtime/device.h"
#include "engine/model/attention_plan.h"
#include "engine/model/load_weights.h"
#include "engine/model/weights_file_config.h"
#include "engine/io/text_file.h"
#include "engine/model/vision_transformer.h"
#include "engine/data/fashion_mnist.h"
#include "engine/train/config/pretrained_config.h"
#include "engine/train/run_model.h"
#include "engine/train/stage_runners.h"
#include "engine/train/stages.h"

namespace adala {

namespace fs = std::filesystem;

namespace {

bool selected(const std::vector<int>& stages, int s) {
  return std::find(stages.begin(), stages.end(), s) != stages.end();
}

class StageTimer {
 public:
  StageTimer(PipelineResult& r, const std::string& stage)
      : r_(r), stage_(stage), t0_(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    r_.stage_seconds[stage_] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  PipelineResult& r_;
  std::string stage_;
  std::chrono::steady_clock::time_point t0_;
};

void emit_eval(EventSink& sink, const std::string& stage, const std::string& key, double value) {
  sink.on_event(EvalMetrics{stage, key, value, 0});
}

struct PipelineData {
  StageData train, eval, alignment;
};

std::string source_key(const DataSourceConfig& s) {
  return s.source + "|" + s.root + "|" + s.list + "|" + s.split + "|" + s.classes + "|" +
         std::to_string(s.limit) + "|" + std::to_string(s.channels);
}

// Opens the three sources (one dataset per distinct source) and refuses, before anything
// trains, what the selected stages cannot use: no labels, more classes than the head, fewer
// images than one batch. A model read from teacher.weights without num_classes gets
// data.train's class count here.
PipelineData open_pipeline_data(ExperimentConfig& c, const std::vector<int>& stages) {
  std::map<std::string, std::shared_ptr<const Dataset>> opened;
  auto open = [&](const DataSourceConfig& source, const std::string& field) {
    const std::string key = source_key(source);
    auto it = opened.find(key);
    if (it == opened.end()) {
      StageData d = open_stage_data(source, c.data, field);
      opened.emplace(key, d.dataset);
      return d;
    }
    StageData d;
    d.dataset = it->second;
    d.transform = source.transform;
    d.decode_threads = c.data.decode_threads;
    d.prefetch = c.data.prefetch;
    d.skip_bad_images = c.data.skip_bad_images;
    return d;
  };
  PipelineData data;
  data.train = open(c.data.train, "data.train");
  data.eval = source_key(c.data.eval) == source_key(c.data.train) ? data.train
                                                                  : open(c.data.eval, "data.eval");
  data.eval.transform = c.data.eval.transform;
  data.alignment = source_key(c.data.alignment) == source_key(c.data.train)
                       ? data.train
                       : open(c.data.alignment, "data.alignment");
  data.alignment.transform = c.data.alignment.transform;
  if (c.num_classes_from_data && data.train.dataset->has_labels())
    c.model.num_classes = int64_t(data.train.dataset->class_names().size());

  auto refuse_unlabelled = [&](const StageData& d, const std::string& field,
                               const std::string& why) {
    if (!d.dataset->has_labels())
      throw ConfigError(field, d.dataset->describe() + ": no labels, which " + why + " needs");
    const int64_t classes = int64_t(d.dataset->class_names().size());
    if (classes > c.model.num_classes)
      throw ConfigError(field, d.dataset->describe() + ": " + std::to_string(classes) +
                                   " classes, but the model's head has " +
                                   std::to_string(c.model.num_classes) + " (model.num_classes)");
  };
  auto refuse_small = [&](const StageData& d, const std::string& field, int stage) {
    const int64_t batch = c.stage(stage).batch_size;
    if (d.size() < batch)
      throw ConfigError(field, d.dataset->describe() + ": fewer images than one batch of " +
                                   std::to_string(batch) + " (stages." + stage_name(stage) +
                                   ".batch_size)");
  };
  refuse_unlabelled(data.eval, "data.eval", "top-1 evaluation");
  for (int s : stages) {
    if (s == 0 || s == 3) {
      refuse_unlabelled(data.train, "data.train", std::string("Stage ") + std::to_string(s));
      refuse_small(data.train, "data.train", s);
    } else if (s == 1 || s == 2) {
      refuse_small(data.alignment, "data.alignment", s);
    }
  }
  return data;
}

// The requested stages split by what the method (config "method") has and what the config
// switches off ("enabled": false); `run` is what remains, in the requested order.
struct StageSelection {
  std::vector<int> run, not_in_method, disabled;
};

StageSelection select_stages(const ExperimentConfig& c, const std::vector<int>& requested) {
  StageSelection selection;
  for (int s : requested)
    (!method_uses_stage(c.method, s) ? selection.not_in_method
     : !c.stage(s).enabled           ? selection.disabled
                                     : selection.run)
        .push_back(s);
  return selection;
}

void check_window_attention_device(const ExperimentConfig& c, const c10::Device& device,
                                   const std::vector<int>& stages) {
  if (student_attention_plan(c).uses_window() && !device.is_cpu() &&
      std::any_of(stages.begin(), stages.end(), [](int s) { return s > 0; }))
    throw ConfigError("attention",
                      "window+linear attention runs on the CPU only (its kernel, "
                      "engine/kernels/window_linear_attention.h), the device is " +
                          device.str() +
                          "; run on the CPU or give \"attention\": {\"mode\": \"linear\"}");
}

// The run folder with config.json and stages.json, made by the writer (rank 0); every rank gets
// its path.
std::string open_run_folder(const ExperimentConfig& c, const PipelineOptions& options, bool writer,
                            EventSink& sink) {
  std::string run_dir;
  if (writer) {
    run_dir = options.run_dir.empty() ? make_run_dir(c) : options.run_dir;
    fs::create_directories(run_dir + "/checkpoints");
    write_text(run_dir + "/config.json", c.source.dump(2));
    Json stages_json = Json::array();
    for (int s : options.stages) stages_json.push_back(Json(s));
    write_text(run_dir + "/stages.json", stages_json.dump());
    sink.on_event(ArtifactEvent{"", "config", run_dir + "/config.json"});
  }
  if (options.parallel) run_dir = broadcast_string(*options.parallel, run_dir);
  return run_dir;
}

void log_run_start(const StageContext& ctx, const ExperimentConfig& c, const PipelineData& data,
                   const StageSelection& selection) {
  ctx.log("data: train " + data.train.dataset->describe() + "; eval " +
          data.eval.dataset->describe() + "; alignment " + data.alignment.dataset->describe() +
          "; " + std::to_string(c.data.decode_threads) + " decode threads; device " +
          ctx.device.str());
  for (int s : selection.not_in_method)
    ctx.log(std::string("method ") + to_string(c.method) + " has no " + stage_name(s) +
            " stage: skipped");
  for (int s : selection.disabled)
    ctx.log(std::string(stage_name(s)) + ": switched off in the config (stages." + stage_name(s) +
            ".enabled = false): skipped");
  if (c.model_from_weights)
    ctx.log("model: " + c.model.name + " read from " + c.teacher_weights + " (" +
            std::to_string(c.model.img_size) + "x" + std::to_string(c.model.img_size) + " input, " +
            std::to_string(c.model.num_classes) + " classes" +
            (c.num_classes_from_data ? " from data.train" : "") + ")");
}

// The stages of one run once its folder and data are open: the teacher, then the students.
class PipelineRun {
 public:
  PipelineRun(StageContext& ctx, const PipelineOptions& options, const PipelineData& data,
              bool writer, PipelineResult& result)
      : ctx_(ctx),
        c_(ctx.config),
        options_(options),
        data_(data),
        writer_(writer),
        result_(result) {}

  // Stage 0: the teacher, trained here or loaded; its top-1 where its head fits the data.
  VisionTransformer teacher() {
    const StageSpec& spec = kStages.front();
    StageTimer timer(result_, spec.name);
    VisionTransformer teacher = load_or_train_teacher(spec);
    teacher->set_attention_mode(AttentionMode::Softmax);
    teacher->init_linear_from_softmax();
    if (head_fits(teacher)) {
      result_.teacher_top1 = evaluate(spec, teacher);
    } else {
      ctx_.log("teacher: its head has " + std::to_string(teacher->config().num_classes) +
               " classes, the data " + std::to_string(c_.model.num_classes) + ": no teacher top-1");
    }
    return teacher;
  }

  // The student stages, in the table's order: each starts from what its entry says, and a stage
  // whose weights are already in the run folder is loaded instead of trained (resume). The
  // student runs its attention plan (attention_plan.h) in the stages that train it as a whole,
  // and every stage's output records it.
  void students(VisionTransformer& teacher) {
    const c10::Device& device = ctx_.device;
    const AttentionPlan plan = student_attention_plan(c_);
    if (plan != uniform_attention_plan(c_.model.depth, AttentionMode::Linear, plan.window))
      ctx_.log("attention plan: " + describe_attention_plan(plan));
    VisionTransformer student = clone_model(teacher, device);
    int latest = kStages.front().index;
    for (const StageSpec& spec : kStages) {
      if (spec.start == StageStart::Fresh || !selected(options_.stages, spec.index)) continue;
      StageTimer timer(result_, spec.name);
      const bool linear = spec.attention == StageAttention::Linear;
      if (linear) student->set_attention_plan(plan);
      const std::string path = stage_output_path(result_.run_dir, spec.index);
      if (fs::exists(path)) {
        student = load_run_model(c_, path, device, options_.allow_nonfinite, ctx_.sink);
        latest = spec.index;
        ctx_.log(std::string(spec.name) + ": already done, loaded " + path);
      } else {
        if (spec.start == StageStart::Teacher) student = clone_model(teacher, device);
        StageRun run{ctx_, teacher, student, data_for(spec.data), latest};
        stage_runners()[size_t(spec.index)](run);
        student->set_attention_plan(plan);
        save(student, spec.index);
        latest = spec.index;
      }
      if (linear) student->set_attention_plan(plan);
      if (!spec.evaluation || !head_fits(student)) continue;
      const double top1 = evaluate(spec, student);
      if (&spec == &kStages.back()) result_.student_top1 = top1;
    }
  }

 private:
  VisionTransformer load_or_train_teacher(const StageSpec& spec) {
    const c10::Device& device = ctx_.device;
    const std::string teacher_path = stage_output_path(result_.run_dir, spec.index);
    if (fs::exists(teacher_path)) {
      VisionTransformer teacher =
          load_run_model(c_, teacher_path, device, options_.allow_nonfinite, ctx_.sink);
      ctx_.log("teacher: loaded " + teacher_path);
      return teacher;
    }
    if (!c_.teacher_weights.empty()) {
      VisionTransformer teacher =
          load_run_model(c_, c_.teacher_weights, device, options_.allow_nonfinite, ctx_.sink);
      ctx_.log("teacher: loaded " + c_.teacher_weights);
      save(teacher, spec.index);
      return teacher;
    }
    if (selected(options_.stages, spec.index)) {
      VisionTransformer teacher(c_.model);
      teacher->to(device);
      StageRun run{ctx_, teacher, teacher, data_for(spec.data)};
      stage_runners()[size_t(spec.index)](run);
      save(teacher, spec.index);
      return teacher;
    }
    throw ConfigError("teacher.weights", "no teacher: select stage 0 or give pretrained weights");
  }

  // A top-1 needs a head with one output per class of the data.
  bool head_fits(VisionTransformer& m) const {
    return m->config().num_classes == c_.model.num_classes;
  }

  void save(VisionTransformer& model, int stage) {
    if (!writer_) return;
    const std::string path = stage_output_path(result_.run_dir, stage);
    // The data settings and class names travel with the weights (timm's pretrained_cfg).
    const PretrainedConfig data_settings = pretrained_config_for(
        model->config(), c_.data.eval.transform, data_.train.dataset->class_names());
    save_weights(model, path,
                 {{"adala.stage", stage_name(stage)},
                  {"adala.experiment", c_.name},
                  {kPretrainedConfigKey, pretrained_config_to_json(data_settings).dump()}});
    ctx_.sink.on_event(ArtifactEvent{stage_name(stage), "weights", path});
  }

  const StageData& data_for(StageDataRole role) const {
    return role == StageDataRole::Train ? data_.train : data_.alignment;
  }

  // The evaluation a stage's table entry names, of `model` on the evaluation data.
  double evaluate(const StageSpec& spec, VisionTransformer& model) {
    const double top1 = evaluate_top1(model, data_.eval, ctx_.device, options_.parallel.get());
    emit_eval(ctx_.sink, spec.name, spec.evaluation, top1);
    return top1;
  }

  StageContext& ctx_;
  const ExperimentConfig& c_;
  const PipelineOptions& options_;
  const PipelineData& data_;
  const bool writer_;
  PipelineResult& result_;
};

}  // namespace

std::string make_run_dir(const ExperimentConfig& config, const std::string& suffix) {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::gmtime(&now));
  fs::create_directories(config.runs_dir);
  const std::string base = config.runs_dir + "/" + config.name + "-" + stamp + suffix;
  // mkdir either creates the folder or fails with EEXIST: two runs started in the same second
  // (two processes, or two threads) never get the same one.
  for (int i = 1; i < 10000; ++i) {
    const std::string dir = i == 1 ? base : base + "-" + std::to_string(i);
    if (::mkdir(dir.c_str(), 0777) == 0) return dir;
    if (errno != EEXIST)
      throw std::runtime_error("cannot create the run folder " + dir + ": " + std::strerror(errno));
  }
  throw std::runtime_error("cannot create a run folder: " + base + "-2 .. -9999 all exist");
}

ExperimentConfig load_run_config(const std::string& run_dir) {
  return load_experiment_config(run_dir + "/config.json");
}

std::vector<int> load_run_stages(const std::string& run_dir) {
  return parse_json_strict(read_text(run_dir + "/stages.json")).get<std::vector<int>>();
}

void check_stage_indices(const std::vector<int>& stages) {
  for (int s : stages)
    if (!is_stage_index(s))
      throw ConfigError("--stages", "stage " + std::to_string(s) + " does not exist (" +
                                        stage_index_range() + ")");
}

PipelineResult run_pipeline(const ExperimentConfig& config, const PipelineOptions& requested,
                            EventSink& sink, JobControl& control) {
  ExperimentConfig c = config;  // num_classes may come from the data
  check_stage_indices(requested.stages);
  const StageSelection selection = select_stages(c, requested.stages);
  PipelineOptions options = requested;
  options.stages = selection.run;
  const c10::Device device = resolve_device(options.device, c.device);
  check_window_attention_device(c, device, options.stages);
  if (c.threads > 0) configure_threads(static_cast<int>(c.threads));
  torch::manual_seed(static_cast<uint64_t>(c.seed));

  PipelineResult result;
  result.device = device.str();
  const bool writer = !options.parallel || options.parallel->rank() == 0;
  result.run_dir = open_run_folder(c, options, writer, sink);

  StageContext ctx{c, device, sink, control, result.run_dir};
  ctx.parallel = options.parallel;
  ctx.profile_steps = options.profile_steps;
  const PipelineData data = open_pipeline_data(c, options.stages);
  log_run_start(ctx, c, data, selection);

  PipelineRun run(ctx, options, data, writer, result);
  VisionTransformer teacher = run.teacher();
  run.students(teacher);
  return result;
}

}  // namespace adala
