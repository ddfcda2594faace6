#pragma once
// The resolution-scaling benchmark as the scaling view draws it: plain points (no engine
// types), read from a benchmark run in the run database (its own read-only connection) or
// from the CSV `adala bench scaling --csv` writes; the softmax/linear crossover; the paper's
// reference figures; the resolution list a user types.
#include <QPointF>
#include <QString>
#include <QVector>

#include <cmath>
#include <limits>

namespace adala {
struct ScalingCsvRow;
}

namespace adala::widgets {

struct ScalingSample {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  QString preset, mode;  // mode: softmax | softmax-chunked | linear
  int resolution = 0;    // square input side, pixels
  qint64 tokens = 0;
  double gflops = kNone;           // analytic, whole model, per image, 1 multiply-add = 1 FLOP
  double gflopsAttention = kNone;  // analytic, attention sub-layers + patch embed (paper's count)
  double peakMb = kNone;           // peak RSS above weights + input, 1 MB = 1e6 bytes
  double msPerImg = kNone, imgsPerS = kNone;
  // The spread (NaN where none was recorded: older files and runs): the fastest and slowest
  // timed run over all rounds, the lowest and highest round's peak; the training step's.
  double msMin = kNone, msMax = kNone, peakMin = kNone, peakMax = kNone;
  double trainMs = kNone, trainMsMin = kNone, trainMsMax = kNone;
  double load1m = kNone;  // the highest 1-minute load average read before its runs
  // The reference matmul's lowest and highest rate read around its runs, GFLOP/s (NaN: older
  // files and runs), and whether it moved by more than kUnsteadyRateMove (rate_range.h).
  double matmulMin = kNone, matmulMax = kNone;
  bool unsteady = false;
  qint64 batch = -1;  // images per forward / training step (-1: not recorded)
  int rounds = -1;
  bool ran = true;
  QString note;  // why it did not run
};

// A point as the CSV (and the benchmark's `point` event) holds it.
ScalingSample scalingSampleOf(const adala::ScalingCsvRow& row);

enum class ScalingMetric { Gflops = 0, PeakMemory = 1, Latency = 2 };
constexpr int kScalingMetricCount = 3;

// The sample's value of the metric; NaN when it was not measured (or is not positive, which a
// log axis cannot show).
double metricValue(const ScalingSample& sample, ScalingMetric metric);
// (resolution, value) of one mode, by resolution, measured points only.
QVector<QPointF> metricCurve(const QVector<ScalingSample>& samples, const QString& mode,
                             ScalingMetric metric);
// One measured value with its spread: lo / hi NaN where none was recorded.
struct ScalingInterval {
  int resolution = 0;
  double median = ScalingSample::kNone, lo = ScalingSample::kNone, hi = ScalingSample::kNone;
  bool hasSpread() const { return !std::isnan(lo) && !std::isnan(hi); }
};
// The intervals of one mode, by resolution (latency: min..max over every timed run; peak
// memory: lowest..highest round; GFLOPs: analytic, no spread).
QVector<ScalingInterval> metricIntervals(const QVector<ScalingSample>& samples, const QString& mode,
                                         ScalingMetric metric);

// The run's rate range over every sample's readings, and whether it moved by more than
// kUnsteadyRateMove; empty where no sample has a reading.
struct RateSpan {
  double lo = ScalingSample::kNone, hi = ScalingSample::kNone;
  bool unsteady = false;
  bool empty() const { return !(lo > 0); }
};
RateSpan rateSpanOf(const QVector<ScalingSample>& samples);
// "unsteady: matmul rate moved 26 % (100.0-126.0 GFLOP/s)" where the run's rate moved by more
// than kUnsteadyRateMove, else empty (the benchmark's own words).
QString unsteadyText(const QVector<ScalingSample>& samples);

// The modes present, in the benchmark's order (softmax, softmax-chunked, linear, then others).
QStringList modesOf(const QVector<ScalingSample>& samples);

// Where the linear curve crosses the softmax curve, on the log-log axes the view draws: over
// the resolutions both were measured at, d = ln(linear) - ln(softmax); between the first two
// neighbours where d changes sign, interpolated linearly in (ln resolution, d), so the point
// is where the two drawn segments meet.
struct Crossover {
  enum class Outcome { Crossed, LinearLower, SoftmaxLower, NotComparable };
  Outcome outcome = Outcome::NotComparable;
  double resolution = 0;                     // Crossed: the resolution of the crossing
  double value = 0;                          // Crossed: the curves' value there
  bool linearLowerAbove = false;             // Crossed: linear is the lower one past the crossing
  int fromResolution = 0, toResolution = 0;  // the range compared
};
Crossover findCrossover(const QVector<QPointF>& softmax, const QVector<QPointF>& linear);

// The crossover claimed only where the measured intervals separate: at each resolution both
// were measured at with a spread, linear is lower (its whole interval below softmax's),
// softmax is lower, or the intervals overlap (no claim there). The claim: from `claimFrom` up
// to the largest resolution, the same one is lower at every resolution (0: none, i.e. the
// intervals overlap at the largest resolution, or nowhere separate).
struct IntervalCrossover {
  enum class Order { LinearLower, SoftmaxLower, Overlap };
  struct Verdict {
    int resolution = 0;
    Order order = Order::Overlap;
  };
  QVector<Verdict> verdicts;  // by resolution; empty: not comparable
  int claimFrom = 0;
  bool linearLower = false;  // claimFrom > 0: which one is lower there
  bool comparable() const { return !verdicts.isEmpty(); }
  bool everyOverlap() const;
};
IntervalCrossover findIntervalCrossover(const QVector<ScalingInterval>& softmax,
                                        const QVector<ScalingInterval>& linear);

// The paper's ViT-L 1024^2 figures (ViT-AdaLA project page): GFLOPs in its count (attention
// sub-layers + patch embed, 1 MAC = 1 FLOP) and peak memory.
struct PaperReference {
  static constexpr int kResolution = 1024;
  static constexpr double kSoftmaxGflops = 1241.0, kLinearGflops = 429.35;
  static constexpr double kSoftmaxMb = 3280.0, kLinearMb = 1370.0;  // 3.28 GB -> 1.37 GB
};

// Reads a scaling CSV (engine/bench/scaling_csv.h: `adala bench scaling --csv`, or
// writeScalingCsv). Empty + error (naming the file, line and column) when the file cannot be
// read, lacks a needed column, holds a field its column cannot hold or holds no point.
QVector<ScalingSample> readScalingCsv(const QString& path, QString* error = nullptr);
// Writes the samples in the same column schema (columns the samples do not know stay empty),
// so the file reads back with readScalingCsv. False + error when it cannot be written.
bool writeScalingCsv(const QString& path, const QVector<ScalingSample>& samples,
                     QString* error = nullptr);

// The scaling points of a benchmark run (read-only connection).
QVector<ScalingSample> readScalingRun(const QString& dbPath, qint64 runId,
                                      QString* error = nullptr);

struct BenchmarkRunEntry {
  qint64 id = 0;
  QString name, status, created;  // created: local "yyyy-MM-dd HH:mm"
  int points = 0;
};
// The database's benchmark runs that hold scaling points, newest first.
QVector<BenchmarkRunEntry> listScalingRuns(const QString& dbPath, QString* error = nullptr);

// "224, 448,1024" -> {224, 448, 1024}: integers from kMinResolution to kMaxResolution,
// separated by commas or spaces, each once. Empty + error (naming the bad entry) otherwise.
constexpr int kMinResolution = 32, kMaxResolution = 8192;
QVector<int> parseResolutionList(const QString& text, QString* error = nullptr);

}  // namespace adala::widgets
