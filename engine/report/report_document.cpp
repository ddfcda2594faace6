#include "engine/report/report_document.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "engine/report/report_strings.h"

namespace adala::report {

namespace {

bool finite(double v) { return std::isfinite(v); }

QString slug(const QString& text) {
  QString s = text.toLower();
  s.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
  s.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
  return s.left(40);
}

bool is_fraction_key(const QString& key) {
  const QString name = key.section('/', 1).toLower();
  return name.contains(QLatin1String("top1")) || name.contains(QLatin1String("top5")) ||
         name.contains(QLatin1String("acc")) || name.contains(QLatin1String("miou")) ||
         name.contains(QLatin1String("iou"));
}

// Evaluation keys in a reading order: by stage, then the known keys first.
int eval_order(const QString& key) {
  if (key == QLatin1String("teacher/top1")) return 0;
  if (key == QLatin1String("feature_alignment/top1_teacher_head")) return 1;
  if (key == QLatin1String("fine_tuning/top1")) return 2;
  const int stage = stage_index(key.section('/', 0, 0));
  return 10 + (stage < 0 ? 9 : stage);
}

Curve limited(const Curve& c) { return c; }

ChartSeries to_series(const QString& name, const Curve& curve) {
  ChartSeries s;
  s.name = name;
  for (const auto& p : curve) {
    s.x << p.step;
    s.y << p.value;
  }
  return s;
}

// Columns of a table that hold something in at least one row are kept.
void drop_empty_columns(ReportTable& table, const QVector<int>& optional_columns) {
  QVector<int> drop;
  for (int c : optional_columns) {
    bool any = false;
    for (const auto& row : table.rows) any = any || (c < row.size() && !row[c].isEmpty());
    if (!any) drop << c;
  }
  std::sort(drop.begin(), drop.end(), std::greater<int>());
  for (int c : drop) {
    table.header.removeAt(c);
    if (c < table.numeric.size()) table.numeric.removeAt(c);
    if (c < table.widths.size()) table.widths.removeAt(c);
    for (auto& row : table.rows)
      if (c < row.size()) row.removeAt(c);
  }
}

class DocumentBuilder {
  Q_DECLARE_TR_FUNCTIONS(AdalaReport)

 public:
  DocumentBuilder(const ReportModel& model, const DocumentOptions& options)
      : m_(model), o_(options), loc_(options.locale) {}

  ReportDocument build() {
    doc_.language = loc_.bcp47Name();
    doc_.title = o_.title.isEmpty() ? default_title() : o_.title;
    doc_.meta << tr("Generated %1").arg(format_datetime(loc_, m_.generated.toUTC()));
    if (!o_.generator.isEmpty()) doc_.meta << tr("by %1").arg(o_.generator);
    doc_.meta << tr("Run database: %1").arg(m_.db_path);
    doc_.warnings = m_.warnings;

    overview();
    configuration();
    stages();
    block_mse();
    accuracy();
    ablation();
    figures(QStringLiteral("attention"), tr("Attention maps"), &ReportRun::attention_figures);
    figures(QStringLiteral("segmentation"), tr("Segmentation"), &ReportRun::segmentation_figures);
    scaling();
    artifacts();
    return std::move(doc_);
  }

 private:
  const ReportModel& m_;
  const DocumentOptions& o_;
  QLocale loc_;
  ReportDocument doc_;

  QString default_title() const {
    if (m_.runs.size() == 1) return tr("ViT-AdaLA run report: %1").arg(m_.runs.front().name);
    QStringList names;
    for (const auto& r : m_.runs) names << r.label();
    return tr("ViT-AdaLA comparison: %1").arg(names.join(QStringLiteral(", ")));
  }

  ReportSection& add_section(const QString& id, const QString& title) {
    ReportSection s;
    s.id = id;
    s.title = title;
    doc_.sections.push_back(s);
    return doc_.sections.back();
  }

