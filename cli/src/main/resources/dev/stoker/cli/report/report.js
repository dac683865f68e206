// Draws stoker profile's report from the JSON in #stoker-data. Every sum is made in Java
// (ProfileReport); this only lays out text and hands series to uPlot. Each chart's box gets
// data-drawn="true" once uPlot has drawn it, and <body> counts them (data-charts-expected,
// data-charts-drawn): what the headless check reads.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("stoker-data").textContent);
  var palette = ["#2271b1", "#d63638", "#00a32a", "#dba617", "#8c5fc7", "#e26f00", "#0a8a8a", "#c2185b",
                 "#5b6770", "#7cb342", "#3949ab", "#a1887f"];
  var partColors = { "read": "#2271b1", "decode": "#8c5fc7", "transform": "#0a8a8a", "memory wait": "#d63638",
                     "other fetch": "#dba617", "collate": "#00a32a", "copy": "#646970",
                     "consumer wait": "#e26f00" };
  var body = document.body;
  var expected = 0;
  var drawn = 0;
  body.setAttribute("data-charts-drawn", "0");

  function byId(id) { return document.getElementById(id); }
  function fmt(v, digits) { return v == null || isNaN(v) ? "–" : Number(v).toFixed(digits); }
  function mb(bytes) { return bytes < 0 ? "not known" : (bytes / 1e6).toFixed(1) + " MB"; }
  function add(parent, tag, text, cls) {
    var e = document.createElement(tag);
    if (text != null) { e.textContent = text; }
    if (cls) { e.className = cls; }
    parent.appendChild(e);
    return e;
  }

  /** One uPlot chart in a new box under `parent`, counted when it first draws. */
  function chart(parent, name, opts, series) {
    expected++;
    body.setAttribute("data-charts-expected", String(expected));
    var box = add(parent, "div", null, "chart");
    box.setAttribute("data-chart", name);
    box.setAttribute("data-drawn", "false");
    var width = Math.max(320, Math.min(1130, (parent.clientWidth || 1130) - 4));
    opts.width = opts.width || width;
    opts.height = opts.height || 240;
    opts.hooks = { draw: [function () {
      if (box.getAttribute("data-drawn") !== "true") {
        box.setAttribute("data-drawn", "true");
        drawn++;
        body.setAttribute("data-charts-drawn", String(drawn));
      }
    }] };
    return new uPlot(opts, series, box);
  }

  function line(label, color, extra) {
    var s = { label: label, stroke: color, width: 1.5, points: { show: false } };
    for (var k in extra) { s[k] = extra[k]; }
    return s;
  }

  var bars = uPlot.paths.bars({ size: [0.9, 40], align: 1 });
  var centredBars = uPlot.paths.bars({ size: [0.9, 40] });
  var numberX = { x: { time: false } };

  // --- text ---
  byId("title").textContent = "stoker profile: " + data.workload + " " + data.title + ", " + data.configuration;
  byId("subtitle").textContent = data.summary + ". " + data.batches + " batches in " + fmt(data.activeSeconds, 2)
      + " s, a step of " + fmt(data.stepMillis, 1) + " ms per batch.";
  var verdict = byId("verdict");
  verdict.className = data.verdict.kind.replace(/[^a-z]+/g, "-");
  verdict.querySelector(".kind").textContent = data.verdict.kind;
  verdict.querySelector(".reason").textContent = data.verdict.headline;
  verdict.querySelector(".next").textContent = "Next step to try: " + data.verdict.nextStep;

  var figures = byId("figures");
  function figure(value, label) {
    var f = add(figures, "div", null, "figure");
    add(f, "div", value, "value");
    add(f, "div", label, "label");
  }
  figure(fmt(100 * data.waitShare, 1) + " %", "of the loop spent waiting for data");
  figure(fmt(data.firstBatchMillis, 0) + " ms", "to the first batch of a pass (start-up)");
  figure(fmt(100 * data.workerBusyShare, 0) + " %", "workers' busy share");
  figure(String(data.numWorkers), "workers");
  figure(String(data.prefetchFactor), "prefetch factor" + (data.ioConcurrency > 0 ? ", ioConcurrency " + data.ioConcurrency : ""));
  figure(data.coresUsed < 0 ? "–" : fmt(data.coresUsed, 1) + " of " + data.cores, "cores used");
  figure(mb(data.memory.boundBytes), "memory bound (in flight)");
  figure(mb(data.memory.poolPeakBytes), "pool's peak");

  // --- the consumer, batch by batch ---
  var c = data.consumer;
  chart(byId("chart-consumer"), "consumer", {
    scales: numberX,
    axes: [{ label: "batch taken" }, { label: "ms" }],
    series: [{ label: "batch" }, line("wait ms", "#d63638"), line("step ms", "#2271b1")]
  }, [c.step, c.waitMillis, c.stepMillis]);

  // --- workers over time ---
  var w = data.workers;
  var workerSeries = [{ label: "s" }];
  var workerData = [w.seconds];
  w.names.forEach(function (name, i) {
    workerSeries.push(line(name + " (" + fmt(w.busySeconds[i], 2) + " s busy)", palette[i % palette.length],
        { value: function (u, v) { return v == null ? "–" : fmt(100 * v, 0) + " %"; } }));
    workerData.push(w.busy[i]);
  });
  chart(byId("chart-workers"), "workers", {
    scales: { x: { time: false }, y: { range: [0, 1.05] } },
    axes: [{ label: "seconds" }, { label: "busy share", values: function (u, vs) { return vs.map(function (v) { return fmt(100 * v, 0) + "%"; }); } }],
    series: workerSeries
  }, workerData);

  // --- queue and pool over time ---
  var o = data.overTime;
  chart(byId("chart-queue"), "queue", {
    // from 0, and at least to 1: an empty queue is a flat line at the bottom, not a line mid-chart
    scales: { x: { time: false }, y: { range: function (u, min, max) { return [0, Math.max(1, max)]; } },
              share: { range: [0, 1] } },
    axes: [{ label: "seconds" }, { label: "batches ready", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] },
           { scale: "share", side: 1, grid: { show: false }, label: "wait share",
             values: function (u, vs) { return vs.map(function (v) { return fmt(100 * v, 0) + "%"; }); } }],
    series: [{ label: "s" }, line("batches ready", "#2271b1", { paths: uPlot.paths.stepped({ align: 1 }) }),
             line("consumer wait share (last second)", "#d63638", { scale: "share" })]
  }, [o.seconds, o.ready, o.waitShare]);
  chart(byId("chart-pool"), "pool", {
    scales: numberX,
    axes: [{ label: "seconds" }, { label: "MB" }],
    series: [{ label: "s" }, line("pool lent MB", "#2271b1"), line("pool held MB", "#00a32a"),
             line("memory bound MB", "#d63638", { dash: [6, 4] })]
  }, [o.seconds, o.lentMB, o.reservedMB, o.boundMB]);

  // --- stages per batch, stacked ---
  var parts = Object.keys(data.perBatch.parts);
  var n = data.perBatch.batch.length;
  var stacked = [];
  var running = new Array(n).fill(0);
  parts.forEach(function (p) {
    var raw = data.perBatch.parts[p];
    running = running.map(function (v, i) { return v + raw[i]; });
    stacked.push(running.slice());
  });
  // uPlot draws series in order: the tallest (the sum of every part) first, each part's top on it
  var stageSeries = [{ label: "batch" }];
  var stageData = [data.perBatch.batch];
  for (var i = parts.length - 1; i >= 0; i--) {
    (function (p, raw) {
      stageSeries.push({ label: p + " ms", stroke: partColors[p], fill: partColors[p], width: 0, paths: centredBars,
                         points: { show: false }, value: function (u, v, si, idx) { return idx == null ? "–" : fmt(raw[idx], 2); } });
    })(parts[i], data.perBatch.parts[parts[i]]);
    stageData.push(stacked[i]);
  }
  chart(byId("chart-stages"), "stages", {
    height: 280,
    scales: numberX,
    axes: [{ label: "batch made" }, { label: "ms (stacked)" }],
    series: stageSeries
  }, stageData);

  // --- histograms ---
  var hists = byId("histograms");
  Object.keys(data.histograms).forEach(function (name) {
    var h = data.histograms[name];
    var cell = add(hists, "div");
    add(cell, "h3", name + ": batches per ms bin");
    chart(cell, "histogram " + name, {
      width: 360, height: 180,
      scales: numberX,
      legend: { show: false },
      axes: [{ label: "ms" }, { label: "batches" }],
      series: [{ label: "ms" }, { label: name, stroke: partColors[name] || "#555", fill: partColors[name] || "#555",
                                  width: 0, paths: bars, points: { show: false } }]
    }, [h.fromMillis, h.count]);
  });

  // --- memory bound and totals ---
  var m = data.memory;
  var mem = byId("memory");
  add(mem, "p", "In flight at most: " + m.bound + ". The pool's budget is " + mb(m.poolBudgetBytes)
      + " (the hard limit); it held " + mb(m.poolPeakBytes) + " at its peak, took " + m.poolAllocations
      + " blocks from memory and served " + m.poolReuses + " requests from returned ones.");
  var k = data.counters;
  add(mem, "p", "The loader made " + k.batches + " batches of " + k.samples + " samples; "
      + k.failedBatches + " failed, " + k.skippedSamples + " samples were skipped.");
  var tbody = byId("stages").querySelector("tbody");
  data.stages.forEach(function (s) {
    if (s.count === 0 && s.stage !== "fetch") { return; }
    var tr = add(tbody, "tr");
    add(tr, "td", s.stage, s.part ? "part" : null);
    add(tr, "td", fmt(s.seconds, 3));
    add(tr, "td", String(s.count));
    add(tr, "td", fmt(s.meanMillis, 3));
  });
  var footer = byId("footer");
  data.notTimed.forEach(function (t) { add(footer, "p", "Not timed: " + t + "."); });
  add(footer, "p", "Trace: " + data.trace.events + " spans" + (data.trace.dropped > 0
      ? ", " + data.trace.dropped + " more dropped (raise --trace-events): the per-batch charts stop where the trace did."
      : ".") + " Made by stoker profile --report; " + data.chartLibrary + " (MIT licence) draws the charts.");
})();
