// The solve-and-watch view: start runs, watch their NashConv curves grow (log-log), stop, resume,
// download, explore.  The runs live on the server (/api/runs); this page polls while any runs.
"use strict";

(function () {
  const el = zs.el;
  // a run's colour is its own, from its id (r1, r2, ...): it never moves to another run when one is
  // deleted.  The first 12 from a palette of distinct colours; past them hues a golden angle apart
  // (every later run a colour of its own) at three lightnesses.
  const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#393b79", "#ad494a"];
  function colorOf(id) {
    const n = Number(String(id).replace(/^\D+/, "")) || 0;
    if (n >= 1 && n <= COLORS.length) return COLORS[n - 1];
    const hue = ((n * 137.508) % 360).toFixed(1);
    return `hsl(${hue}, 70%, ${[38, 50, 30][n % 3]}%)`;
  }
  let games = [];
  let offered = { "history-tree": [], holdem: [] };  // GET /api/algorithms: which algorithms run where
  let defaults = { "history-tree": "cfr+", holdem: "dcfr" };
  let runs = [];          // the server's runs, with curves
  let timer = null;

  function section() { return document.getElementById("view-solve"); }

  async function init() {
    const root = section();
    root.append(
      el("p", {}, "Solve a game with a CFR variant and watch the exact NashConv of the average (solid) and ",
        "current (dashed) strategies fall; several runs share the plot. Hold'em (a spot file pasted or uploaded, ",
        "or the board and ranges fields) solves on the public tree, to a target exploitability in % of the pot."),
      el("form", { id: "solve-form", class: "row", onsubmit: (e) => { e.preventDefault(); start(); } },
        el("label", {}, "game", el("select", { id: "solve-game", onchange: showParams })),
        el("span", { id: "solve-params", class: "row" }),
        el("label", {}, "algorithm", el("select", { id: "solve-algorithm" })),
        el("label", {}, "iterations", el("input", { id: "solve-iterations", type: "number", min: "1", value: "1000" })),
        el("span", { id: "solve-holdem", class: "row", hidden: true },
          el("label", { title: "stop once the exploitability (NashConv / 2) is at most this percent of the starting pot" },
            "target (% of the pot)", el("input", { id: "solve-target", type: "number", min: "0", step: "any",
              value: "0.5", size: "6" })),
          el("label", {}, "threads", el("input", { id: "solve-threads", type: "number", min: "1", max: "2",
            value: "1", size: "3" }))),
        el("button", { id: "solve-start", type: "submit" }, "Start")),
      // hold'em: a spot file (the JSON of zerosum solve holdem --spot), pasted or uploaded; left
      // empty, the board, pot, stack and ranges fields above make the game
      el("div", { id: "solve-spot-box", class: "row", hidden: true },
        el("label", { class: "grow" }, "spot JSON (paste a --spot file, or upload one; empty: the fields above)",
          el("textarea", { id: "solve-spot", rows: "6", cols: "70", spellcheck: "false",
            placeholder: '{"board": "Td9d6hQc", "pot": 200, "stack": 900, "ranges": ["...", "..."], "streets": {...}}' })),
        el("label", {}, "spot file", el("input", { id: "solve-spot-file", type: "file", accept: ".json,application/json",
          onchange: readSpotFile }))),
      el("div", { id: "solve-plot" }),
      el("div", { id: "solve-plot-holdem" }),
      el("table", { id: "solve-runs", class: "runs" },
        el("thead", {}, el("tr", {}, ["", "run", "game", "algorithm", "iteration", "NashConv (average)",
          "NashConv (current)", "% of the pot", "ETA", "status", ""].map((h) => el("th", {}, h)))),
        el("tbody", {})));
    try {
      games = (await zs.api("/api/games")).games;
      const answer = await zs.api("/api/algorithms");
      offered = answer.offered || { "history-tree": answer.algorithms, holdem: answer.algorithms };
      defaults = answer.defaults || defaults;
      if (answer.max_threads) document.getElementById("solve-threads").max = String(answer.max_threads);
      const gs = document.getElementById("solve-game");
      for (const g of games) gs.append(el("option", { value: g.name, title: g.description }, g.name));
      gs.value = "kuhn";
      showParams();
    } catch (e) { /* the message line says it */ }
    await refresh();
  }

  function isHoldem() { return document.getElementById("solve-game").value === "holdem"; }

  // the algorithms the chosen game runs with (hold'em: the public tree's full-width variants),
  // keeping the one chosen where it is still offered
  function showAlgorithms() {
    const kind = isHoldem() ? "holdem" : "history-tree";
    const as = document.getElementById("solve-algorithm");
    const chosen = as.value, names = offered[kind] || [];
    if (as.dataset.kind !== kind) {
      as.replaceChildren(...names.map((a) => el("option", { value: a }, a)));
      as.dataset.kind = kind;
      as.value = defaults[kind] && names.includes(defaults[kind]) ? defaults[kind] : (names.includes(chosen) ? chosen : names[0]);
    }
  }

  function readSpotFile(event) {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => { document.getElementById("solve-spot").value = String(reader.result); };
    reader.onerror = () => zs.showError(`cannot read ${file.name}`);
    reader.readAsText(file);
  }

  function showParams() {
    const holdem = isHoldem();
    document.getElementById("solve-holdem").hidden = !holdem;
    document.getElementById("solve-spot-box").hidden = !holdem;
    showAlgorithms();
    const box = document.getElementById("solve-params");
    box.replaceChildren();
    const game = games.find((g) => g.name === document.getElementById("solve-game").value);
    for (const p of (game ? game.params : [])) {
      const value = p.default === null || p.default === undefined ? "" :
        (typeof p.default === "object" ? JSON.stringify(p.default) : String(p.default));
      box.append(el("label", {}, p.name + (p.required ? " *" : ""),
        el("input", { class: "solve-param", name: p.name, value, size: "10",
          placeholder: p.required ? "required" : "" })));
    }
  }

  async function start() {
    const params = {};
    for (const input of document.querySelectorAll("#solve-params input")) {
      if (input.value.trim() !== "") params[input.name] = input.value.trim();
    }
    const body = {
      game: document.getElementById("solve-game").value, params,
      algorithm: document.getElementById("solve-algorithm").value,
      iterations: Number(document.getElementById("solve-iterations").value),
    };
    if (isHoldem()) {
      const spot = document.getElementById("solve-spot").value.trim();
      if (spot) {  // the spot makes the game (the server says in one line what is wrong with it)
        body.spot = spot;
        body.params = {};
      }
      const target = document.getElementById("solve-target").value.trim();
      if (target !== "") body.target_pot_fraction = Number(target) / 100;
      body.threads = Number(document.getElementById("solve-threads").value || 1);
    }
    try {
      await zs.api("/api/runs", { method: "POST", body });
    } catch (e) { return; }
    await refresh();
  }

  // a background poll: quiet (the message line belongs to what the person did), and only while
  // this view is shown (the others keep their own requests)
  async function refresh() {
    if (section().hidden) { timer = null; return; }
    let list;
    try { list = (await zs.api("/api/runs", { quiet: true })).runs; } catch (e) { schedule(2000); return; }
    const full = [];
    for (const r of list) {
      const known = runs.find((x) => x.id === r.id);
      if (known && known.status === r.status && known.iteration === r.iteration && known.curve) {
        full.push(known);
        continue;
      }
      try { full.push(await zs.api(`/api/runs/${r.id}`, { quiet: true })); } catch (e) { /* deleted meanwhile */ }
    }
    runs = full;
    draw();
    schedule(runs.some((r) => r.status === "running" || r.status === "starting") ? 300 : 2000);
  }

  function schedule(ms) {
    if (timer) clearTimeout(timer);
    timer = setTimeout(refresh, ms);
  }

  async function act(run, what) {
    try {
      if (what === "delete") await zs.api(`/api/runs/${run.id}`, { method: "DELETE" });
      else if (what === "resume") {
        let more = run.iteration >= run.iterations ? { iterations: 2 * run.iterations } : undefined;
        // a hold'em run that stopped at its target goes on past it: to its iterations, or a stop
        if (run.stopped_by === "target") more = Object.assign(more || {}, { target_pot_fraction: null });
        await zs.api(`/api/runs/${run.id}/resume`, { method: "POST", body: more });
      } else await zs.api(`/api/runs/${run.id}/${what}`, { method: "POST" });
    } catch (e) { return; }
    await refresh();
  }

  // the table is updated in place, never rebuilt: a row, and its buttons, live as long as its run,
  // so a click that lands while the page polls (every 300 ms while a run iterates) is not lost
  const rows = new Map();  // run id -> {tr, run, cells...}

  function setText(node, text) { if (node.textContent !== text) node.textContent = text; }

  function makeRow(r) {
    const row = { run: r };
    const td = (attrs, ...children) => el("td", attrs, ...children);
    row.swatch = el("span", { class: "swatch" });
    row.game = td({}, r.game);
    row.iteration = td({ class: "num run-iteration" });
    row.average = td({ class: "num run-nashconv" });
    row.current = td({ class: "num" });
    row.potPct = td({ class: "num run-pot-pct" });
    row.eta = td({ class: "num run-eta" });
    row.statusText = el("span", { class: "run-state" });
    row.error = el("div", { class: "run-error", hidden: true });
    row.status = td({ class: "run-status" }, row.statusText, row.error);
    // one button that stops a running run and resumes another: what it does is read at the click
    row.toggle = el("button", { class: "run-toggle", onclick: () => {
      act(row.run, isRunning(row.run) ? "stop" : "resume"); } });
    row.explore = el("button", { class: "run-explore", onclick: () => zs.views.explore.openRun(row.run.id) }, "explore");
    row.tr = el("tr", { "data-run": r.id },
      td({}, row.swatch), td({}, r.id), row.game, td({}, r.algorithm), row.iteration, row.average, row.current,
      row.potPct, row.eta, row.status,
      td({}, row.toggle,
        el("a", { class: "button", href: `/api/runs/${r.id}/policy`, download: `${r.id}-policy.json` }, "policy"),
        el("a", { class: "button", href: `/api/runs/${r.id}/state`, download: `${r.id}-state.npz` }, "state"),
        row.explore,
        el("button", { class: "run-delete", onclick: () => act(row.run, "delete") }, "delete")));
    return row;
  }

  function etaText(r) {
    if (r.eta_s === null || r.eta_s === undefined) {
      return r.iterations_per_s ? `${zs.fmt(r.iterations_per_s, 3)} it/s` : "";
    }
    const s = r.eta_s, t = s < 90 ? `${s.toFixed(s < 10 ? 1 : 0)} s` : s < 5400 ? `${(s / 60).toFixed(1)} min` :
      `${(s / 3600).toFixed(1)} h`;
    return `${t} (${r.eta_basis === "curve" ? "curve" : "iteration rate"})`;
  }

  function isRunning(r) { return r.status === "running" || r.status === "starting"; }

  function updateRow(row, r, k) {
    row.run = r;
    const color = colorOf(r.id);
    if (row.swatch.dataset.color !== color) { row.swatch.dataset.color = color; row.swatch.style.background = color; }
    row.game.title = r.game_id;
    setText(row.game, r.spot_name ? `${r.game}: ${r.spot_name}` : r.game);
    setText(row.iteration, `${r.iteration} / ${r.iterations}`);
    setText(row.average, zs.fmt(r.nash_conv_average, 3));
    setText(row.current, zs.fmt(r.nash_conv_current, 3));
    setText(row.potPct, r.exploitability_pot_pct === null || r.exploitability_pot_pct === undefined ? "" :
      `${zs.fmt(r.exploitability_pot_pct, 3)} %` + (r.target_pot_fraction ? ` / ${zs.fmt(100 * r.target_pot_fraction, 3)}` : ""));
    row.potPct.title = r.form === "public-tree" ? "exploitability (NashConv / 2) of the average strategy in % of the " +
      `starting pot (${r.pot}) / the target` : "";
    setText(row.eta, etaText(r));
    row.eta.title = r.eta_basis === "curve" ? "from the slope of the curve (log-log) towards the target, at the " +
      "iteration rate so far (checks included), at most the iterations left" :
      (r.eta_basis === "iterations" ? "the iterations left at the rate so far (no target, or no slope yet)" : "");
    setText(row.statusText, r.status + (r.stopped_by === "target" ? " (target)" : ""));
    setText(row.error, r.error || "");
    row.error.hidden = !r.error;
    row.status.title = r.error || "";
    setText(row.toggle, isRunning(r) ? "stop" : "resume");
    row.toggle.title = r.stopped_by === "target" ? "resume past the target (to its iterations, or a stop)" : "";
    row.toggle.disabled = r.status === "failed";
    row.explore.disabled = !r.iteration;
  }

  function draw() {
    const body = document.querySelector("#solve-runs tbody");
    const ids = new Set(runs.map((r) => r.id));
    for (const [id, row] of rows) {
      if (!ids.has(id)) { row.tr.remove(); rows.delete(id); }
    }
    runs.forEach((r, k) => {
      let row = rows.get(r.id);
      if (!row) { row = makeRow(r); rows.set(r.id, row); }
      updateRow(row, r, k);
      if (body.children[k] !== row.tr) body.insertBefore(row.tr, body.children[k] || null);
    });
    // hold'em runs on a plot of their own, in % of the pot (the other runs' NashConv is in the
    // game's own units: one axis cannot hold both)
    const holdem = runs.filter((r) => r.form === "public-tree"), others = runs.filter((r) => r.form !== "public-tree");
    document.getElementById("solve-plot").replaceChildren(...(others.length || !holdem.length ? [plot(others), legend(others)] : []));
    document.getElementById("solve-plot-holdem").replaceChildren(...(holdem.length ? [plot(holdem, true), legend(holdem)] : []));
  }

  // a log-log SVG of NashConv against iterations, every run in its colour; ``pot``: hold'em runs,
  // their exploitability in % of the pot (the average's only: no current strategy is checked)
  // the runs' names and colours under the plot (never over the curves)
  function legend(runs) {
    return el("div", { class: "plot-legend" }, runs.map((r) => el("span", { "data-run": r.id },
      el("span", { class: "swatch", style: `background:${colorOf(r.id)}` }), ` ${r.id} ${r.algorithm} on ${r.spot_name || r.game}`)));
  }

  function plot(runs, pot = false) {
    // as wide as its box, up to 720 px (a phone's 390 px screen gets a narrower plot, not a cut one)
    const box = document.getElementById("view-solve");
    const W = Math.max(280, Math.min(720, Math.floor((box && box.clientWidth) || 720))), H = W < 500 ? 280 : 360;
    const L = 64, R = 16, T = 16, B = 44;
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("width", W);
    svg.setAttribute("height", H);
    svg.setAttribute("class", "plot");
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    const keys = pot ? [["exploitability_pot_pct", ""]] : [["nash_conv_average", ""], ["nash_conv_current", "5 4"]];
    svg.setAttribute("class", pot ? "plot plot-pot" : "plot");
    const points = runs.flatMap((r) => r.curve || []);
    const ys = points.flatMap((p) => keys.map(([key]) => p[key])).filter((y) => y > 0);
    if (pot && ys.length) ys.push(...runs.filter((r) => r.target_pot_fraction).map((r) => 100 * r.target_pot_fraction));
    const xs = points.map((p) => p.iteration).filter((x) => x > 0);
    if (!ys.length) {
      add("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "muted" }, "start a run: its curve appears here");
      return svg;
    }
    const x0 = 0, x1 = Math.max(1, Math.ceil(Math.log10(Math.max(...xs))));
    const y0 = Math.floor(Math.log10(Math.min(...ys))), y1 = Math.ceil(Math.log10(Math.max(...ys)));
    const sx = (x) => L + (Math.log10(x) - x0) / Math.max(x1 - x0, 1e-9) * (W - L - R);
    const sy = (y) => T + (y1 - Math.log10(y)) / Math.max(y1 - y0, 1e-9) * (H - T - B);
    for (let e = x0; e <= x1; e++) {
      add("line", { x1: sx(10 ** e), x2: sx(10 ** e), y1: T, y2: H - B, class: "grid" });
      add("text", { x: sx(10 ** e), y: H - B + 16, "text-anchor": "middle" }, e === 0 ? "1" : `1e${e}`);
    }
    for (let e = y0; e <= y1; e++) {
      add("line", { x1: L, x2: W - R, y1: sy(10 ** e), y2: sy(10 ** e), class: "grid" });
      add("text", { x: L - 6, y: sy(10 ** e) + 4, "text-anchor": "end" },
        pot ? (e >= 0 ? `${10 ** e} %` : `${(10 ** e).toFixed(-e)} %`) : `1e${e}`);
    }
    add("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle" }, "iterations");
    add("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", transform: `rotate(-90 14 ${(T + H - B) / 2})` },
      pot ? "exploitability, % of the pot" : "NashConv");
    runs.forEach((r, k) => {
      const color = colorOf(r.id);
      for (const [key, dash] of keys) {
        const pts = (r.curve || []).filter((p) => p[key] > 0).map((p) => `${sx(p.iteration).toFixed(1)},${sy(p[key]).toFixed(1)}`);
        if (pts.length) add("polyline", { points: pts.join(" "), fill: "none", stroke: color, "stroke-width": 2,
          "stroke-dasharray": dash, class: `curve ${key}`, "data-run": r.id });
      }
      if (pot && r.target_pot_fraction) {  // the target: a dotted line in the run's colour
        const y = 100 * r.target_pot_fraction;
        if (y >= 10 ** y0 && y <= 10 ** y1) add("line", { x1: L, x2: W - R, y1: sy(y), y2: sy(y), stroke: color,
          "stroke-dasharray": "2 3", class: "target", "data-run": r.id });
      }
    });
    return svg;
  }

  // refresh: the spot builder (builder.js) shows a run it started at once
  zs.views.solve = { init, show() { refresh(); }, refresh };
})();