  static void paragraph(ReportSection& s, const QString& text) {
    ReportBlock b;
    b.kind = ReportBlock::Kind::Paragraph;
    b.text = text;
    s.blocks << b;
  }
  static void subheading(ReportSection& s, const QString& text) {
    ReportBlock b;
    b.kind = ReportBlock::Kind::Subheading;
    b.text = text;
    s.blocks << b;
  }
  static void notice(ReportSection& s, const QString& text, const QStringList& items = {}) {
    ReportBlock b;
    b.kind = ReportBlock::Kind::Notice;
    b.text = text;
    b.items = items;
    s.blocks << b;
  }
  static void table(ReportSection& s, const ReportTable& t) {
    ReportBlock b;
    b.kind = ReportBlock::Kind::Table;
    b.table = t;
    s.blocks << b;
  }
  void figure(ReportSection& s, const QImage& image, const QString& caption, const QString& name, QSize display = {}) {
    if (image.isNull()) return;
    ReportFigure f;
    f.number = doc_.figures.size() + 1;
    f.name = QStringLiteral("figure-%1-%2").arg(f.number, 2, 10, QLatin1Char('0')).arg(slug(name));
    f.caption = caption;
    f.image = image;
    if (display.isEmpty()) {
      // Pictures from files: at most the chart width and ~0.9 of its height x 1.6, ratio kept.
      const QSize box(o_.chart.size.width(), int(o_.chart.size.height() * 1.6));
      display = image.size().scaled(box, Qt::KeepAspectRatio);
      if (display.width() > image.width() && image.width() >= 200) display = image.size();
    }
    f.display = display;
    ReportBlock b;
    b.kind = ReportBlock::Kind::Figure;
    b.figure = doc_.figures.size();
    doc_.figures << f;
    s.blocks << b;
  }

  QString num(double v, int significant = 4) const { return finite(v) ? format_number(loc_, v, significant) : QString(); }
  QString pct(double v) const { return finite(v) ? format_percent(loc_, v) : QString(); }
  QString integer(qint64 v) const { return loc_.toString(v); }
  QString when(const QDateTime& t) const { return t.isValid() ? format_datetime(loc_, t) : QString(); }
  QString points(double v) const {
    if (!finite(v)) return {};
    const QString sign = v > 0 ? QStringLiteral("+") : (v < 0 ? QStringLiteral("−") : QString());
    return tr("%1 pt").arg(sign + loc_.toString(std::abs(v), 'f', 2));
  }

  QString status_text(const QString& status) const {
    if (status == QLatin1String("done")) return tr("done");
    if (status == QLatin1String("running")) return tr("running");
    if (status == QLatin1String("interrupted")) return tr("interrupted");
    if (status == QLatin1String("failed")) return tr("failed");
    if (status == QLatin1String("queued")) return tr("queued");
    return status;
  }

  QString eval_label(const QString& key) const {
    if (key == QLatin1String("teacher/top1")) return tr("Teacher (softmax attention), top-1");
    if (key == QLatin1String("feature_alignment/top1_teacher_head")) return tr("Student after Stage 2 (teacher's head), top-1");
    if (key == QLatin1String("fine_tuning/top1")) return tr("Student (linear attention), top-1");
    const QString stage = key.section('/', 0, 0), name = key.section('/', 1);
    const QString where = stage_index(stage) >= 0 ? stage_title(stage) : stage;
    if (name.compare(QLatin1String("miou"), Qt::CaseInsensitive) == 0) return tr("%1, mIoU").arg(where);
    return QStringLiteral("%1 · %2").arg(where, name);
  }
  QString eval_short_label(const QString& key) const {
    if (key == QLatin1String("teacher/top1")) return tr("Teacher");
    if (key == QLatin1String("feature_alignment/top1_teacher_head")) return tr("Student (Stage 2)");
    if (key == QLatin1String("fine_tuning/top1")) return tr("Student");
    return key.section('/', 1);
  }
  QString eval_value(const QString& key, double v) const { return is_fraction_key(key) ? pct(v) : num(v); }

  // --- sections --------------------------------------------------------------------------

