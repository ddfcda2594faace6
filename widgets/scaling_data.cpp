#include "widgets/scaling_data.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>

#ifdef ADALA_HAVE_STORE
#include "engine/store/run_store.h"
#endif

namespace adala::widgets {

// The translation context of the messages below.
class ScalingData {
  Q_DECLARE_TR_FUNCTIONS(adala::widgets::ScalingData)
};

namespace {

void setError(QString* error, const QString& message) {
  if (error) *error = message;
}

// RFC 4180: fields separated by commas, quoted fields may hold commas, quotes ("") and line
// breaks. Returns the rows (a trailing empty line gives no row).
QVector<QStringList> parseCsv(const QString& text) {
  QVector<QStringList> rows;
  QStringList row;
  QString field;
  bool quoted = false, fieldStarted = false;
  for (int i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (quoted) {
      if (c == QLatin1Char('"')) {
        if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
          field += QLatin1Char('"');
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
    } else if (c == QLatin1Char('"') && field.isEmpty()) {
      quoted = fieldStarted = true;
    } else if (c == QLatin1Char(',')) {
      row << field;
      field.clear();
      fieldStarted = true;
    } else if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
      if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) ++i;
      if (fieldStarted || !field.isEmpty() || !row.isEmpty()) {
        row << field;
        rows << row;
      }
      row.clear();
      field.clear();
      fieldStarted = false;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (fieldStarted || !field.isEmpty() || !row.isEmpty()) {
    row << field;
    rows << row;
  }
  return rows;
}

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// Shortest text that reads back as the same double; "" for NaN.
QString csvNumber(double value) {
  if (std::isnan(value)) return {};
  return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

double parseNumber(const QString& text) {
  bool ok = false;
  const double v = text.trimmed().toDouble(&ok);
  return ok ? v : ScalingSample::kNone;
}

int modeOrder(const QString& mode) {
  if (mode == QLatin1String("softmax")) return 0;
  if (mode == QLatin1String("softmax-chunked")) return 1;
  if (mode == QLatin1String("linear")) return 2;
  return 3;
}

}  // namespace

double metricValue(const ScalingSample& s, ScalingMetric metric) {
  double v = ScalingSample::kNone;
  switch (metric) {
    case ScalingMetric::Gflops:
      v = s.gflops;
      break;
    case ScalingMetric::PeakMemory:
      v = s.ran ? s.peakMb : ScalingSample::kNone;
      break;
    case ScalingMetric::Latency:
      v = s.ran ? s.msPerImg : ScalingSample::kNone;
      break;
  }
  return v > 0 ? v : ScalingSample::kNone;  // NaN compares false
}

QVector<QPointF> metricCurve(const QVector<ScalingSample>& samples, const QString& mode,
                             ScalingMetric metric) {
  std::map<int, double> byResolution;
  for (const auto& s : samples) {
    if (s.mode != mode || s.resolution <= 0) continue;
    const double v = metricValue(s, metric);
    if (!std::isnan(v)) byResolution[s.resolution] = v;
  }
  QVector<QPointF> curve;
  for (const auto& [resolution, value] : byResolution) curve << QPointF(resolution, value);
  return curve;
}

QStringList modesOf(const QVector<ScalingSample>& samples) {
  QStringList modes;
  for (const auto& s : samples)
    if (!modes.contains(s.mode)) modes << s.mode;
  std::stable_sort(modes.begin(), modes.end(),
                   [](const QString& a, const QString& b) { return modeOrder(a) < modeOrder(b); });
  return modes;
}

Crossover findCrossover(const QVector<QPointF>& softmax, const QVector<QPointF>& linear) {
  // ln x -> d = ln(linear) - ln(softmax), and ln(softmax), over the common resolutions.
  std::map<double, std::pair<double, double>> common;
  for (const auto& s : softmax) {
    for (const auto& l : linear) {
      if (l.x() == s.x() && s.x() > 0 && s.y() > 0 && l.y() > 0)
        common[std::log(s.x())] = {std::log(l.y()) - std::log(s.y()), std::log(s.y())};
    }
  }
  Crossover c;
  if (common.empty()) return c;
  c.fromResolution = int(std::lround(std::exp(common.begin()->first)));
  c.toResolution = int(std::lround(std::exp(common.rbegin()->first)));
  auto previous = common.end();
  for (auto it = common.begin(); it != common.end(); ++it) {
    const double d = it->second.first;
    if (d == 0.0) {  // equal at a measured resolution
      auto next = std::next(it);
      c.outcome = Crossover::Outcome::Crossed;
      c.resolution = std::exp(it->first);
      c.value = std::exp(it->second.second);
      c.linearLowerAbove = next != common.end()
                               ? next->second.first < 0
                               : (previous != common.end() && previous->second.first > 0);
      return c;
    }
    if (previous != common.end() && (previous->second.first < 0) != (d < 0)) {
      const double d0 = previous->second.first;
      const double t = d0 / (d0 - d);
      const double lnX = previous->first + t * (it->first - previous->first);
      const double lnY =
          previous->second.second + t * (it->second.second - previous->second.second);
      c.outcome = Crossover::Outcome::Crossed;
      c.resolution = std::exp(lnX);
      c.value = std::exp(lnY);
      c.linearLowerAbove = d < 0;
      return c;
    }
    previous = it;
  }
  c.outcome = common.begin()->second.first < 0 ? Crossover::Outcome::LinearLower
                                               : Crossover::Outcome::SoftmaxLower;
  return c;
}

QVector<ScalingSample> readScalingCsv(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    setError(error, ScalingData::tr("Cannot read %1: %2").arg(path, file.errorString()));
    return {};
  }
  const QVector<QStringList> rows = parseCsv(QString::fromUtf8(file.readAll()));
  if (rows.isEmpty()) {
    setError(error, ScalingData::tr("%1 is empty.").arg(path));
    return {};
  }
  QHash<QString, int> column;
  for (int i = 0; i < rows[0].size(); ++i) column.insert(rows[0][i].trimmed(), i);
  // The first name present (the engine's CSV, then writeScalingCsv's older spelling).
  auto find = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (column.contains(QLatin1String(n))) return column.value(QLatin1String(n));
    return -1;
  };
  const int resolution = find({"resolution"}), mode = find({"mode"});
  if (resolution < 0 || mode < 0) {
    setError(error, ScalingData::tr(
                        "%1 is not a scaling benchmark CSV (it has no \"resolution\" and \"mode\" "
                        "columns; write one with adala bench scaling --csv FILE).")
                        .arg(path));
    return {};
  }
  const int preset = find({"preset"}), tokens = find({"tokens"});
  const int gflops = find({"gmacs_model", "gflops"});
  const int attention = find({"gmacs_attention_only", "gflops_attention_only"});
  const int peak = find({"peak_rss_mb", "peak_mb"}), ms = find({"ms_per_img"});
  const int ips = find({"imgs_per_s"}), ran = find({"ran"}), note = find({"note"});
  auto cell = [](const QStringList& row, int i) {
    return i >= 0 && i < row.size() ? row[i] : QString();
  };

