<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AdalaReport</name>
    <message numerus="yes">
        <source>%n problem(s) found while building this report (the report is otherwise complete):</source>
        <translation>
            <numerusform>%n problem found while building this report (the report is otherwise complete):</numerusform>
            <numerusform>%n problems found while building this report (the report is otherwise complete):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n setting(s) differ between the runs:</source>
        <translation>
            <numerusform>%n setting differs between the runs:</numerusform>
            <numerusform>%n settings differ between the runs:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>adala::gui::RunProcess</name>
    <message numerus="yes">
        <source>%n processes</source>
        <translation>
            <numerusform>%n process</numerusform>
            <numerusform>%n processes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>adala::report_gui::ExportReportDialog</name>
    <message numerus="yes">
        <source>Report of %n run(s): %1</source>
        <translation>
            <numerusform>Report of %n run: %1</numerusform>
            <numerusform>Report of %n runs: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The report was written to %1, with %n problem(s):</source>
        <translation>
            <numerusform>The report was written to %1, with %n problem:</numerusform>
            <numerusform>The report was written to %1, with %n problems:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>adala::widgets::AttentionPlanForm</name>
    <message numerus="yes">
        <source>%n block(s): %1</source>
        <translation>
            <numerusform>%n block: %1</numerusform>
            <numerusform>%n blocks: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>adala::widgets::FeatureView</name>
    <message numerus="yes">
        <source>Top-1 on %n evaluation image(s) at each resolution.</source>
        <translation>
            <numerusform>Top-1 on %n evaluation image at each resolution.</numerusform>
            <numerusform>Top-1 on %n evaluation images at each resolution.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>adala::widgets::PlanFrontierView</name>
    <message numerus="yes">
        <source>%n plan(s) of %1. They share no resolution at which each has a cost: measure them with adala plan CONFIG --res R.</source>
        <translation>
            <numerusform>%n plan of %1. It has no resolution with a cost: measure it with adala plan CONFIG --res R.</numerusform>
            <numerusform>%n plans of %1. They share no resolution at which each has a cost: measure them with adala plan CONFIG --res R.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n plan(s) of %1 at %2 px. Frontier, cheapest first: %3</source>
        <translation>
            <numerusform>%n plan of %1 at %2 px. Frontier, cheapest first: %3</numerusform>
            <numerusform>%n plans of %1 at %2 px. Frontier, cheapest first: %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>adala::widgets::RunBrowser</name>
    <message numerus="yes">
        <source>benchmark · %n point(s)</source>
        <translation>
            <numerusform>benchmark · %n point</numerusform>
            <numerusform>benchmark · %n points</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>adala::widgets::SegmentationViewer</name>
    <message numerus="yes">
        <source>%n training scene(s)</source>
        <translation>
            <numerusform>%n training scene</numerusform>
            <numerusform>%n training scenes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n validation scene(s) of %1 to %2 garments</source>
        <translation>
            <numerusform>%n validation scene of %1 to %2 garments</numerusform>
            <numerusform>%n validation scenes of %1 to %2 garments</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>head probed %n epoch(s) first</source>
        <translation>
            <numerusform>head probed %n epoch first</numerusform>
            <numerusform>head probed %n epochs first</numerusform>
        </translation>
    </message>
</context>
</TS>
