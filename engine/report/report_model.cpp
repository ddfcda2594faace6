#include "engine/report/report_model.h"

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "engine/report/report_strings.h"
#include "engine/store/run_store.h"

namespace adala::report {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

void flatten_into(const QJsonValue& value, const QString& prefix, QMap<QString, QString>& out) {
  if (value.isObject()) {
    const QJsonObject object = value.toObject();
    if (object.isEmpty() && !prefix.isEmpty()) out.insert(prefix, QStringLiteral("{}"));
    for (auto it = object.begin(); it != object.end(); ++it)
      flatten_into(it.value(), prefix.isEmpty() ? it.key() : prefix + '.' + it.key(), out);
  } else if (value.isArray()) {
    // Arrays of scalars read best on one line: [224, 448]; arrays of objects get indices.
    const QJsonArray array = value.toArray();
    bool scalars = true;
    for (const auto& v : array) scalars = scalars && !v.isObject() && !v.isArray();
    if (scalars) {
      out.insert(prefix, QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)));
    } else {
      for (int i = 0; i < array.size(); ++i) flatten_into(array[i], prefix + '[' + QString::number(i) + ']', out);
    }
  } else if (value.isString()) {
    out.insert(prefix, value.toString());
  } else if (value.isBool()) {
    out.insert(prefix, value.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
  } else if (value.isDouble()) {
    out.insert(prefix, QString::number(value.toDouble(), 'g', 12));
  } else if (value.isNull()) {
    out.insert(prefix, QStringLiteral("null"));
  }
}

ArtifactRef to_ref(const store::ArtifactInfo& a) {
  ArtifactRef r;
  r.run = a.run_id;
  r.kind = qs(a.kind);
  r.path = qs(a.path);
  r.sha256 = qs(a.sha256);
  r.bytes = a.bytes;
  const QFileInfo info(r.path);
  r.exists = info.exists() && info.isFile();
  return r;
}

double seconds_between(const QDateTime& a, const QDateTime& b) {
  if (!a.isValid() || !b.isValid()) return kNaN;
  return double(a.msecsTo(b)) / 1000.0;
}

QString caption_from_path(const QString& path) {
  QString base = QFileInfo(path).completeBaseName();
  base.replace('_', ' ');
  return base;
}

// "variant:d" -> "d"; "variant:a-teacher" -> "a".
QString variant_of(const QStringList& tags) {
  for (const auto& t : tags)
    if (t.startsWith(QLatin1String("variant:"))) return t.mid(8).left(1);
  return {};
}

QString ablation_folder_of(const QStringList& tags) {
  for (const auto& t : tags)
    if (t.startsWith(QLatin1String("ablation:"))) return t.mid(9);
  return {};
}

}  // namespace

const QStringList& stage_names() {
  static const QStringList names = {QStringLiteral("teacher"), QStringLiteral("attention_alignment"),
                                    QStringLiteral("feature_alignment"), QStringLiteral("fine_tuning")};
  return names;
}

int stage_index(const QString& stage) { return stage_names().indexOf(stage); }

const StageSummary* ReportRun::stage(const QString& name) const {
  for (const auto& s : stages)
    if (s.stage == name) return &s;
  return nullptr;
}

bool ReportRun::has_block_mse() const {
  for (const auto& s : stages)
    if (!s.block_mse.isEmpty()) return true;
  return false;
}

QString ReportRun::label() const { return QStringLiteral("#%1 %2").arg(id).arg(name); }

QMap<QString, QString> flatten_json(const QString& json) {
  QMap<QString, QString> out;
  QJsonParseError error{};
  const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &error);
  if (error.error != QJsonParseError::NoError) {
    if (!json.trimmed().isEmpty()) out.insert(QStringLiteral("(config)"), json.trimmed());
    return out;
  }
  if (doc.isObject()) flatten_into(doc.object(), QString(), out);
  else if (doc.isArray()) flatten_into(doc.array(), QStringLiteral("(config)"), out);
  return out;
}

QDateTime parse_store_time(const std::string& iso) {
  if (iso.empty()) return {};
  QDateTime t = QDateTime::fromString(qs(iso), Qt::ISODateWithMs);
  if (!t.isValid()) t = QDateTime::fromString(qs(iso), Qt::ISODate);
  if (t.isValid() && t.timeSpec() != Qt::UTC) t.setTimeSpec(Qt::UTC);
  return t;
}

CsvTable parse_csv(const QString& text) {
  CsvTable table;
  QVector<QStringList> records;
  QStringList record;
  QString field;
  bool quoted = false, field_started = false;
  for (int i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      field_started = true;
    } else if (c == ',') {
      record << field;
      field.clear();
      field_started = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (field_started || !field.isEmpty() || !record.isEmpty()) {
        record << field;
        records << record;
      }
      record.clear();
      field.clear();
      field_started = false;
    } else {
      field += c;
      field_started = true;
    }
  }
  if (field_started || !field.isEmpty() || !record.isEmpty()) {
    record << field;
    records << record;
  }
  if (!records.isEmpty()) {
    table.header = records.takeFirst();
    for (auto& r : records) {
      while (r.size() < table.header.size()) r << QString();
      table.rows << r;
    }
  }
  return table;
}