  QVector<ScalingSample> samples;
  for (int r = 1; r < rows.size(); ++r) {
    const QStringList& row = rows[r];
    ScalingSample s;
    bool ok = false;
    s.resolution = cell(row, resolution).trimmed().toInt(&ok);
    s.mode = cell(row, mode).trimmed();
    if (!ok || s.resolution <= 0 || s.mode.isEmpty()) {
      setError(error, ScalingData::tr("%1, line %2: no resolution or mode.").arg(path).arg(r + 1));
      return {};
    }
    s.preset = cell(row, preset).trimmed();
    s.tokens = cell(row, tokens).trimmed().toLongLong();
    s.gflops = parseNumber(cell(row, gflops));
    s.gflopsAttention = parseNumber(cell(row, attention));
    s.peakMb = parseNumber(cell(row, peak));
    s.msPerImg = parseNumber(cell(row, ms));
    s.imgsPerS = parseNumber(cell(row, ips));
    s.ran = ran < 0 || cell(row, ran).trimmed() != QLatin1String("0");
    s.note = cell(row, note);
    samples << s;
  }
  if (samples.isEmpty())
    setError(error, ScalingData::tr("%1 holds no benchmark points.").arg(path));
  return samples;
}

bool writeScalingCsv(const QString& path, const QVector<ScalingSample>& samples, QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
    setError(error, ScalingData::tr("Cannot write %1: %2").arg(path, file.errorString()));
    return false;
  }
  QString text = QStringLiteral(
      "preset,resolution,tokens,mode,gmacs_model,gmacs_attention_only,ran,note,ms_per_img,"
      "imgs_per_s,peak_rss_mb\n");
  for (const auto& s : samples) {
    const QStringList fields = {csvField(s.preset),
                                QString::number(s.resolution),
                                QString::number(s.tokens),
                                csvField(s.mode),
                                csvNumber(s.gflops),
                                csvNumber(s.gflopsAttention),
                                s.ran ? QStringLiteral("1") : QStringLiteral("0"),
                                csvField(s.note),
                                csvNumber(s.msPerImg),
                                csvNumber(s.imgsPerS),
                                csvNumber(s.peakMb)};
    text += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  file.write(text.toUtf8());
  if (!file.commit()) {
    setError(error, ScalingData::tr("Cannot write %1: %2").arg(path, file.errorString()));
    return false;
  }
  return true;
}

QVector<ScalingSample> readScalingRun(const QString& dbPath, qint64 runId, QString* error) {
#ifdef ADALA_HAVE_STORE
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    const auto run = db.find_run(static_cast<int64_t>(runId));
    if (!run) {
      setError(error, ScalingData::tr("There is no run %1 in %2.").arg(runId).arg(dbPath));
      return {};
    }
    QVector<ScalingSample> samples;
    for (const auto& p : db.benchmark_points(run->id)) {
      if (p.benchmark != "scaling") continue;
      ScalingSample s;
      s.preset = QString::fromStdString(p.preset);
      s.mode = QString::fromStdString(p.mode);
      s.resolution = static_cast<int>(p.resolution);
      s.tokens = p.tokens;
      s.gflops = p.gflops;
      s.gflopsAttention = p.gflops_attention_only;
      s.peakMb = p.peak_mb;
      s.msPerImg = p.ms_per_img;
      s.imgsPerS = p.imgs_per_s;
      s.ran = p.ran;
      s.note = QString::fromStdString(p.note);
      samples << s;
    }
    if (samples.isEmpty())
      setError(error,
               run->kind == "benchmark"
                   ? ScalingData::tr("Run %1 holds no resolution-scaling points (yet).").arg(runId)
                   : ScalingData::tr("Run %1 is a training run, not a benchmark run.").arg(runId));
    return samples;
  } catch (const std::exception& e) {
    setError(error, ScalingData::tr("Cannot read %1: %2").arg(dbPath, QString::fromUtf8(e.what())));
    return {};
  }
#else
  Q_UNUSED(dbPath);
  Q_UNUSED(runId);
  setError(error, ScalingData::tr("This build has no run database."));
  return {};
#endif
}

