// The explore view: upload a saved policy; tables of information sets (small games), or a hold'em
// public tree to click through with the 13x13 grid of hand classes at each node.
"use strict";

(function () {
  const el = zs.el;
  const RANKS = "23456789TJQKA";
  // colours per action: fold blue, check/call green, bets and raises from orange to dark red
  const COLOURS = { f: "#4a78c2", c: "#3f9a55", k: "#3f9a55" };
  const RAISES = ["#e08a2c", "#d0492f", "#a3202a", "#6e1020", "#b05a9a", "#7a4bb0"];
  let current = null;   // the loaded policy's summary
  let report = null;    // the node report shown (hold'em)
  let gridPlayer = null;
  let root, summaryBox, tableBox, holdemBox, tooltip;

  function actionColours(actions) {
    let r = 0;
    return actions.map((a) => COLOURS[a] || RAISES[(r++) % RAISES.length]);
  }

  function handClass(label) {
    let a = label[0], b = label[2];
    if (RANKS.indexOf(b) > RANKS.indexOf(a)) [a, b] = [b, a];
    if (a === b) return a + b;
    return a + b + (label[1] === label[3] ? "s" : "o");
  }

  function style() {
    return el("style", {}, `
#view-explore .explore-form { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin-bottom: .8em; }
#view-explore .explore-form input[type=text] { min-width: 16em; }
#explore-summary { margin: .4em 0 .8em; }
#explore-table { border-collapse: collapse; font-size: 90%; }
#explore-table td, #explore-table th { border-bottom: 1px solid #ddd; padding: 2px 8px; text-align: left; }
#explore-table td.prob { font-family: monospace; }
#explore-breadcrumb button, #explore-children button { margin: 2px; }
#explore-breadcrumb .sep { color: #888; margin: 0 2px; }
#explore-grid { display: grid; grid-template-columns: repeat(13, 44px); gap: 1px; margin: .6em 0; }
#explore-grid .cell { position: relative; width: 44px; height: 32px; background: #eee; overflow: hidden;
  font-size: 11px; display: flex; flex-direction: column; }
#explore-grid .cell .band { width: 100%; }
#explore-grid .cell .name { position: absolute; left: 2px; top: 1px; color: #000; text-shadow: 0 0 2px #fff; }
#explore-grid .cell.empty { background: #f7f7f7; color: #bbb; }
#explore-legend span.swatch { display: inline-block; width: 1em; height: 1em; vertical-align: middle; margin: 0 .3em 0 .8em; }
#explore-tooltip { position: fixed; background: #fff; border: 1px solid #888; padding: 4px 6px; font-size: 12px;
  pointer-events: none; z-index: 10; box-shadow: 2px 2px 6px rgba(0,0,0,.2); }
#explore-tooltip table td { padding: 0 4px; font-family: monospace; }
`);
  }

  function init() {
    root = document.getElementById("view-explore");
    const file = el("input", { type: "file", id: "explore-file", accept: ".json,application/json" });
    const game = el("input", { type: "text", id: "explore-game", value: "",
      placeholder: "game: leduc, holdem or a full id (empty: the file's)" });
    const params = el("input", { type: "text", id: "explore-params",
      placeholder: "params: key=value key=value (e.g. board=Ks7d2c9h5s betting=river bet=60%,a)" });
    const load = el("button", { id: "explore-load", onclick: upload }, "Load policy");
    summaryBox = el("div", { id: "explore-summary" });
    tableBox = el("div", { id: "explore-tables", hidden: true });
    holdemBox = el("div", { id: "explore-holdem", hidden: true });
    tooltip = el("div", { id: "explore-tooltip", hidden: true });
    root.append(style(),
      el("p", {}, "Load a policy saved by ", el("code", {}, "zerosum solve GAME --save POLICY.json"),
        "."),
      el("div", { class: "explore-form" }, file, game, params, load),
      summaryBox, tableBox, holdemBox, tooltip);
  }

  async function upload() {
    const file = document.getElementById("explore-file").files[0];
    const game = document.getElementById("explore-game").value.trim();
    if (!file) { zs.showError("choose a saved policy file first"); return; }
    // the params box goes whole: the server cuts it where a parameter's name starts, so a value
    // keeps its spaces (betting=river bet=60%,a raise=2.5x); an empty game box: the file's own id
    const query = new URLSearchParams();
    if (game) query.set("game", game);
    const params = document.getElementById("explore-params").value.trim();
    if (params) query.set("params", params);
    const text = await file.text();
    const summary = await zs.api("/api/policies/upload?" + query.toString(), { method: "POST", body: text });
    await open(summary);
  }

  async function open(summary) {
    current = summary;
    summaryBox.replaceChildren(
      el("div", { id: "explore-loaded", "data-id": summary.id, "data-kind": summary.kind },
        el("b", {}, summary.game), ` — NashConv ${zs.fmt(summary.nash_conv, 6)}, ` +
        `exploitability ${zs.fmt(summary.exploitability, 6)}, value to player 0 ${zs.fmt(summary.value, 6)}`));
    tableBox.hidden = summary.kind !== "table";
    holdemBox.hidden = summary.kind !== "holdem";
    if (summary.kind === "table") await showTable();
    else await showNode(summary.root);
  }

  // --- tables -----------------------------------------------------------------------------------
  let offset = 0;
  const LIMIT = 100;

  async function showTable() {
    offset = 0;
    const filter = el("input", { type: "text", id: "explore-filter", placeholder: "filter information sets",
      oninput: () => { offset = 0; loadRows(); } });
    const player = el("select", { id: "explore-player-filter", onchange: () => { offset = 0; loadRows(); } },
      el("option", { value: "" }, "both players"), el("option", { value: "0" }, "player 0"),
      el("option", { value: "1" }, "player 1"));
    tableBox.replaceChildren(el("div", { class: "explore-form" }, filter, player,
      el("button", { id: "explore-prev", onclick: () => { offset = Math.max(0, offset - LIMIT); loadRows(); } }, "◀"),
      el("span", { id: "explore-count" }),
      el("button", { id: "explore-next", onclick: () => { offset += LIMIT; loadRows(); } }, "▶")),
      el("table", { id: "explore-table" }));
    await loadRows();
  }

  let rowsRequest = 0;
  async function loadRows() {
    const mine = ++rowsRequest;
    const q = new URLSearchParams({ filter: document.getElementById("explore-filter").value,
      player: document.getElementById("explore-player-filter").value, offset, limit: LIMIT });
    const data = await zs.api(`/api/policies/${current.id}/infosets?` + q.toString());
    if (mine !== rowsRequest) return;  // a newer filter is on its way
    if (data.total && offset >= data.total) { offset = Math.max(0, data.total - LIMIT); return loadRows(); }
    const table = document.getElementById("explore-table");
    table.replaceChildren(el("tr", {}, el("th", {}, "information set"), el("th", {}, "player"),
      el("th", {}, "action probabilities")));
    for (const row of data.rows) {
      table.append(el("tr", { "data-infoset": row.infoset, "data-player": row.player },
        el("td", {}, el("code", {}, row.infoset)), el("td", {}, row.player),
        el("td", {}, row.actions.map((a, k) => el("span", { class: "prob", "data-action": a,
          "data-p": row.probabilities[k], title: String(row.probabilities[k]) },
          `${a}: ${zs.fmt(row.probabilities[k], 4)}  `)))));
    }
    const last = Math.min(data.total, offset + data.rows.length);
    document.getElementById("explore-count").textContent =
      data.total ? `${offset + 1}–${last} of ${data.total}` : "no information set matches";
  }

  // --- hold'em ----------------------------------------------------------------------------------
  async function showNode(label) {
    const data = await zs.api(`/api/policies/${current.id}/node?` + new URLSearchParams({ label }).toString());
    report = data;
    if (data.player !== null && data.player !== undefined) gridPlayer = data.player;
    else if (gridPlayer === null) gridPlayer = 0;
    renderNode();
  }

  function renderNode() {
    const data = report;
    const crumbs = el("div", { id: "explore-breadcrumb" });
    data.path.forEach((step, k) => {
      if (k) crumbs.append(el("span", { class: "sep" }, "›"));
      crumbs.append(el("button", { "data-label": step.label, onclick: () => showNode(step.label) },
        k ? step.action : "root"));
    });
    const what = data.kind === "decision" ? `player ${data.player} to act`
      : data.kind === "chance" ? "chance: pick the card dealt" : `terminal (${data.kind})`;
    const children = el("div", { id: "explore-children" },
      data.children.length ? (data.kind === "chance" ? "deal: " : "actions: ") : "",
      data.children.map((c) => el("button", { "data-label": c.label, "data-action": c.action,
        onclick: () => showNode(c.label) }, c.action)));
    const playerSel = el("select", { id: "explore-grid-player", onchange: (e) => {
      gridPlayer = Number(e.target.value); renderNode(); } },
      [0, 1].map((p) => el("option", { value: p, selected: p === gridPlayer }, `player ${p}'s range`)));
    holdemBox.replaceChildren(crumbs,
      el("div", { id: "explore-node-info" }, el("code", {}, data.label), ` — ${what}`,
        data.board ? `, board ${data.board}` : "", `, reached with probability ${zs.fmt(data.reach_probability)}`),
      children, el("div", {}, playerSel), grid(data.players[gridPlayer]));
  }

  function grid(entry) {
    const box = el("div", { id: "explore-grid-box" });
    const g = entry.grid;
    if (!g) { box.append(el("p", {}, "no 13x13 grid for this game (hold'em only)")); return box; }
    const acting = Array.isArray(g.strategy);
    const actions = acting ? report.actions : [];
    const colours = actionColours(actions);
    const maxWeight = Math.max(1e-12, ...g.weight.map((w) => w || 0));
    const cells = el("div", { id: "explore-grid" });
    g.classes.forEach((name, k) => {
      const cell = el("div", { class: "cell" + (g.combos[k] ? "" : " empty"), "data-class": name,
        "data-weight": g.weight[k] });
      if (g.combos[k] && g.weight[k] > 0) {
        if (acting) {
          actions.forEach((a, i) => {
            const f = g.strategy[i][k] || 0;
            cell.dataset["freq" + i] = f;
            cell.append(el("div", { class: "band", "data-action": a,
              style: `height:${(100 * f).toFixed(2)}%;background:${colours[i]}` }));
          });
        } else {
          const alpha = 0.15 + 0.85 * (g.weight[k] / maxWeight);
          cell.style.background = `rgba(80,80,160,${alpha.toFixed(3)})`;
        }
      }
      cell.append(el("span", { class: "name" }, name));
      cell.addEventListener("mouseenter", (e) => showTip(e, entry, name, k, actions));
      cell.addEventListener("mousemove", moveTip);
      cell.addEventListener("mouseleave", () => { tooltip.hidden = true; });
      cells.append(cell);
    });
    const legend = el("div", { id: "explore-legend" }, acting
      ? ["strategy by class (band height = frequency):",
        ...actions.flatMap((a, i) => [el("span", { class: "swatch", style: `background:${colours[i]}` }), a])]
      : `player ${entry.player} does not act here: shading is the range weight reaching the node`);
    box.append(legend, cells);
    return box;
  }

  function showTip(event, entry, name, k, actions) {
    const g = entry.grid;
    const rows = [el("tr", {}, el("td", {}, "hand"), el("td", {}, "weight"), el("td", {}, "EV"),
      el("td", {}, "equity"), actions.map((a) => el("td", {}, a)))];
    entry.hands.forEach((h, i) => {
      if (handClass(h) !== name) return;
      rows.push(el("tr", {}, el("td", {}, h), el("td", {}, zs.fmt(entry.weight[i], 3)),
        el("td", {}, entry.ev[i] === null ? "-" : zs.fmt(entry.ev[i], 2)),
        el("td", {}, entry.equity && entry.equity[i] !== null ? zs.fmt(entry.equity[i], 3) : "-"),
        actions.map((a, j) => el("td", {}, zs.fmt(entry.strategy[j][i], 3)))));
    });
    tooltip.replaceChildren(el("b", {}, name),
      ` ${g.combos[k]} combos, range weight here ${zs.fmt(g.weight[k], 4)}, reach ${zs.fmt(g.reach[k], 3)}`,
      g.ev[k] !== null ? `, EV ${zs.fmt(g.ev[k], 2)}` : "",
      g.equity && g.equity[k] !== null ? `, equity ${zs.fmt(g.equity[k], 3)}` : "",
      rows.length > 1 ? el("table", {}, rows) : el("div", {}, "no hand of this class in the range"));
    tooltip.hidden = false;
    moveTip(event);
  }

  function moveTip(event) {
    tooltip.style.left = (event.clientX + 14) + "px";
    tooltip.style.top = (event.clientY + 14) + "px";
  }

  // --- from the solve view ------------------------------------------------------------------------
  async function openRun(runId) {
    zs.showView("explore");
    let data;
    try {
      data = await zs.api(`/api/runs/${encodeURIComponent(runId)}/policy`);
    } catch (e) {
      zs.showError(`cannot open run ${runId}'s policy: GET /api/runs/${runId}/policy answered "${e.message}"; ` +
        "save it with zerosum solve --save and load the file here");
      return;
    }
    // {game, params, policy} or the saved policy itself with {game: NAME, params} added
    const policy = data.policy || Object.assign({}, data);
    const name = String(data.name || data.game || "").split("(")[0];
    if (!data.policy) { delete policy.params; delete policy.name; if (data.game_id) policy.game = data.game_id; }
    document.getElementById("explore-game").value = name;
    const summary = await zs.api("/api/policies", { method: "POST",
      body: { game: name, params: data.params || {}, policy } });
    await open(summary);
  }

  zs.views.explore = { init, show() {}, open, openRun };
})();