CsvTable read_csv(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    if (error) *error = file.errorString();
    return {};
  }
  CsvTable table = parse_csv(QString::fromUtf8(file.readAll()));
  table.path = path;
  if (table.header.isEmpty() && error) *error = QStringLiteral("empty file");
  return table;
}

ReportModel load_report_model(store::RunStore& store, const std::vector<int64_t>& run_ids) {
  ReportModel model;
  model.db_path = qs(store.path());
  model.generated = QDateTime::currentDateTime();
  auto warn = [&](const QString& message) { model.warnings << message; };

  for (int64_t id : run_ids) {
    const auto info = store.find_run(id);
    if (!info) throw std::invalid_argument("no run " + std::to_string(id) + " in " + store.path());
    ReportRun run;
    run.id = info->id;
    run.name = qs(info->name);
    run.status = qs(info->status);
    run.device = qs(info->device);
    run.torch_version = qs(info->torch_version);
    run.project_version = qs(info->project_version);
    run.notes = qs(info->notes);
    run.created = parse_store_time(info->created_at);
    run.started = parse_store_time(info->started_at);
    run.ended = parse_store_time(info->ended_at);
    run.seconds = seconds_between(run.started, run.ended);
    for (const auto& t : info->tags) run.tags << qs(t);
    run.config_json = qs(info->config_json);
    run.config = flatten_json(run.config_json);

    // Stages and their curves.
    std::map<std::string, int> stage_slot;
    for (const auto& s : store.stages(id)) {
      StageSummary summary;
      summary.stage = qs(s.stage);
      summary.index = s.index;
      summary.status = qs(s.status);
      summary.total_steps = s.total_steps;
      summary.last_step = s.last_step;
      summary.started = parse_store_time(s.started_at);
      summary.ended = parse_store_time(s.ended_at);
      summary.seconds = seconds_between(summary.started, summary.ended);
      stage_slot[s.stage] = run.stages.size();
      run.stages << summary;
    }
    std::map<std::string, std::pair<double, int>> ips;  // stage -> (sum, count)
    std::map<std::string, int64_t> acc_step, lr_step;
    for (const auto& m : store.metrics(id)) {
      auto slot = stage_slot.find(m.stage);
      if (slot == stage_slot.end()) {
        // Metrics of a stage without a stage row (should not happen): give it one.
        StageSummary summary;
        summary.stage = qs(m.stage);
        summary.index = stage_index(summary.stage);
        slot = stage_slot.emplace(m.stage, run.stages.size()).first;
        run.stages << summary;
      }
      StageSummary& s = run.stages[slot->second];
      if (m.key == "loss" && m.block < 0) {
        s.loss.push_back({double(m.step), m.value});
      } else if (m.key == "block_mse" && m.block >= 0) {
        s.block_mse[m.block].push_back({double(m.step), m.value});
      } else if (m.key == "images_per_second" && std::isfinite(m.value) && m.value > 0) {
        ips[m.stage].first += m.value;
        ips[m.stage].second += 1;
      } else if (m.key == "train_acc") {
        if (m.step >= acc_step[m.stage]) {
          acc_step[m.stage] = m.step;
          s.final_train_acc = m.value;
        }
      } else if (m.key == "lr") {
        if (m.step >= lr_step[m.stage]) {
          lr_step[m.stage] = m.step;
          s.final_lr = m.value;
        }
      }
    }
    for (auto& s : run.stages) {
      if (!s.loss.isEmpty()) {
        s.first_loss = s.loss.front().value;
        s.final_loss = s.loss.back().value;
        for (const auto& p : s.loss)
          if (std::isfinite(p.value) && !(p.value >= s.best_loss)) s.best_loss = p.value;
      }
      const auto it = ips.find(s.stage.toStdString());
      if (it != ips.end() && it->second.second > 0) s.mean_images_per_second = it->second.first / it->second.second;
      if (s.last_step < 0 && !s.loss.isEmpty()) s.last_step = qint64(s.loss.back().step);
    }
    std::stable_sort(run.stages.begin(), run.stages.end(), [](const StageSummary& a, const StageSummary& b) {
      const int ia = a.index < 0 ? 99 : a.index, ib = b.index < 0 ? 99 : b.index;
      return ia < ib;
    });

    for (const auto& [key, value] : store.evaluations(id)) run.evaluations.insert(qs(key), value);

    // Artifacts: every file is checked; figures and tables are read.
    for (const auto& a : store.artifacts(id)) {
      ArtifactRef ref = to_ref(a);
      run.artifacts << ref;
      const bool figure = ref.kind == QLatin1String("attention_figure") || ref.kind == QLatin1String("segmentation_figure");
      if (!ref.exists) {
        warn(AdalaReport::tr("run %1: %2 artifact missing: %3").arg(run.id).arg(ref.kind, ref.path));
      }
      if (figure) {
        ImageArtifact image;
        image.artifact = ref;
        image.caption = caption_from_path(ref.path);
        if (ref.exists) {
          QImageReader reader(ref.path);
          image.image = reader.read();
          if (image.image.isNull()) {
            image.problem = reader.errorString();
            warn(AdalaReport::tr("run %1: %2 artifact unreadable: %3 (%4)").arg(run.id).arg(ref.kind, ref.path, image.problem));
          }
        } else {
          image.problem = QStringLiteral("missing");
        }
        (ref.kind == QLatin1String("attention_figure") ? run.attention_figures : run.segmentation_figures) << image;
      } else if (ref.kind == QLatin1String("scaling_csv")) {
        ScalingData data;
        data.artifact = ref;
        if (ref.exists) {
          QString error;
          data.table = read_csv(ref.path, &error);
          if (data.table.header.isEmpty()) {
            data.problem = error.isEmpty() ? QStringLiteral("no header") : error;
            warn(AdalaReport::tr("run %1: %2 artifact unreadable: %3 (%4)").arg(run.id).arg(ref.kind, ref.path, data.problem));
          }
        } else {
          data.problem = QStringLiteral("missing");
        }
        run.scaling << data;
      }
    }
    model.runs << run;
  }

  // Config: the union of keys, in key order; `differs` when the runs disagree.
  std::set<QString> keys;
  for (const auto& run : model.runs)
    for (auto it = run.config.begin(); it != run.config.end(); ++it) keys.insert(it.key());
  for (const auto& key : keys) {
    ConfigRow row;
    row.key = key;
    for (const auto& run : model.runs) row.values << run.config.value(key);
    for (const auto& v : row.values) row.differs = row.differs || v != row.values.front();
    model.config << row;
  }

  // Ablations: every "ablation:<folder>" group a reported run belongs to, with all of the
  // group's variants from the database (the newest run of each variant).
  QStringList folders;
  for (const auto& run : model.runs) {
    const QString folder = ablation_folder_of(run.tags);
    if (!folder.isEmpty() && run.tags.contains(QStringLiteral("ablation")) && !folders.contains(folder)) folders << folder;
  }
  if (!folders.isEmpty()) {
    const auto all = store.list_runs();  // newest first
    for (const auto& folder : folders) {
      Ablation ablation;
      ablation.folder = folder;
      const std::string tag = "ablation:" + folder.toStdString();
      std::map<QString, const store::RunInfo*> by_variant;
      for (const auto& r : all) {
        if (std::find(r.tags.begin(), r.tags.end(), tag) == r.tags.end()) continue;
        QStringList tags;
        for (const auto& t : r.tags) tags << qs(t);
        const QString v = variant_of(tags);
        if (!v.isEmpty() && !by_variant.count(v)) by_variant[v] = &r;
      }
      double teacher = kNaN;
      if (by_variant.count(QStringLiteral("a"))) {
        const auto evals = store.evaluations(by_variant[QStringLiteral("a")]->id);
        const auto it = evals.find("teacher/top1");
        if (it != evals.end()) teacher = it->second;
      }
      for (const auto& [variant, info] : by_variant) {
        AblationRow row;
        row.variant = variant;
        row.run = info->id;
        const auto evals = store.evaluations(info->id);
        const auto it = evals.find(variant == QLatin1String("a") ? "teacher/top1" : "fine_tuning/top1");
        if (it != evals.end()) row.top1 = it->second;
        row.gap_points = variant == QLatin1String("a") ? 0.0 : 100.0 * (row.top1 - teacher);
        ablation.rows << row;
        if (variant == QLatin1String("c") || variant == QLatin1String("d")) {
          Curve curve;
          for (const auto& m : store.metrics(info->id, "feature_alignment", "loss")) curve.push_back({double(m.step), m.value});
          (variant == QLatin1String("c") ? ablation.stage2_only : ablation.stage1_then_2) = curve;
        }
        if (ablation.directory.isEmpty()) {
          for (const auto& a : store.artifacts(info->id)) {
            if (a.kind != "config") continue;
            // <ablation dir>/<variant>/config.json
            const QString dir = QFileInfo(QFileInfo(qs(a.path)).absolutePath()).absolutePath();
            if (QFileInfo::exists(dir + QStringLiteral("/ablation.csv")) || QFileInfo::exists(dir + QStringLiteral("/ablation.md")))
              ablation.directory = dir;
          }
        }
      }
      if (!ablation.rows.isEmpty()) model.ablations << ablation;
    }
  }
  return model;
}

}  // namespace adala::report