QVector<BenchmarkRunEntry> listScalingRuns(const QString& dbPath, QString* error) {
  QVector<BenchmarkRunEntry> runs;
#ifdef ADALA_HAVE_STORE
  try {
    store::RunStore db(dbPath.toStdString(), store::OpenMode::ReadOnly);
    for (const auto& run : db.list_runs()) {
      if (run.kind != "benchmark") continue;
      int points = 0;
      for (const auto& p : db.benchmark_points(run.id)) points += p.benchmark == "scaling";
      if (points == 0) continue;
      BenchmarkRunEntry e;
      e.id = run.id;
      e.name = QString::fromStdString(run.name);
      e.status = QString::fromStdString(run.status);
      const auto t =
          QDateTime::fromString(QString::fromStdString(run.created_at), Qt::ISODateWithMs);
      e.created = t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                              : QString::fromStdString(run.created_at);
      e.points = points;
      runs << e;
    }
  } catch (const std::exception& e) {
    setError(error, ScalingData::tr("Cannot read %1: %2").arg(dbPath, QString::fromUtf8(e.what())));
  }
#else
  Q_UNUSED(dbPath);
  setError(error, ScalingData::tr("This build has no run database."));
#endif
  return runs;
}

QVector<int> parseResolutionList(const QString& text, QString* error) {
  QVector<int> resolutions;
  const QStringList parts =
      text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
  if (parts.isEmpty()) {
    setError(error, ScalingData::tr("Enter at least one resolution, e.g. 224,448,1024."));
    return {};
  }
  QSet<int> seen;
  for (const QString& part : parts) {
    bool ok = false;
    const int r = part.toInt(&ok);
    if (!ok) {
      setError(
          error,
          ScalingData::tr("\"%1\" is not a whole number of pixels (e.g. 224,448,1024).").arg(part));
      return {};
    }
    if (r < kMinResolution || r > kMaxResolution) {
      setError(error, ScalingData::tr("%1 px is out of range: resolutions go from %2 to %3 px.")
                          .arg(r)
                          .arg(kMinResolution)
                          .arg(kMaxResolution));
      return {};
    }
    if (seen.contains(r)) {
      setError(error, ScalingData::tr("%1 px is listed twice.").arg(r));
      return {};
    }
    seen.insert(r);
    resolutions << r;
  }
  return resolutions;
}

}  // namespace adala::widgets
