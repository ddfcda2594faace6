#include "widgets/scaling/scaling_data.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/measure/rate_range.h"
#include "engine/bench/scaling_csv.h"

#include "engine/store/run_store.h"

namespace adala::widgets {

// The translation context of the messages below.
class ScalingData {
  Q_DECLARE_TR_FUNCTIONS(adala::widgets::ScalingData)
};

namespace {

void setError(QString* error, const QString& message) {
  if (error) *error = message;
}

// The spread and load a benchmark point's extra JSON holds (app/cli/benchmark_record.cpp;
// runs recorded before it have none, and keep NaN). A value that is not a finite number >= 0
// is left out, as the CSV reader refuses it; a spread that does not hold its median too.
void readSpread(const QByteArray& extraJson, ScalingSample& s) {
  const QJsonObject extra = QJsonDocument::fromJson(extraJson).object();
  const auto value = [&](const char* key) {
    const QJsonValue v = extra.value(QLatin1String(key));
    const double x = v.isDouble() ? v.toDouble() : ScalingSample::kNone;
    return std::isfinite(x) && x >= 0 ? x : ScalingSample::kNone;
  };
  const auto spread = [](double lo, double mid, double hi, double* outLo, double* outHi) {
    if (lo > mid || hi < mid || lo > hi) return;  // NaN compares false: kept as read
    *outLo = lo;
    *outHi = hi;
  };
  spread(value("ms_per_img_min"), s.msPerImg, value("ms_per_img_max"), &s.msMin, &s.msMax);
  spread(value("peak_mb_min"), s.peakMb, value("peak_mb_max"), &s.peakMin, &s.peakMax);
  if (extra.value(QLatin1String("train_ran")).toBool()) {
    s.trainMs = value("train_ms");
    spread(value("train_ms_min"), s.trainMs, value("train_ms_max"), &s.trainMsMin, &s.trainMsMax);
  }
  s.load1m = value("load_1m");
  const double lo = value("matmul_gflops_min"), hi = value("matmul_gflops_max");
  if (lo <= hi) {  // NaN compares false: left out
    s.matmulMin = lo;
    s.matmulMax = hi;
  }
  s.unsteady = extra.value(QLatin1String("unsteady")).toBool();
  if (extra.value(QLatin1String("rounds")).isDouble())
    s.rounds = extra.value(QLatin1String("rounds")).toInt();
}

ScalingCsvRow rowOf(const ScalingSample& s) {
  ScalingCsvRow row;
  row.preset = s.preset.toStdString();
  row.mode = s.mode.toStdString();
  row.resolution = s.resolution;
  row.tokens = s.tokens;
  row.gmacs_model = s.gflops;
  row.gmacs_attention_only = s.gflopsAttention;
  row.peak_rss_mb = s.peakMb;
  row.ms_per_img = s.msPerImg;
  row.imgs_per_s = s.imgsPerS;
  row.ms_per_img_min = s.msMin;
  row.ms_per_img_max = s.msMax;
  row.peak_rss_mb_min = s.peakMin;
  row.peak_rss_mb_max = s.peakMax;
  row.train_ms = s.trainMs;
  row.train_ms_min = s.trainMsMin;
  row.train_ms_max = s.trainMsMax;
  row.train_ran = !std::isnan(s.trainMs);
  row.load_1m = s.load1m;
  row.matmul_gflops_min = s.matmulMin;
  row.matmul_gflops_max = s.matmulMax;
  row.unsteady = s.unsteady;
  row.batch = s.batch;
  row.rounds = s.rounds;
  row.ran = s.ran;
  row.note = s.note.toStdString();
  return row;
}

int modeOrder(const QString& mode) {
  if (mode == QLatin1String("softmax")) return 0;
  if (mode == QLatin1String("softmax-chunked")) return 1;
  if (mode == QLatin1String("linear")) return 2;
  return 3;
}

double spreadEnd(double v) { return v >= 0 ? v : ScalingSample::kNone; }

}  // namespace

ScalingSample scalingSampleOf(const ScalingCsvRow& row) {
  ScalingSample s;
  s.preset = QString::fromStdString(row.preset);
  s.mode = QString::fromStdString(row.mode);
  s.resolution = static_cast<int>(row.resolution);
  s.tokens = std::max<int64_t>(row.tokens, 0);
  s.gflops = row.gmacs_model;
  s.gflopsAttention = row.gmacs_attention_only;
  s.peakMb = row.peak_rss_mb;
  s.msPerImg = row.ms_per_img;
  s.imgsPerS = row.imgs_per_s;
  s.msMin = row.ms_per_img_min;
  s.msMax = row.ms_per_img_max;
  s.peakMin = row.peak_rss_mb_min;
  s.peakMax = row.peak_rss_mb_max;
  if (row.train_ran) {
    s.trainMs = row.train_ms;
    s.trainMsMin = row.train_ms_min;
    s.trainMsMax = row.train_ms_max;
  }
  s.load1m = row.load_1m;
  s.matmulMin = row.matmul_gflops_min;
  s.matmulMax = row.matmul_gflops_max;
  s.unsteady = row.unsteady;
  s.batch = row.batch;
  s.rounds = static_cast<int>(std::min<int64_t>(row.rounds, 1 << 30));
  s.ran = row.ran;
  s.note = QString::fromStdString(row.note);
  return s;
}

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

QVector<ScalingInterval> metricIntervals(const QVector<ScalingSample>& samples, const QString& mode,
                                         ScalingMetric metric) {
  std::map<int, ScalingInterval> byResolution;
  for (const auto& s : samples) {
    if (s.mode != mode || s.resolution <= 0) continue;
    ScalingInterval i;
    i.resolution = s.resolution;
    i.median = metricValue(s, metric);
    if (std::isnan(i.median)) continue;
    if (metric == ScalingMetric::Latency) {
      i.lo = spreadEnd(s.msMin);
      i.hi = spreadEnd(s.msMax);
    } else if (metric == ScalingMetric::PeakMemory) {
      i.lo = spreadEnd(s.peakMin);
      i.hi = spreadEnd(s.peakMax);
    }
    byResolution[s.resolution] = i;
  }
  QVector<ScalingInterval> out;
  for (const auto& [resolution, interval] : byResolution) out << interval;
  return out;
}

bool IntervalCrossover::everyOverlap() const {
  return std::all_of(verdicts.begin(), verdicts.end(),
                     [](const Verdict& v) { return v.order == Order::Overlap; });
}

IntervalCrossover findIntervalCrossover(const QVector<ScalingInterval>& softmax,
                                        const QVector<ScalingInterval>& linear) {
  IntervalCrossover c;
  for (const auto& s : softmax) {
    if (!s.hasSpread()) continue;
    for (const auto& l : linear) {
      if (l.resolution != s.resolution || !l.hasSpread()) continue;
      IntervalCrossover::Verdict v;
      v.resolution = s.resolution;
      v.order = l.hi < s.lo   ? IntervalCrossover::Order::LinearLower
                : s.hi < l.lo ? IntervalCrossover::Order::SoftmaxLower
                              : IntervalCrossover::Order::Overlap;
      c.verdicts << v;
    }
  }
  std::sort(c.verdicts.begin(), c.verdicts.end(),
            [](const auto& a, const auto& b) { return a.resolution < b.resolution; });
  if (c.verdicts.isEmpty() || c.verdicts.last().order == IntervalCrossover::Order::Overlap)
    return c;
  const auto last = c.verdicts.last().order;
  int first = c.verdicts.size() - 1;
  while (first > 0 && c.verdicts[first - 1].order == last) --first;
  c.claimFrom = c.verdicts[first].resolution;
  c.linearLower = last == IntervalCrossover::Order::LinearLower;
  return c;
}

namespace {

RateRange rateRangeOf(const QVector<ScalingSample>& samples, bool* anyPointUnsteady) {
  RateRange all;
  *anyPointUnsteady = false;
  for (const auto& s : samples) {
    all.add(s.matmulMin);
    all.add(s.matmulMax);
    *anyPointUnsteady = *anyPointUnsteady || s.unsteady;
  }
  return all;
}

}  // namespace

RateSpan rateSpanOf(const QVector<ScalingSample>& samples) {
  bool anyPoint = false;
  const RateRange all = rateRangeOf(samples, &anyPoint);
  RateSpan span;
  if (!all.empty()) {
    span.lo = all.lo;
    span.hi = all.hi;
  }
  span.unsteady = all.unsteady() || anyPoint;
  return span;
}

QString unsteadyText(const QVector<ScalingSample>& samples) {
  bool anyPoint = false;
  const RateRange all = rateRangeOf(samples, &anyPoint);
  if (all.unsteady()) return QString::fromStdString(unsteady_rate_text(all));
  if (anyPoint) return ScalingData::tr("unsteady: a point's matmul rate moved by more than 25 %");
  return {};
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
  QVector<ScalingSample> samples;
  try {
    for (const auto& row : load_scaling_csv(path.toStdString())) samples << scalingSampleOf(row);
  } catch (const ScalingCsvError& e) {
    setError(error, QString::fromStdString(e.what()));
    return {};
  }
  if (samples.isEmpty())
    setError(error, ScalingData::tr("%1 holds no benchmark points.").arg(path));
  return samples;
}

bool writeScalingCsv(const QString& path, const QVector<ScalingSample>& samples, QString* error) {
  std::vector<ScalingCsvRow> rows;
  for (const auto& s : samples) rows.push_back(rowOf(s));
  try {
    save_scaling_csv(path.toStdString(), rows);
  } catch (const ScalingCsvError& e) {
    setError(error, QString::fromStdString(e.what()));
    return false;
  }
  return true;
}

QVector<ScalingSample> readScalingRun(const QString& dbPath, qint64 runId, QString* error) {
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
      s.batch = p.batch;
      s.ran = p.ran;
      s.note = QString::fromStdString(p.note);
      readSpread(QByteArray::fromStdString(p.extra_json), s);
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
}

QVector<BenchmarkRunEntry> listScalingRuns(const QString& dbPath, QString* error) {
  QVector<BenchmarkRunEntry> runs;
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
