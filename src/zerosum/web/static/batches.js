// The batches view: a results folder of `zerosum batch`, its progress (polled while flops are left)
// and its aggregate report (GET /api/batches: zerosum.batch.report.aggregate as is), a row a flop,
// sortable; a flop with a saved solution opens in the explorer (POST /api/batches/open, then the
// explorer's own open()).
"use strict";

(function () {
  const el = zs.el;
  const POLL_MS = 3000;
  let root, progressBox, reportBox;
  let view = null;          // the last GET /api/batches answer
  let folder = "";          // the folder shown
  let poll = null;          // the pending refresh's timer
  let sortKey = "order", sortDir = 1;

  function style() {
    return el("style", {}, `
#view-batches .batches-form { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin-bottom: .8em; }
#batches-folder { min-width: 28em; max-width: 100%; }
#batches-progress { margin: .4em 0 .8em; }
#batches-progress progress { width: min(480px, 90vw); height: 1.1em; vertical-align: middle; margin-right: .6em; }
#view-batches th.sortable { cursor: pointer; user-select: none; white-space: nowrap; }
#view-batches th.sorted[data-dir=asc]::after { content: " ▲"; }
#view-batches th.sorted[data-dir=desc]::after { content: " ▼"; }
#view-batches td { font-variant-numeric: tabular-nums; }
#view-batches tfoot td, #batches-groups tr.total td { font-weight: 600; border-top: 2px solid var(--line); }
#view-batches .scroll { overflow-x: auto; max-width: 100%; }
#batches-table td:nth-child(3), #batches-table th:nth-child(3) { text-align: left; }
#view-batches h3 { font-size: 1rem; margin: 1em 0 .3em; }
#view-batches button.batches-open { font-size: .8rem; padding: .1rem .5rem; }
@media (max-width: 700px) { #batches-folder { min-width: 0; width: 100%; box-sizing: border-box; } }
`);
  }

  function init() {
    root = document.getElementById("view-batches");
    const input = el("input", { type: "text", id: "batches-folder",
      placeholder: "results folder on the server (the --out of zerosum batch)",
      onkeydown: (e) => { if (e.key === "Enter") show_(); } });
    progressBox = el("div", { id: "batches-progress" });
    reportBox = el("div", { id: "batches-report" });
    root.append(style(),
      el("p", {}, "A batch's results folder, as ", el("code", {}, "zerosum batch SPOT --flops SET --out FOLDER"),
        " writes it (", el("code", {}, "zerosum report FOLDER"), " reads the same): its progress, refreshed while flops are left, ",
        "and the weighted report of player 0's root actions."),
      el("div", { class: "batches-form" }, input, el("button", { id: "batches-load", class: "primary", onclick: show_ }, "Show")),
      progressBox, reportBox);
  }

  function show_() {
    folder = document.getElementById("batches-folder").value.trim();
    view = null;
    progressBox.replaceChildren();
    reportBox.replaceChildren();
    refresh(false);
  }

  // one GET; a background refresh (quiet) neither clears nor sets the message line
  async function refresh(quiet) {
    clearTimeout(poll);
    const asked = folder;
    let answer;
    try {
      answer = await zs.api("/api/batches?folder=" + encodeURIComponent(asked), { quiet });
    } catch (e) {
      if (quiet && asked === folder) poll = setTimeout(() => refresh(true), POLL_MS);
      return;
    }
    if (asked !== folder) return;  // another folder was asked for meanwhile
    view = answer;
    render();
    if (!view.progress.complete) poll = setTimeout(() => refresh(true), POLL_MS);
  }

  function render() {
    const p = view.progress;
    const when = p.updated ? ` — last flop written ${new Date(p.updated * 1000).toLocaleTimeString()}` : "";
    progressBox.replaceChildren(
      el("div", {}, el("b", {}, view.name || "batch"), ` — ${view.folder} — flops ${view.flop_set}, target ${view.target_pct} % of the pot`),
      el("div", {},
        el("progress", { id: "batches-bar", max: String(Math.max(p.total, 1)), value: String(p.done) }),
        el("span", { id: "batches-count", "data-done": p.done, "data-total": p.total },
          `${p.done} of ${p.total} flops done` + (p.complete ? "" : ` (${p.left} left; refreshed every ${POLL_MS / 1000} s)`) + when)));
    if (!view.report) {
      reportBox.replaceChildren(el("p", { class: "muted" }, "no flop finished yet"));
      return;
    }
    reportBox.replaceChildren(flopTable(view.report), groupTable(view.report));
  }

  function actionName(a, pot) {
    if (a === "c") return "check";
    if (a === "a") return "all-in";
    if (a[0] === "b" || a[0] === "r") {
      const x = Number(a.slice(1));
      return Number.isFinite(x) ? `bet ${x} (${Math.round(100 * x / pot)} %)` : a;
    }
    return a;
  }

  const pct = (x, d = 1) => (100 * x).toFixed(d);

  function columns(report) {
    return [["order", "flop"], ["weight", "weight"], ["group", "texture"],
      ...report.actions.map((a, k) => ["a" + k, actionName(a, report.pot) + " %"]),
      ["bet", "bet %"], ["ev", "EV"], ["exploitability_pct", "expl. % pot"], ["iterations", "iters"], ["solution", "solution"]];
  }

  function flopRows(report) {
    return report.rows.map((r, i) => {
      const row = { order: i, flop: r.flop, weight: r.weight, group: r.group, bet: r.bet, ev: r.ev,
        exploitability_pct: r.exploitability_pct, iterations: r.iterations, solution: r.solution ? 1 : 0 };
      report.actions.forEach((a, k) => { row["a" + k] = r.frequencies[a]; });
      return row;
    });
  }

  function cells(r, report) {
    return [el("td", {}, r.flop), el("td", {}, zs.fmt(Number(r.weight), 1)), el("td", {}, r.group),
      report.actions.map((a, k) => el("td", { "data-v": r["a" + k] }, pct(r["a" + k]))),
      el("td", { "data-v": r.bet }, pct(r.bet)), el("td", { "data-v": r.ev }, zs.fmt(r.ev, 3)),
      el("td", { "data-v": r.exploitability_pct }, zs.fmt(r.exploitability_pct, 3)),
      el("td", {}, Number.isInteger(r.iterations) ? String(r.iterations) : zs.fmt(r.iterations, 1))].flat();
  }

  function flopTable(report) {
    const cols = columns(report);
    const head = el("tr", {}, cols.map(([key, name]) => el("th", { "data-key": key, class: "sortable",
      onclick: () => { if (sortKey === key) sortDir = -sortDir; else { sortKey = key; sortDir = key === "order" || key === "group" ? 1 : -1; } fill(); } },
      name)));
    const body = el("tbody");
    const t = report.total;
    const total = { flop: "TOTAL", weight: t.weight, group: `weighted, ${t.flops} flops`, bet: t.bet, ev: t.ev,
      exploitability_pct: t.exploitability_pct, iterations: t.iterations };
    report.actions.forEach((a, k) => { total["a" + k] = t.frequencies[a]; });
    const table = el("table", { id: "batches-table" }, el("thead", {}, head), body,
      el("tfoot", {}, el("tr", { id: "batches-total" }, cells(total, report), el("td"))));
    const rows = flopRows(report);
    function fill() {
      for (const th of head.children) {
        th.classList.toggle("sorted", th.dataset.key === sortKey);
        th.dataset.dir = th.dataset.key === sortKey ? (sortDir > 0 ? "asc" : "desc") : "";
      }
      const key = sortKey in (rows[0] || {}) ? sortKey : "order";
      const shown = rows.slice().sort((x, y) => {
        const a = x[key], b = y[key];
        const c = typeof a === "string" ? a.localeCompare(b) : Number(a) - Number(b);
        return (c || x.order - y.order) * sortDir;
      });
      body.replaceChildren(...shown.map((r) => el("tr", { "data-flop": r.flop }, cells(r, report),
        el("td", {}, r.solution ? el("button", { class: "batches-open", "data-flop": r.flop, onclick: () => openFlop(r.flop) }, "open")
          : el("span", { class: "muted" }, "-")))));
    }
    fill();
    return el("div", {}, el("h3", {}, `Player 0's root actions on each flop (${report.rows.length} flops; pot ${report.pot})`),
      el("div", { class: "scroll" }, table));
  }

  function groupTable(report) {
    const row = (name, t, attrs) => el("tr", attrs, el("td", {}, name), el("td", {}, String(t.flops)),
      el("td", {}, zs.fmt(Number(t.weight), 1)), report.actions.map((a) => el("td", {}, pct(t.frequencies[a]))),
      el("td", {}, pct(t.bet)), el("td", {}, zs.fmt(t.ev, 3)), el("td", {}, zs.fmt(t.exploitability_pct, 3)),
      el("td", {}, zs.fmt(t.iterations, 1)));
    const head = el("tr", {}, ["texture", "flops", "weight", ...report.actions.map((a) => actionName(a, report.pot) + " %"),
      "bet %", "EV", "expl. % pot", "iters"].map((h) => el("th", {}, h)));
    return el("div", {}, el("h3", {}, "By texture (weighted)"),
      el("div", { class: "scroll" }, el("table", { id: "batches-groups" }, el("thead", {}, head),
        el("tbody", {}, Object.entries(report.by_group).map(([g, t]) => row(g, t, { "data-group": g })),
          row("TOTAL", report.total, { class: "total" })))));
  }

  // the flop's saved solution, loaded on the server into the explorer's store, shown by the explorer
  async function openFlop(flop) {
    zs.showInfo(`loading flop ${flop}'s solution (the whole tree, evaluated exactly)…`);
    let summary;
    try {
      summary = await zs.api("/api/batches/open", { method: "POST", body: { folder, flop }, quiet: true });
    } catch (e) {
      zs.showError(`cannot open flop ${flop}: ${e.message}`);
      return;
    }
    zs.clearMessage();
    zs.showView("explore");
    await zs.views.explore.open(summary);
  }

  zs.views.batches = { init, show() {}, refresh: () => refresh(true) };
})();