  void overview() {
    ReportSection& s = add_section(QStringLiteral("overview"), tr("Overview"));
    if (!doc_.warnings.isEmpty()) {
      notice(s, tr("%n problem(s) found while building this report (the report is otherwise complete):", "",
                   int(doc_.warnings.size())),
             doc_.warnings);
    }
    struct Field {
      QString label;
      std::function<QString(const ReportRun&)> value;
    };
    const QVector<Field> fields = {
        {tr("Run"), [](const ReportRun& r) { return QStringLiteral("#%1").arg(r.id); }},
        {tr("Name"), [](const ReportRun& r) { return r.name; }},
        {tr("Status"), [this](const ReportRun& r) { return status_text(r.status); }},
        {tr("Created"), [this](const ReportRun& r) { return when(r.created); }},
        {tr("Started"), [this](const ReportRun& r) { return when(r.started); }},
        {tr("Ended"), [this](const ReportRun& r) { return when(r.ended); }},
        {tr("Duration"), [this](const ReportRun& r) { return finite(r.seconds) ? format_duration(loc_, r.seconds) : QString(); }},
        {tr("Device"), [](const ReportRun& r) { return r.device; }},
        {tr("LibTorch"), [](const ReportRun& r) { return r.torch_version; }},
        {tr("Workbench version"), [](const ReportRun& r) { return r.project_version; }},
        {tr("Stages"), [](const ReportRun& r) {
           QStringList names;
           for (const auto& st : r.stages) names << (st.index >= 0 ? QString::number(st.index) : st.stage);
           return names.join(QStringLiteral(", "));
         }},
        {tr("Tags"), [](const ReportRun& r) { return r.tags.join(QStringLiteral(", ")); }},
        {tr("Notes"), [](const ReportRun& r) { return r.notes; }},
    };
    ReportTable t;
    if (m_.comparison()) {
      t.header << tr("Field");
      for (const auto& r : m_.runs) t.header << r.label();
    } else {
      t.header << tr("Field") << tr("Value");
    }
    for (const auto& f : fields) {
      QStringList row{f.label};
      bool any = false;
      for (const auto& r : m_.runs) {
        row << f.value(r);
        any = any || !row.back().isEmpty();
      }
      if (any) t.rows << row;
    }
    table(s, t);
  }

  void configuration() {
    if (m_.config.isEmpty()) return;
    ReportSection& s = add_section(QStringLiteral("config"), tr("Configuration"));
    if (!m_.comparison()) {
      ReportTable t;
      t.header << tr("Setting") << tr("Value");
      for (const auto& row : m_.config) t.rows << QStringList{row.key, row.values.front()};
      table(s, t);
      return;
    }
    ReportTable diff, same;
    diff.header << tr("Setting");
    for (const auto& r : m_.runs) diff.header << r.label();
    same.header << tr("Setting") << tr("Value");
    for (const auto& row : m_.config) {
      if (row.differs) {
        QStringList cells{row.key};
        for (const auto& v : row.values) cells << (v.isEmpty() ? tr("(not set)") : v);
        diff.rows << cells;
      } else {
        same.rows << QStringList{row.key, row.values.front()};
      }
    }
    if (diff.rows.isEmpty()) {
      paragraph(s, tr("The runs share the same configuration."));
    } else {
      paragraph(s, tr("%n setting(s) differ between the runs:", "", int(diff.rows.size())));
      table(s, diff);
    }
    if (!same.rows.isEmpty()) {
      subheading(s, tr("Shared settings"));
      table(s, same);
    }
  }

