#pragma once
// A small but realistic run database for the report suites, written through RunStore the
// way the pipeline's RunStoreSink writes it (no training): finished runs with four stages,
// loss / lr / images per second / train accuracy, per-block MSE for four blocks in Stages 1
// and 2, evaluations, a config artifact and weights; a bare run; an ablation; a run with
// attention / segmentation figures (one of them deleted) and a scaling table.
#include <unistd.h>

#include <QColor>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QString>

#include <cmath>
#include <cstdint>
#include <string>

#include "engine/store/run_store.h"

namespace report_test {

using adala::store::RunStore;

inline QString fresh_dir(const QString& name) {
  const QString dir = QStringLiteral(ADALA_TEST_TMP "/report/%1-%2").arg(name).arg(getpid());
  QDir(dir).removeRecursively();
  QDir().mkpath(dir);
  return dir;
}

inline void write_text(const QString& path, const QByteArray& text) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile f(path);
  f.open(QIODevice::WriteOnly | QIODevice::Truncate);
  f.write(text);
}

inline QByteArray config_json(const std::string& name, double fine_tuning_lr, int depth = 4) {
  return QStringLiteral(
             R"({"name":"%1","seed":0,"device":"cpu","threads":2,
  "model":{"preset":"vit_tiny","img_size":28,"patch_size":4,"in_chans":1,"num_classes":10,
           "embed_dim":64,"depth":%2,"num_heads":2,"mlp_ratio":4.0},
  "data":{"dataset":"fashion-mnist","train_limit":2000,"test_limit":500,"alignment_limit":1000},
  "stages":{"teacher":{"max_steps":60,"batch_size":64,"lr":0.001,"log_every":5},
            "attention_alignment":{"max_steps":60,"batch_size":32,"lr":0.0005,"log_every":5},
            "feature_alignment":{"max_steps":60,"batch_size":32,"lr":0.0005,"log_every":5},
            "fine_tuning":{"max_steps":60,"batch_size":64,"lr":%3,"log_every":5}}})")
      .arg(QString::fromStdString(name))
      .arg(depth)
      .arg(fine_tuning_lr)
      .toUtf8();
}

struct RunSpec {
  std::string name = "fm-tiny";
  std::vector<int> stages{0, 1, 2, 3};
  double teacher_top1 = 0.8512, stage2_top1 = 0.6043, student_top1 = 0.8337;
  double fine_tuning_lr = 0.0003;
  double loss_scale = 1.0;  // final loss of stage k: 0.4321 * loss_scale * (k + 1)
  int blocks = 4;
  double compute_seconds = -1.0;  // each stage's training time (< 0: not recorded)
  bool evaluations = true;
  bool artifacts = true;
  std::vector<std::string> tags;
};

inline const char* stage_name(int i) {
  static const char* names[] = {"teacher", "attention_alignment", "feature_alignment",
                                "fine_tuning"};
  return names[i];
}

// Writes one finished run as the pipeline would; returns its id.
inline int64_t add_run(RunStore& store, const QString& root, const RunSpec& spec) {
  const QByteArray config = config_json(spec.name, spec.fine_tuning_lr, spec.blocks);
  const int64_t run =
      store.create_run(spec.name, config.toStdString(), "cpu", "1.13.0", "0.1.0 (test)");
  for (const auto& t : spec.tags) store.add_tag(run, t);
  store.set_run_status(run, adala::store::RunStatus::Running);
  const QString dir = QStringLiteral("%1/run-%2").arg(root).arg(run);
  if (spec.artifacts) {
    write_text(dir + "/config.json", config);
    store.add_artifact(run, "config", (dir + "/config.json").toStdString());
  }
  const int64_t total = 60;
  for (int s : spec.stages) {
    const std::string stage = stage_name(s);
    store.begin_stage(run, stage, s, total);
    const double final_loss = 0.4321 * spec.loss_scale * (s + 1);
    for (int64_t step = 5; step <= total; step += 5) {
      const double t = double(step) / total;
      // Exponential decay that lands exactly on final_loss at the last step.
      const double loss = final_loss * std::exp(2.0 * (1.0 - t));
      store.add_metric(run, stage, step, "loss", -1, loss);
      store.add_metric(run, stage, step, "lr", -1, 0.001 * (1.0 - 0.9 * t));
      store.add_metric(run, stage, step, "images_per_second", -1, 250.0 + 10.0 * s);
      if (s == 0 || s == 3) store.add_metric(run, stage, step, "train_acc", -1, 0.5 + 0.4 * t);
      if (s == 1 || s == 2)
        for (int b = 0; b < spec.blocks; ++b)
          store.add_metric(run, stage, step, "block_mse", b,
                           (0.02 + 0.01 * b) * std::exp(-3.0 * t) * (s == 1 ? 1.0 : 4.0));
    }
    store.end_stage(run, stage, adala::store::RunStatus::Done, spec.compute_seconds);
    if (spec.artifacts && (s == 0 || s == 3)) {
      const QString weights =
          QStringLiteral("%1/%2.safetensors").arg(dir, QString::fromLatin1(stage_name(s)));
      write_text(weights, QByteArray(2048, 'w'));
      store.add_artifact(run, "weights", weights.toStdString());
    }
  }
  if (spec.evaluations) {
    for (int s : spec.stages) {
      if (s == 0) store.add_evaluation(run, "teacher", "top1", spec.teacher_top1);
      if (s == 2)
        store.add_evaluation(run, "feature_alignment", "top1_teacher_head", spec.stage2_top1);
      if (s == 3) store.add_evaluation(run, "fine_tuning", "top1", spec.student_top1);
    }
  }
  store.set_run_status(run, adala::store::RunStatus::Done);
  return run;
}