  void stages() {
    bool any = false;
    for (const auto& r : m_.runs) any = any || !r.stages.isEmpty();
    if (!any) return;
    ReportSection& s = add_section(QStringLiteral("stages"), tr("Training stages"));
    for (const auto& r : m_.runs) {
      if (r.stages.isEmpty()) continue;
      if (m_.comparison()) subheading(s, r.label());
      ReportTable t;
      t.header << tr("Stage") << tr("Status") << tr("Steps") << tr("Wall time") << tr("Final loss") << tr("Best loss")
               << tr("Train acc.") << tr("Images/s");
      t.numeric = {false, false, true, true, true, true, true, true};
      t.widths = {28};  // the stage name on one line
      for (const auto& st : r.stages) {
        const QString steps = st.total_steps > 0 ? tr("%1 of %2").arg(integer(std::max<qint64>(st.last_step, 0)), integer(st.total_steps))
                                                 : (st.last_step >= 0 ? integer(st.last_step) : QString());
        t.rows << QStringList{stage_title(st.stage),
                              status_text(st.status),
                              steps,
                              finite(st.seconds) ? format_duration(loc_, st.seconds) : QString(),
                              num(st.final_loss),
                              num(st.best_loss),
                              pct(st.final_train_acc),
                              finite(st.mean_images_per_second) ? loc_.toString(st.mean_images_per_second, 'f', 1) : QString()};
      }
      drop_empty_columns(t, {3, 4, 5, 6, 7});
      table(s, t);
    }
    // Loss curves: one panel per stage, one curve per run.
    QVector<LineChart> panels;
    for (const QString& stage : stage_names()) {
      LineChart c;
      c.title = stage_title(stage);
      c.x_label = tr("step");
      c.y_label = tr("loss");
      for (const auto& r : m_.runs)
        if (const auto* st = r.stage(stage); st && !st->loss.isEmpty()) c.series << to_series(r.label(), st->loss);
      if (c.series.isEmpty()) continue;
      double lo = INFINITY, hi = 0;
      for (const auto& ser : c.series)
        for (double v : ser.y)
          if (finite(v) && v > 0) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
          }
      c.log_y = hi > 0 && lo > 0 && hi / lo > 20;
      panels << c;
    }
    if (!panels.isEmpty()) {
      ChartStyle style = o_.chart;
      const int columns = panels.size() == 1 ? 1 : 2;
      const int rows = (panels.size() + columns - 1) / columns;
      style.size.setHeight(rows == 1 ? o_.chart.size.height() : int(o_.chart.size.height() * 0.75 * rows));
      figure(s, render_line_chart_grid(panels, columns, style),
             m_.comparison() ? tr("Training loss per stage, all runs.") : tr("Training loss per stage."),
             QStringLiteral("loss"), style.size);
    }
  }

  void block_mse() {
    bool any = false;
    for (const auto& r : m_.runs) any = any || r.has_block_mse();
    if (!any) return;
    ReportSection& s = add_section(QStringLiteral("block-mse"), tr("Per-block alignment error"));
    paragraph(s, tr("Stage 1 compares each block's linear attention output with the teacher's softmax "
                    "attention; Stage 2 compares each block's hidden states with the teacher's. "
                    "Lower is better; the y axis is logarithmic."));
    for (const QString& stage : {QStringLiteral("attention_alignment"), QStringLiteral("feature_alignment")}) {
      QVector<const ReportRun*> with;
      for (const auto& r : m_.runs)
        if (const auto* st = r.stage(stage); st && !st->block_mse.isEmpty()) with << &r;
      if (with.isEmpty()) continue;
      const QString what = stage == QLatin1String("attention_alignment") ? tr("attention MSE") : tr("hidden-state MSE");
      subheading(s, stage_title(stage));
      for (const ReportRun* r : with) {
        const StageSummary* st = r->stage(stage);
        LineChart c;
        c.title = m_.comparison() ? QStringLiteral("%1 — %2").arg(r->label(), what) : what;
        c.x_label = tr("step");
        c.y_label = what;
        c.log_y = true;
        for (auto it = st->block_mse.begin(); it != st->block_mse.end(); ++it)
          c.series << to_series(tr("block %1").arg(it.key()), limited(it.value()));
        figure(s, render_line_chart(c, o_.chart),
               tr("%1 per block over the steps of %2 (run %3).").arg(what, stage_title(stage), r->label()),
               QStringLiteral("block-mse-%1-run%2").arg(stage).arg(r->id), o_.chart.size);
      }
      // Final value of every block, runs side by side.
      BarChart bars;
      bars.title = tr("Final %1 per block").arg(what);
      bars.x_label = tr("block");
      bars.y_label = what;
      int blocks = 0;
      for (const ReportRun* r : with) blocks = std::max(blocks, r->stage(stage)->block_mse.lastKey() + 1);
      for (int b = 0; b < blocks; ++b) bars.categories << QString::number(b);
      double lo = INFINITY, hi = 0;
      ReportTable t;
      t.header << tr("Block");
      for (const ReportRun* r : with) t.header << (m_.comparison() ? r->label() : tr("Final %1").arg(what));
      t.numeric = QVector<bool>(t.header.size(), true);
      QVector<QStringList> rows(blocks);
      for (int b = 0; b < blocks; ++b) rows[b] << QString::number(b);
      for (const ReportRun* r : with) {
        ChartSeries g;
        g.name = r->label();
        const auto& per_block = r->stage(stage)->block_mse;
        for (int b = 0; b < blocks; ++b) {
          const double v = per_block.contains(b) && !per_block[b].isEmpty() ? per_block[b].back().value : NAN;
          g.y << v;
          rows[b] << num(v);
          if (finite(v) && v > 0) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
          }
        }
        bars.groups << g;
      }
      bars.log_y = hi > 0 && lo > 0 && hi / lo > 50;
      ChartStyle style = o_.chart;
      style.size.setHeight(int(o_.chart.size.height() * 0.8));
      figure(s, render_bar_chart(bars, style), tr("Final %1 of every block (%2).").arg(what, stage_title(stage)),
             QStringLiteral("final-block-mse-%1").arg(stage), style.size);
      t.rows = rows;
      table(s, t);
    }
  }

  void accuracy() {
    std::set<QString> keys;
    for (const auto& r : m_.runs)
      for (auto it = r.evaluations.begin(); it != r.evaluations.end(); ++it) keys.insert(it.key());
    if (keys.empty()) return;
    QStringList ordered(keys.begin(), keys.end());
    std::stable_sort(ordered.begin(), ordered.end(), [](const QString& a, const QString& b) { return eval_order(a) < eval_order(b); });

    ReportSection& s = add_section(QStringLiteral("accuracy"), tr("Teacher vs student"));
    ReportTable t;
    t.header << tr("Evaluation");
    if (m_.comparison())
      for (const auto& r : m_.runs) t.header << r.label();
    else
      t.header << tr("Value");
    t.numeric = QVector<bool>(t.header.size(), true);
    t.numeric[0] = false;
    for (const auto& key : ordered) {
      QStringList row{eval_label(key)};
      for (const auto& r : m_.runs) row << (r.evaluations.contains(key) ? eval_value(key, r.evaluations[key]) : QString());
      t.rows << row;
    }
    // The gap the paper reports: student - teacher, in points.
    QStringList gap{tr("Gap to the teacher (student − teacher)")};
    bool any_gap = false;
    for (const auto& r : m_.runs) {
      const double teacher = r.evaluations.value(QStringLiteral("teacher/top1"), NAN);
      const double student = r.evaluations.value(QStringLiteral("fine_tuning/top1"), NAN);
      gap << points(100.0 * (student - teacher));
      any_gap = any_gap || !gap.back().isEmpty();
    }
    if (any_gap) t.rows << gap;
    table(s, t);

    bool any_iou = false, any_accuracy = false;
    for (const auto& key : ordered) {
      if (!is_fraction_key(key)) continue;
      (key.section('/', 1).contains(QLatin1String("iou"), Qt::CaseInsensitive) ? any_iou : any_accuracy) = true;
    }
    BarChart bars;
    bars.title = any_iou && any_accuracy ? tr("Top-1 accuracy and mIoU") : (any_iou ? tr("mIoU") : tr("Top-1 accuracy"));
    bars.y_label = tr("%");
    bars.percent = true;
    for (const auto& key : ordered)
      if (is_fraction_key(key)) bars.categories << eval_short_label(key);
    if (bars.categories.isEmpty()) return;
    for (const auto& r : m_.runs) {
      ChartSeries g;
      g.name = r.label();
      for (const auto& key : ordered)
        if (is_fraction_key(key)) g.y << r.evaluations.value(key, NAN);
      bars.groups << g;
    }
    ChartStyle style = o_.chart;
    style.size.setHeight(int(o_.chart.size.height() * 0.8));
    figure(s, render_bar_chart(bars, style), tr("Test-set accuracy of the teacher and the student."),
           QStringLiteral("accuracy"), style.size);
  }

  QString variant_label(const QString& v) const {
    if (v == QLatin1String("a")) return tr("(a) teacher (softmax)");
    if (v == QLatin1String("b")) return tr("(b) naive swap (Stage 3 only)");
    if (v == QLatin1String("c")) return tr("(c) Stage 2 + 3");
    if (v == QLatin1String("d")) return tr("(d) Stage 1 + 2 + 3 (ViT-AdaLA)");
    return QStringLiteral("(%1)").arg(v);
  }