inline QString write_png(const QString& path, int w, int h, QColor color) {
  QImage image(w, h, QImage::Format_RGB32);
  image.fill(Qt::white);
  QPainter p(&image);
  for (int x = 0; x < w; x += 8) p.fillRect(x, 0, 4, h, color.lighter(100 + (x % 64)));
  p.end();
  QDir().mkpath(QFileInfo(path).absolutePath());
  image.save(path, "PNG");
  return path;
}

inline QByteArray scaling_csv() {
  return "preset,resolution,tokens,mode,chunk,batch,gmacs_model,gmacs_attention_only,gmacs_"
         "measured,"
         "gflops_model_2x,ran,note,ms_per_img,imgs_per_s,peak_rss_mb,peak_alloc_mb,train_ran,"
         "train_note,train_ms,train_peak_rss_mb,train_peak_alloc_mb\n"
         "vit_tiny,224,196,softmax,0,1,1.26,0.11,,2.52,1,\"\",11.5,86.9,120.0,40.0,0,\"\",,,\n"
         "vit_tiny,448,784,softmax,0,1,5.80,1.40,,11.60,1,\"\",52.0,19.2,260.0,150.0,0,\"\",,,\n"
         "vit_tiny,896,3136,softmax,0,1,31.0,19.5,,62.0,1,\"\",420.0,2.4,1900.0,1500.0,0,\"\",,,\n"
         "vit_tiny,224,196,linear,0,1,1.20,0.05,,2.40,1,\"\",10.9,91.7,118.0,38.0,0,\"\",,,\n"
         "vit_tiny,448,784,linear,0,1,4.90,0.21,,9.80,1,\"\",41.0,24.4,180.0,70.0,0,\"\",,,\n"
         "vit_tiny,896,3136,linear,0,1,19.8,0.86,,39.6,1,\"skipped nothing, "
         "\"\"quoted\"\"\",170.0,5.9,420.0,260.0,0,\"\",,,\n";
}

struct Database {
  QString dir, path;
  int64_t full = 0, second = 0, bare = 0, figures = 0;
  int64_t ablation[4] = {0, 0, 0, 0};
  QString missing_figure, present_figure, segmentation_figure, scaling_file;
};

inline Database make_database(const QString& name) {
  Database d;
  d.dir = fresh_dir(name);
  d.path = d.dir + "/runs.sqlite";
  RunStore store(d.path.toStdString());

  d.full = add_run(store, d.dir, RunSpec{});
  RunSpec second;
  second.name = "fm-tiny-lr";
  second.fine_tuning_lr = 0.001;
  second.loss_scale = 0.8;
  second.student_top1 = 0.8415;
  d.second = add_run(store, d.dir, second);

  RunSpec bare;
  bare.name = "teacher-only";
  bare.stages = {0};
  bare.evaluations = false;
  bare.artifacts = false;
  d.bare = add_run(store, d.dir, bare);

  // The ablation: (a) teacher, (b) Stage 3, (c) Stages 2+3, (d) Stages 1+2+3.
  const char* variants[] = {"a-teacher", "b", "c", "d"};
  const std::vector<int> stages[] = {{0}, {3}, {2, 3}, {1, 2, 3}};
  const double top1[] = {0.8512, 0.7410, 0.8122, 0.8390};
  for (int i = 0; i < 4; ++i) {
    RunSpec v;
    v.name = std::string("abl-") + variants[i];
    v.stages = stages[i];
    v.teacher_top1 = top1[0];
    v.student_top1 = top1[i];
    v.loss_scale = i == 3 ? 0.7 : 1.0;  // (d) aligns better in Stage 2
    v.tags = {"ablation", "ablation:fm-ablation", std::string("variant:") + variants[i]};
    d.ablation[i] = add_run(store, d.dir, v);
  }

  // Figures saved from the GUI and a scaling table; one figure file is gone.
  RunSpec fig;
  fig.name = "fm-figures";
  d.figures = add_run(store, d.dir, fig);
  const QString fdir = d.dir + "/figures";
  d.present_figure = write_png(fdir + "/attention_block2_head0.png", 480, 240, QColor(40, 90, 200));
  d.missing_figure = write_png(fdir + "/attention_block3_head1.png", 480, 240, QColor(200, 60, 40));
  d.segmentation_figure =
      write_png(fdir + "/segmentation_image7.png", 600, 200, QColor(30, 160, 70));
  d.scaling_file = fdir + "/scaling.csv";
  write_text(d.scaling_file, scaling_csv());
  store.add_artifact(d.figures, "attention_figure", d.present_figure.toStdString());
  store.add_artifact(d.figures, "attention_figure", d.missing_figure.toStdString());
  store.add_artifact(d.figures, "segmentation_figure", d.segmentation_figure.toStdString());
  store.add_artifact(d.figures, "scaling_csv", d.scaling_file.toStdString());
  QFile::remove(d.missing_figure);
  store.flush();
  return d;
}

}  // namespace report_test