  void ablation() {
    if (m_.ablations.isEmpty()) return;
    ReportSection& s = add_section(QStringLiteral("ablation"), tr("Ablation"));
    for (const auto& a : m_.ablations) {
      if (m_.ablations.size() > 1) subheading(s, a.folder);
      paragraph(s, tr("The four variants of the ablation \"%1\", trained on the same data with the same budget.").arg(a.folder));
      ReportTable t;
      t.header << tr("Variant") << tr("Run") << tr("Top-1") << tr("Gap to teacher");
      t.numeric = {false, false, true, true};
      for (const auto& row : a.rows)
        t.rows << QStringList{variant_label(row.variant), QStringLiteral("#%1").arg(row.run), pct(row.top1), points(row.gap_points)};
      table(s, t);
      if (!a.stage2_only.isEmpty() && !a.stage1_then_2.isEmpty()) {
        LineChart c;
        c.title = tr("Stage 2 feature MSE");
        c.x_label = tr("step");
        c.y_label = tr("loss");
        c.log_y = true;
        c.series << to_series(tr("(c) Stage 2 only"), a.stage2_only) << to_series(tr("(d) Stage 1 then 2"), a.stage1_then_2);
        figure(s, render_line_chart(c, o_.chart),
               tr("Stage 2 loss with and without Stage 1 attention alignment first."), QStringLiteral("ablation-stage2"),
               o_.chart.size);
        // Same statistic as `adala ablate`: how often (d) lies below (c) after the first 10%.
        const int n = std::min(a.stage2_only.size(), a.stage1_then_2.size());
        int after = 0, below = 0;
        const double cut = a.stage2_only.back().step / 10.0;
        for (int i = 0; i < n; ++i) {
          if (a.stage2_only[i].step <= cut) continue;
          ++after;
          below += a.stage1_then_2[i].value < a.stage2_only[i].value;
        }
        if (after > 0) paragraph(s, tr("(d) is below (c) at %1 of %2 logged points after the first 10% of steps.").arg(below).arg(after));
      }
      if (!a.directory.isEmpty()) paragraph(s, tr("Tables written by adala ablate: %1").arg(a.directory));
    }
  }

  void figures(const QString& id, const QString& title, QVector<ImageArtifact> ReportRun::*member) {
    bool any = false;
    for (const auto& r : m_.runs) any = any || !(r.*member).isEmpty();
    if (!any) return;
    ReportSection& s = add_section(id, title);
    for (const auto& r : m_.runs) {
      const auto& list = r.*member;
      if (list.isEmpty()) continue;
      if (m_.comparison()) subheading(s, r.label());
      for (const auto& f : list) {
        if (f.image.isNull()) {
          notice(s, f.artifact.exists ? tr("Figure file could not be read: %1").arg(f.artifact.path)
                                      : tr("Figure file is missing: %1").arg(f.artifact.path));
          continue;
        }
        figure(s, f.image, f.caption, QStringLiteral("%1-run%2-%3").arg(id).arg(r.id).arg(f.caption));
      }
    }
  }

  void scaling() {
    bool any = false;
    for (const auto& r : m_.runs) any = any || !r.scaling.isEmpty();
    if (!any) return;
    ReportSection& s = add_section(QStringLiteral("scaling"), tr("Resolution scaling"));
    for (const auto& r : m_.runs) {
      for (const auto& data : r.scaling) {
        if (m_.comparison() || r.scaling.size() > 1) subheading(s, QStringLiteral("%1 — %2").arg(r.label(), QFileInfo(data.artifact.path).fileName()));
        if (!data.problem.isEmpty()) {
          notice(s, data.artifact.exists ? tr("Scaling table could not be read: %1").arg(data.artifact.path)
                                         : tr("Scaling table is missing: %1").arg(data.artifact.path));
          continue;
        }
        scaling_table(s, r, data.table);
      }
    }
  }

  void scaling_table(ReportSection& s, const ReportRun& r, const CsvTable& csv) {
    struct Column {
      const char* key;
      QString title;
      bool numeric;
    };
    const QVector<Column> wanted = {
        {"preset", tr("Model"), false},           {"resolution", tr("Resolution"), true},
        {"tokens", tr("Tokens"), true},           {"mode", tr("Attention"), false},
        {"gmacs_model", tr("GMACs"), true},       {"ms_per_img", tr("ms / image"), true},
        {"imgs_per_s", tr("Images/s"), true},     {"peak_rss_mb", tr("Peak memory (MB)"), true},
        {"train_ms", tr("Training step (ms)"), true}, {"note", tr("Note"), false},
    };
    ReportTable t;
    QVector<int> source;
    QVector<int> optional;
    for (const auto& c : wanted) {
      const int i = csv.column(QLatin1String(c.key));
      if (i < 0) continue;
      if (source.size() >= 3) optional << source.size();
      source << i;
      t.header << c.title;
      t.numeric << c.numeric;
    }
    if (source.isEmpty()) {  // an unknown layout: show it as it is
      t.header = csv.header;
      t.numeric = QVector<bool>(csv.header.size(), false);
      for (int i = 0; i < csv.header.size(); ++i) source << i;
    }
    for (const auto& row : csv.rows) {
      QStringList cells;
      for (int k = 0; k < source.size(); ++k) {
        QString v = source[k] < row.size() ? row[source[k]] : QString();
        bool ok = false;
        const double d = v.toDouble(&ok);
        if (ok && t.numeric[k]) v = std::abs(d - std::round(d)) < 1e-9 && std::abs(d) < 1e12 ? loc_.toString(qint64(std::llround(d)))
                                                                                              : format_number(loc_, d, 4);
        cells << v;
      }
      t.rows << cells;
    }
    drop_empty_columns(t, optional);
    table(s, t);

    const int res = csv.column(QStringLiteral("resolution")), mode = csv.column(QStringLiteral("mode"));
    if (res < 0 || mode < 0) return;
    struct Metric {
      const char* key;
      QString title;
      bool log;
    };
    const QVector<Metric> metrics = {{"ms_per_img", tr("Latency (ms / image)"), true},
                                     {"peak_rss_mb", tr("Peak memory (MB)"), true},
                                     {"gmacs_model", tr("GMACs (whole model)"), true},
                                     {"imgs_per_s", tr("Throughput (images/s)"), true}};
    QVector<LineChart> panels;
    for (const auto& m : metrics) {
      const int col = csv.column(QLatin1String(m.key));
      if (col < 0) continue;
      LineChart c;
      c.title = m.title;
      c.x_label = tr("resolution (pixels)");
      c.y_label = m.title;
      c.log_y = m.log;
      std::map<QString, ChartSeries> by_mode;
      for (const auto& row : csv.rows) {
        bool ok1 = false, ok2 = false;
        const double x = row.value(res).toDouble(&ok1), y = row.value(col).toDouble(&ok2);
        if (!ok1 || !ok2) continue;
        auto& ser = by_mode[row.value(mode)];
        ser.name = row.value(mode);
        ser.x << x;
        ser.y << y;
      }
      for (auto& [name, ser] : by_mode) c.series << ser;
      if (!c.series.isEmpty()) panels << c;
    }
    if (panels.isEmpty()) return;
    ChartStyle style = o_.chart;
    const int columns = panels.size() == 1 ? 1 : 2;
    const int rows = (panels.size() + columns - 1) / columns;
    style.size.setHeight(rows == 1 ? o_.chart.size.height() : int(o_.chart.size.height() * 0.75 * rows));
    figure(s, render_line_chart_grid(panels, columns, style),
           tr("Cost of softmax and linear attention as the input resolution grows (run %1).").arg(r.label()),
           QStringLiteral("scaling-run%1").arg(r.id), style.size);
  }

  QString kind_text(const QString& kind) const {
    if (kind == QLatin1String("config")) return tr("configuration");
    if (kind == QLatin1String("checkpoint")) return tr("checkpoint");
    if (kind == QLatin1String("weights")) return tr("weights");
    if (kind == QLatin1String("report")) return tr("summary");
    if (kind == QLatin1String("attention_figure")) return tr("attention figure");
    if (kind == QLatin1String("segmentation_figure")) return tr("segmentation figure");
    if (kind == QLatin1String("scaling_csv")) return tr("scaling table");
    return kind;
  }

  QString size_text(qint64 bytes) const { return loc_.formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat); }

  void artifacts() {
    bool any = false;
    for (const auto& r : m_.runs) any = any || !r.artifacts.isEmpty();
    if (!any) return;
    ReportSection& s = add_section(QStringLiteral("artifacts"), tr("Files"));
    ReportTable t;
    if (m_.comparison()) t.header << tr("Run");
    t.header << tr("Kind") << tr("File") << tr("Size") << tr("Status");
    t.numeric = QVector<bool>(t.header.size(), false);
    t.numeric[t.header.size() - 2] = true;
    for (const auto& r : m_.runs) {
      for (const auto& a : r.artifacts) {
        QStringList row;
        if (m_.comparison()) row << QStringLiteral("#%1").arg(r.id);
        row << kind_text(a.kind) << a.path << size_text(a.bytes) << (a.exists ? tr("present") : tr("MISSING"));
        t.rows << row;
      }
    }
    table(s, t);
  }
};

}  // namespace

const ReportSection* ReportDocument::section(const QString& id) const {
  for (const auto& s : sections)
    if (s.id == id) return &s;
  return nullptr;
}

QStringList ReportDocument::section_ids() const {
  QStringList ids;
  for (const auto& s : sections) ids << s.id;
  return ids;
}

const QStringList& all_section_ids() {
  static const QStringList ids = {QStringLiteral("overview"),  QStringLiteral("config"),       QStringLiteral("stages"),
                                  QStringLiteral("block-mse"), QStringLiteral("accuracy"),     QStringLiteral("ablation"),
                                  QStringLiteral("attention"), QStringLiteral("segmentation"), QStringLiteral("scaling"),
                                  QStringLiteral("artifacts")};
  return ids;
}

QString format_number(const QLocale& locale, double value, int significant) {
  if (!std::isfinite(value)) return std::isnan(value) ? QStringLiteral("NaN") : (value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞"));
  const double a = std::abs(value);
  if (a != 0 && (a < 1e-3 || a >= 1e6)) return locale.toString(value, 'e', significant - 1);
  // Fixed notation with `significant` significant digits, trailing zeros kept short.
  const int digits_before = a >= 1 ? int(std::floor(std::log10(a))) + 1 : 0;
  int decimals = std::max(0, significant - digits_before);
  if (a < 1 && a > 0) decimals = significant - 1 - int(std::floor(std::log10(a)));
  return locale.toString(value, 'f', std::min(decimals, 8));
}

QString format_percent(const QLocale& locale, double fraction, int decimals) {
  if (!std::isfinite(fraction)) return {};
  return locale.toString(100.0 * fraction, 'f', decimals) + locale.percent();
}

QString format_duration(const QLocale& locale, double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return {};
  if (seconds < 60) return AdalaReport::tr("%1 s").arg(locale.toString(seconds, 'f', seconds < 10 ? 2 : 1));
  const qint64 total = qint64(std::llround(seconds));
  const qint64 h = total / 3600, m = (total % 3600) / 60, s = total % 60;
  if (h == 0) return AdalaReport::tr("%1 min %2 s").arg(m).arg(s, 2, 10, QLatin1Char('0'));
  return AdalaReport::tr("%1 h %2 min").arg(locale.toString(h)).arg(m, 2, 10, QLatin1Char('0'));
}

QString format_datetime(const QLocale& locale, const QDateTime& utc) {
  if (!utc.isValid()) return {};
  return locale.toString(utc.toLocalTime(), QLocale::ShortFormat);
}

QString stage_title(const QString& stage) {
  if (stage == QLatin1String("teacher")) return AdalaReport::tr("Stage 0 · teacher pretraining");
  if (stage == QLatin1String("attention_alignment")) return AdalaReport::tr("Stage 1 · attention alignment");
  if (stage == QLatin1String("feature_alignment")) return AdalaReport::tr("Stage 2 · feature alignment");
  if (stage == QLatin1String("fine_tuning")) return AdalaReport::tr("Stage 3 · fine-tuning");
  return stage;
}

ReportDocument build_report_document(const ReportModel& model, const DocumentOptions& options) {
  return DocumentBuilder(model, options).build();
}

}  // namespace adala::report
