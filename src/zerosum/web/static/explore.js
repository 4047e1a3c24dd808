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
#explore-breadcrumb, #explore-children { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 4px; margin: .3em 0; }
#explore-breadcrumb .sep { color: #888; }
#explore-node-info { margin: .3em 0; overflow-wrap: anywhere; }
#explore-pot { display: flex; flex-wrap: wrap; gap: .2em 1.2em; font-weight: 600; margin: .3em 0; }
#explore-mix { margin: .4em 0; line-height: 1.6; }
#explore-mix { overflow-wrap: anywhere; }
#explore-mix .mix { display: inline-block; margin-right: .2em; }
#view-explore .swatch { display: inline-block; width: .9em; height: .9em; border-radius: 2px; vertical-align: middle; margin: 0 .25em 0 .5em; }
#explore-panes { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
#explore-grid-box { flex: 0 1 600px; min-width: 0; max-width: 100%; }
#explore-side { flex: 1 1 320px; min-width: 0; max-width: 100%; }
#explore-grid { display: grid; grid-template-columns: repeat(13, minmax(0, 1fr)); gap: 1px; margin: .4em 0; width: 100%; max-width: 600px; }
#explore-grid .cell { position: relative; aspect-ratio: 4 / 3; background: #e4e7ec; overflow: hidden; cursor: pointer;
  font-size: clamp(8px, 2.4vw, 12px); min-width: 0; }
#explore-grid .cell .fill { position: absolute; left: 0; right: 0; bottom: 0; display: flex; }
#explore-grid .cell .fill.range { background: #6f74c8; }
#explore-grid .cell .band { height: 100%; }
#explore-grid .cell .name { position: absolute; left: 2px; top: 1px; color: #000; text-shadow: 0 0 2px #fff, 0 0 2px #fff; }
#explore-grid .cell.empty { background: #f5f5f5; color: #bbb; cursor: default; }
#explore-grid .cell.pinned { outline: 3px solid #1d2330; outline-offset: -2px; z-index: 1; }
#explore-legend { line-height: 1.6; }
#view-explore .hint { font-size: .8rem; }
#explore-pinned { border: 1px solid var(--line); border-radius: 6px; background: #fff; padding: .4em .6em; margin-bottom: .8em; position: relative; }
#explore-pinned .unpin { position: absolute; right: 4px; top: 4px; padding: 0 .4em; }
#explore-pinned .figures { margin-right: 2em; }
#view-explore .scroll { overflow-x: auto; max-width: 100%; }
#view-explore h3 { font-size: 1rem; margin: .8em 0 .3em; }
#explore-hand-table th.sortable { cursor: pointer; user-select: none; white-space: nowrap; }
#explore-hand-table th.sorted[data-dir=asc]::after { content: " ▲"; }
#explore-hand-table th.sorted[data-dir=desc]::after { content: " ▼"; }
#explore-hand-table td { font-variant-numeric: tabular-nums; }
#explore-hands { max-height: none; }
#explore-cards-table tr.card-row { cursor: pointer; }
#explore-cards-table tr.card-row:hover { background: #eef1f6; }
#explore-cards-table td, #explore-cards-table th { padding: 0 6px; text-align: right; font-variant-numeric: tabular-nums; }
#explore-lock { border: 1px solid var(--line); border-radius: 6px; padding: .2em .6em .5em; margin: .5em 0; }
#explore-lock input[type=text] { min-width: min(18em, 80vw); }
#explore-lock label { display: inline-flex; align-items: center; gap: .3em; margin-right: .6em; }
#explore-cards .scroll { max-height: 18em; overflow-y: auto; display: inline-block; border: 1px solid var(--line); }
#explore-cards-table thead th { position: sticky; top: 0; background: #fff; }
#explore-lock input[type=number] { width: 5.5em; }
#explore-lock-result { margin-top: .3em; }
#explore-tooltip { position: fixed; background: #fff; border: 1px solid #888; padding: 4px 6px; font-size: 12px; max-width: min(560px, 96vw);
  pointer-events: none; z-index: 10; box-shadow: 2px 2px 6px rgba(0,0,0,.2); }
#explore-tooltip table td, #explore-pinned table td { padding: 0 4px; font-variant-numeric: tabular-nums; }
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
        el("b", { class: "game-id" }, summary.game),
        el("span", { id: "explore-policy-id", title: "the play view's bot plays a loaded Kuhn or Leduc policy by this id" },
          ` — policy id ${summary.id}`),
        summary.run ? ` — run ${summary.run} after ${summary.iteration} iterations` : "",
        summary.pot ? ` — pot ${summary.pot}, stacks ${summary.stack}, exploitability ` +
          `${(100 * summary.exploitability / summary.pot).toFixed(3)} % of the pot` : "",
        ` — NashConv ${zs.fmt(summary.nash_conv, 6)}, ` +
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
  // the node's report: the path and the children in words and chips (report.betting, hold'em), the
  // acting range's action frequencies, the 13x13 grid (cell height: the class's range weight reaching
  // the node; split across by action frequency), the pinned class (a click or a tap), the categories
  // and the per-hand table (sortable, filterable).
  let pinned = null;                          // the class whose figures are pinned
  let sortKey = "weight", sortDir = -1;       // the per-hand table's order
  let handFilter = "";

  const seat = (p) => (current && current.board ? (p === 0 ? "OOP" : "IP") : `player ${p}`);
  const pct = (x, d = 1) => (x === null || x === undefined ? "-" : `${(100 * x).toFixed(d)} %`);
  const chips = (x) => (x === null || x === undefined ? "-" : String(Math.round(x * 100) / 100));

  async function showNode(label) {
    const data = await zs.api(`/api/policies/${current.id}/node?` + new URLSearchParams({ label }).toString());
    report = data;
    if (data.player !== null && data.player !== undefined) gridPlayer = data.player;
    else if (gridPlayer === null) gridPlayer = 0;
    pinned = null;
    renderNode();
  }

  // an action's words: "bet 50 (75 % pot)" on hold'em (the server's), the label elsewhere
  function actionText(k) {
    const b = report.betting;
    return b && b.actions[k] ? b.actions[k].text : report.actions[k];
  }

  function renderNode() {
    const data = report;
    const b = data.betting;
    const crumbs = el("div", { id: "explore-breadcrumb" });
    data.path.forEach((step, k) => {
      if (k) crumbs.append(el("span", { class: "sep" }, "›"));
      crumbs.append(el("button", { "data-label": step.label, "data-action": step.action,
        title: step.pot !== undefined ? `pot ${chips(step.pot)}` : null,
        onclick: () => showNode(step.label) }, k ? (step.text || step.action) : "root"));
    });
    const what = data.kind === "decision" ? `${seat(data.player)} (player ${data.player}) to act`
      : data.kind === "chance" ? "chance: pick the card dealt" : `terminal (${data.kind})`;
    const words = b ? b.children : null;
    const children = el("div", { id: "explore-children" },
      data.children.length ? (data.kind === "chance" ? "deal: " : "actions: ") : "",
      data.children.map((c, k) => el("button", { "data-label": c.label, "data-action": c.action,
        title: words ? `pot ${chips(words[k].pot)} after it` : null,
        onclick: () => showNode(c.label) }, words && data.kind !== "chance" ? words[k].text : c.action)));
    const money = b ? el("div", { id: "explore-pot" },
      el("span", {}, `${b.street}: pot ${chips(b.pot)}`),
      el("span", {}, `stacks OOP ${chips(b.stacks[0])}, IP ${chips(b.stacks[1])} (effective ${chips(b.effective_stack)})`),
      b.to_call ? el("span", {}, `to call ${chips(b.to_call)}`) : null) : null;
    const playerSel = el("select", { id: "explore-grid-player", onchange: (e) => {
      gridPlayer = Number(e.target.value); pinned = null; renderNode(); } },
      [0, 1].map((p) => el("option", { value: p, selected: p === gridPlayer },
        `${seat(p)}'s range (player ${p})` + (p === data.player ? ", to act" : ""))));
    const entry = data.players[gridPlayer];
    holdemBox.replaceChildren(crumbs,
      el("div", { id: "explore-node-info" }, el("code", {}, data.label), ` — ${what}`,
        data.board ? `, board ${data.board}` : "", `, reached with probability ${zs.fmt(data.reach_probability)}`),
      money || "", mixLine(), children, data.kind === "chance" ? cardsBox(data.label) : "",
      data.kind === "decision" && current.board ? lockBox() : "", el("div", { class: "explore-form" }, playerSel),
      el("div", { id: "explore-panes" }, grid(entry),
        el("div", { id: "explore-side" }, el("div", { id: "explore-pinned" }), categories(entry))),
      handTable(entry));
    renderPinned();
  }

  // "OOP: check 62.0 %, bet 50 (75 % pot) 38.0 %": the acting range's action frequencies
  function mixLine() {
    const entry = report.players.find((e) => e.action_mix);
    if (!entry) return el("div", { id: "explore-mix", class: "muted" }, "nobody acts here");
    const colours = actionColours(report.actions);
    return el("div", { id: "explore-mix", "data-player": entry.player },
      el("b", {}, `${seat(entry.player)}: `),
      report.actions.map((a, k) => el("span", { class: "mix", "data-action": a, "data-p": entry.action_mix[k] },
        el("span", { class: "swatch", style: `background:${colours[k]}` }),
        `${actionText(k)} ${pct(entry.action_mix[k])}` + (k < report.actions.length - 1 ? ", " : ""))));
  }

  function grid(entry) {
    const box = el("div", { id: "explore-grid-box" });
    const g = entry.grid;
    if (!g) { box.append(el("p", {}, "no 13x13 grid for this game (hold'em only)")); return box; }
    const acting = Array.isArray(g.strategy);
    const actions = acting ? report.actions : [];
    const colours = actionColours(actions);
    const cells = el("div", { id: "explore-grid" });
    g.classes.forEach((name, k) => {
      // the class's range weight reaching the node: the mean over its combos of range x own reach
      const level = g.combos[k] ? Math.max(0, Math.min(1, (g.reach[k] || 0) / g.combos[k])) : 0;
      const cell = el("div", { class: "cell" + (g.combos[k] ? "" : " empty") + (name === pinned ? " pinned" : ""),
        "data-class": name, "data-weight": g.weight[k], "data-reach": level, role: "button", tabindex: g.combos[k] ? 0 : -1 });
      if (g.combos[k] && level > 0) {
        const fill = el("div", { class: "fill", style: `height:${(100 * level).toFixed(2)}%` });
        if (acting) {
          actions.forEach((a, i) => {
            const f = g.strategy[i][k] || 0;
            cell.dataset["freq" + i] = f;
            fill.append(el("div", { class: "band", "data-action": a,
              style: `width:${(100 * f).toFixed(2)}%;background:${colours[i]}` }));
          });
        } else {
          fill.classList.add("range");
        }
        cell.append(fill);
      }
      cell.append(el("span", { class: "name" }, name));
      cell.addEventListener("mouseenter", (e) => showTip(e, entry, name, k, actions));
      cell.addEventListener("mousemove", moveTip);
      cell.addEventListener("mouseleave", () => { tooltip.hidden = true; });
      cell.addEventListener("click", () => { pinned = pinned === name ? null : name; tooltip.hidden = true;
        for (const c of cells.children) c.classList.toggle("pinned", c.dataset.class === pinned);
        renderPinned(); });
      cell.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); cell.click(); } });
      cells.append(cell);
    });
    const legend = el("div", { id: "explore-legend" }, acting
      ? ["cell height: the class's range weight here; split by action frequency:",
        ...actions.flatMap((a, i) => [el("span", { class: "swatch", style: `background:${colours[i]}` }), actionText(i)])]
      : `${seat(entry.player)} does not act here: cell height is the range weight reaching the node`);
    box.append(legend, cells, el("div", { class: "muted hint" }, "tap or click a cell to pin its figures"));
    return box;
  }

  // the figures of one class: its combos, weight, EV, equity and each hand's line
  function classFigures(entry, name, actions) {
    const g = entry.grid;
    const k = g.classes.indexOf(name);
    const head = el("div", { class: "figures" }, el("b", {}, name),
      ` ${g.combos[k]} combos, weight here ${pct(g.weight[k], 2)}, reach ${zs.fmt(g.reach[k] / Math.max(g.combos[k], 1), 3)}`,
      g.ev[k] !== null ? `, EV ${zs.fmt(g.ev[k], 2)}` : "",
      g.equity && g.equity[k] !== null ? `, equity ${pct(g.equity[k])}` : "",
      Array.isArray(g.strategy) ? ": " + actions.map((a, i) => `${actionText(i)} ${pct(g.strategy[i][k])}`).join(", ") : "");
    const rows = [el("tr", {}, el("th", {}, "hand"), el("th", {}, "weight"), el("th", {}, "EV"),
      el("th", {}, "equity"), el("th", {}, "EQR"), actions.map((a, i) => el("th", {}, actionText(i))))];
    entry.hands.forEach((h, i) => {
      if (handClass(h) !== name) return;
      rows.push(el("tr", { "data-hand": h }, el("td", {}, h), el("td", {}, pct(entry.weight[i], 2)),
        el("td", {}, entry.ev[i] === null ? "-" : zs.fmt(entry.ev[i], 2)),
        el("td", {}, entry.equity && entry.equity[i] !== null ? pct(entry.equity[i]) : "-"),
        el("td", {}, entry.eqr && entry.eqr[i] !== null && entry.eqr[i] !== undefined ? zs.fmt(entry.eqr[i], 2) : "-"),
        actions.map((a, j) => el("td", {}, pct(entry.strategy[j][i])))));
    });
    return [head, rows.length > 1 ? el("div", { class: "scroll" }, el("table", {}, rows))
      : el("div", {}, "no hand of this class in the range")];
  }

  function renderPinned() {
    const box = document.getElementById("explore-pinned");
    if (!box) return;
    const entry = report.players[gridPlayer];
    if (!pinned || !entry.grid) {
      box.replaceChildren(el("span", { class: "muted" }, "no class pinned"));
      box.removeAttribute("data-class");
      return;
    }
    const actions = Array.isArray(entry.grid.strategy) ? report.actions : [];
    box.setAttribute("data-class", pinned);
    box.replaceChildren(el("button", { class: "unpin", onclick: () => { pinned = null; renderNode(); } }, "×"),
      ...classFigures(entry, pinned, actions));
  }

  function categories(entry) {
    const c = entry.categories;
    if (!c) return el("div");
    const acting = Array.isArray(c.strategy);
    const actions = acting ? report.actions : [];
    const rows = [el("tr", {}, el("th", {}, "category"), el("th", {}, "combos"), el("th", {}, "weight"),
      el("th", {}, "EV"), el("th", {}, "equity"), actions.map((a, i) => el("th", {}, actionText(i))))];
    c.names.forEach((name, k) => {
      if (!c.combos[k]) return;
      rows.push(el("tr", { "data-category": name }, el("td", {}, name), el("td", {}, c.combos[k]),
        el("td", {}, pct(c.weight[k])), el("td", {}, c.ev[k] === null ? "-" : zs.fmt(c.ev[k], 2)),
        el("td", {}, c.equity && c.equity[k] !== null ? pct(c.equity[k]) : "-"),
        actions.map((a, i) => el("td", {}, pct(c.strategy[i][k])))));
    });
    return el("div", { id: "explore-categories" }, el("h3", {}, `${seat(entry.player)}'s hands by category`),
      el("div", { class: "scroll" }, el("table", {}, rows)));
  }

  // --- the per-card summary (a chance node) ----------------------------------------------------------
  // GET /api/policies/ID/cards?node=: per card, the acting range's action frequencies and its range EV
  // at the node after the card; a click on a row walks there
  function cardsBox(label) {
    const box = el("div", { id: "explore-cards", "data-node": label }, el("span", { class: "muted" }, "per-card summary…"));
    zs.api(`/api/policies/${current.id}/cards?` + new URLSearchParams({ node: label }).toString()).then((data) => {
      if (!report || report.label !== label) return;  // walked elsewhere meanwhile
      box.replaceChildren(cardsTable(data.cards));
    }).catch((e) => box.replaceChildren(el("span", { class: "error" }, e.message)));
    return box;
  }

  function cardsTable(cards) {
    const first = cards.find((c) => c.action_mix) || cards[0] || { actions: [], texts: [] };
    const names = first.texts || first.actions;
    const actor = first.player === null || first.player === undefined ? 0 : first.player;
    const rows = cards.map((c) => el("tr", { "data-label": c.label, "data-card": c.card, class: "card-row",
      tabindex: 0, onclick: () => showNode(c.label),
      onkeydown: (e) => { if (e.key === "Enter") showNode(c.label); } },
      el("td", {}, el("b", {}, c.card)),
      names.map((a, k) => el("td", { "data-action": first.actions[k], "data-v": c.action_mix ? c.action_mix[k] : "" },
        c.action_mix ? pct(c.action_mix[k]) : "-")),
      el("td", { class: "ev", "data-v": c.ev[actor] === null ? "" : c.ev[actor] },
        c.ev[actor] === null ? "-" : zs.fmt(c.ev[actor], 3))));
    return el("div", {}, el("h3", {}, `Per card: ${seat(actor)}'s range at the node after it (click a card to go there)`),
      el("div", { class: "scroll" }, el("table", { id: "explore-cards-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "card"), names.map((n) => el("th", {}, n)),
          el("th", {}, `${seat(actor)} EV`))), el("tbody", {}, rows))));
  }

  // --- node locking ---------------------------------------------------------------------------------
  // lock the acting player's strategy here (the whole range at its strategy here, or chosen hands at
  // a chosen mix), re-solve the spot with the lock (POST /api/runs {locks}) and show the other
  // player's gain: the locked run's free_player_gain in % of the pot beside the original's
  const lockResults = {};  // node label -> the last locked run's view (or its error)

  function lockBox() {
    const entry = report.players[report.player];
    const mix = report.actions.map((a, k) => el("label", { class: "lock-mix" }, `${actionText(k)} `,
      el("input", { type: "number", min: 0, max: 100, step: "any", size: 5, "data-action": a,
        value: (100 * entry.action_mix[k]).toFixed(1) }), " %"));
    return el("div", { id: "explore-lock", "data-player": report.player },
      el("h3", {}, `Lock ${seat(report.player)}'s strategy at this node and re-solve`),
      el("div", { class: "explore-form" },
        el("input", { type: "text", id: "explore-lock-hands",
          placeholder: "hands to lock (AA, KQs, QQ+); empty: the whole range at its strategy here" }),
        el("span", { id: "explore-lock-mix" }, "chosen hands play: ", mix)),
      el("div", { class: "explore-form" },
        el("label", {}, "iterations ", el("input", { type: "number", id: "explore-lock-iterations", min: 1, value: 1000 })),
        el("label", {}, "target ", el("input", { type: "number", id: "explore-lock-target", min: 0, step: "any", value: 0.5 }),
          " % of the pot"),
        el("button", { id: "explore-lock-run", onclick: () => startLock(report.label) }, "Lock and re-solve")),
      el("div", { id: "explore-lock-result" }, lockText(report.label)));
  }

  // the locks' JSON: every hand of the range at its strategy here, or the chosen hands at the mix
  function lockSpec() {
    const entry = report.players[report.player];
    const hands = document.getElementById("explore-lock-hands").value.split(/[\s,]+/).filter(Boolean);
    const nodes = {};
    if (!hands.length) {
      nodes[report.label] = Object.fromEntries(entry.hands.map((h, i) => [h, entry.strategy.map((row) => row[i])]));
    } else {
      const raw = [...document.querySelectorAll("#explore-lock-mix input")].map((x) => Math.max(Number(x.value) || 0, 0));
      const total = raw.reduce((a, b) => a + b, 0);
      if (!(total > 0)) throw new Error("give the locked hands' action mix (percentages, not all 0)");
      nodes[report.label] = Object.fromEntries(hands.map((h) => [h, raw.map((x) => x / total)]));
    }
    return { player: report.player, nodes };
  }

  async function startLock(label) {
    const result = document.getElementById("explore-lock-result");
    let body;
    try {
      const target = Number(document.getElementById("explore-lock-target").value);
      body = { game: current.params ? "holdem" : current.game, params: current.params || {}, locks: lockSpec(),
        iterations: Number(document.getElementById("explore-lock-iterations").value) || 1000,
        target_pot_fraction: target > 0 ? target / 100 : null };
    } catch (e) { result.replaceChildren(el("span", { class: "error" }, e.message)); return; }
    result.replaceChildren(el("span", { class: "muted" }, "starting the locked run…"));
    let run;
    try {
      run = await zs.api("/api/runs", { method: "POST", body });
    } catch (e) { lockResults[label] = { error: e.message }; showLock(label); return; }
    lockResults[label] = run;
    while (run.status === "starting" || run.status === "running") {
      showLock(label);
      await new Promise((r) => setTimeout(r, 300));
      run = await zs.api(`/api/runs/${run.id}`, { quiet: true });
      lockResults[label] = run;
    }
    showLock(label);
  }

  function showLock(label) {
    const box = document.getElementById("explore-lock-result");
    if (box && report && report.label === label) box.replaceChildren(lockText(label));
  }

  // "IP gains 3.2 % of the pot against the lock (run r4, 1000 iterations); original: 0.05 %"
  function lockText(label) {
    const run = lockResults[label];
    if (!run) return "";
    if (run.error && !run.id) return el("span", { class: "error" }, run.error);
    if (run.status === "failed") return el("span", { class: "error" }, `locked run ${run.id} failed: ${run.error}`);
    if (run.status === "starting" || run.status === "running") {
      return el("span", { class: "muted", "data-run": run.id }, `locked run ${run.id}: ${run.iteration} iterations…`);
    }
    const f = run.locks.free_player;
    const gain = run.free_player_gain_pot_pct;
    // the same figure on the original solution: the free player's best response less its value
    const own = (v) => (f === 0 ? v : -v);
    const original = 100 * (current.best_response_values[f] - own(current.value)) / current.pot;
    const moved = 100 * (own(run.value_average) - own(current.value)) / current.pot;
    return el("div", { id: "explore-lock-gain", "data-run": run.id, "data-gain": gain, "data-original": original },
      el("b", {}, `${seat(f)}'s gain against the lock: ${zs.fmt(gain, 3)} % of the pot`),
      ` (locked run ${run.id}, ${run.iteration} iterations; the original solution: ${zs.fmt(original, 3)} % of the pot). `,
      `${seat(f)}'s value: ${zs.fmt(own(current.value), 3)} in the original, ${zs.fmt(own(run.value_average), 3)} ` +
      `with the lock (${moved >= 0 ? "+" : ""}${zs.fmt(moved, 2)} % of the pot).`);
  }

  // --- the per-hand table -----------------------------------------------------------------------
  function handRows(entry) {
    const acting = Array.isArray(entry.strategy);
    return entry.hands.map((h, i) => {
      const row = { hand: h, class: handClass(h), category: entry.category ? entry.category[i] : "",
        weight: entry.weight[i], equity: entry.equity ? entry.equity[i] : null, ev: entry.ev[i],
        eqr: entry.eqr ? entry.eqr[i] : null };
      if (acting) report.actions.forEach((a, k) => { row["a" + k] = entry.strategy[k][i]; });
      return row;
    });
  }

  function handTable(entry) {
    const acting = Array.isArray(entry.strategy);
    const columns = [["hand", "hand"], ["category", "category"], ["weight", "weight"], ["equity", "equity"],
      ["ev", "EV"], ["eqr", "EQR"], ...(acting ? report.actions.map((a, k) => ["a" + k, actionText(k)]) : [])];
    const filter = el("input", { type: "search", id: "explore-hand-filter", value: handFilter,
      placeholder: "filter hands: AsAh, AKs, flush draw…",
      oninput: (e) => { handFilter = e.target.value; fill(); } });
    const table = el("table", { id: "explore-hand-table" });
    const count = el("span", { id: "explore-hand-count", class: "muted" });
    const head = el("tr", {}, columns.map(([key, name]) => el("th", { "data-key": key, class: "sortable",
      onclick: () => { if (sortKey === key) sortDir = -sortDir; else { sortKey = key; sortDir = key === "hand" || key === "category" ? 1 : -1; } fill(); } },
      name)));
    const body = el("tbody");
    table.append(el("thead", {}, head), body);
    const rows = handRows(entry);
    function fill() {
      for (const th of head.children) {
        th.classList.toggle("sorted", th.dataset.key === sortKey);
        th.dataset.dir = th.dataset.key === sortKey ? (sortDir > 0 ? "asc" : "desc") : "";
      }
      const q = handFilter.trim().toLowerCase();
      const shown = rows.filter((r) => !q || r.hand.toLowerCase().includes(q) || r.class.toLowerCase() === q
        || r.category.toLowerCase().includes(q));
      const key = sortKey in (rows[0] || {}) ? sortKey : "weight";
      shown.sort((x, y) => {
        const a = x[key], b = y[key];
        if (a === null || a === undefined) return (b === null || b === undefined) ? 0 : 1;  // unknowns last
        if (b === null || b === undefined) return -1;
        return (typeof a === "string" ? a.localeCompare(b) : a - b) * sortDir;
      });
      body.replaceChildren(...shown.map((r) => el("tr", { "data-hand": r.hand, "data-class": r.class },
        el("td", {}, r.hand), el("td", {}, r.category), el("td", { "data-v": r.weight }, pct(r.weight, 2)),
        el("td", { "data-v": r.equity }, pct(r.equity)),
        el("td", { "data-v": r.ev }, r.ev === null ? "-" : zs.fmt(r.ev, 3)),
        el("td", { "data-v": r.eqr }, r.eqr === null || r.eqr === undefined ? "-" : zs.fmt(r.eqr, 2)),
        acting ? report.actions.map((a, k) => el("td", { "data-v": r["a" + k] }, pct(r["a" + k]))) : [])));
      count.textContent = `${shown.length} of ${rows.length} hands`;
    }
    fill();
    return el("div", { id: "explore-hands" },
      el("h3", {}, `${seat(entry.player)}'s hands at this node`),
      el("div", { class: "explore-form" }, filter, count),
      el("div", { class: "scroll" }, table));
  }

  function showTip(event, entry, name, k, actions) {
    if (!entry.grid) return;
    tooltip.replaceChildren(...classFigures(entry, name, actions));
    tooltip.hidden = false;
    moveTip(event);
  }

  // beside the pointer, kept inside the window (the bottom rows' tips open upwards)
  function moveTip(event) {
    const w = tooltip.offsetWidth, h = tooltip.offsetHeight;
    let x = event.clientX + 14, y = event.clientY + 14;
    if (x + w > window.innerWidth - 4) x = Math.max(4, event.clientX - w - 14);
    if (y + h > window.innerHeight - 4) y = Math.max(4, event.clientY - h - 14);
    tooltip.style.left = x + "px";
    tooltip.style.top = y + "px";
  }

  // --- from the solve view ------------------------------------------------------------------------
  // a run of the solve view, opened directly: POST /api/policies {run} (the server takes the run's
  // average policy from its solver: no file goes through the page)
  async function openRun(runId) {
    zs.showView("explore");
    let summary;
    try {
      summary = await zs.api("/api/policies", { method: "POST", body: { run: String(runId) } });
    } catch (e) {
      zs.showError(`cannot open run ${runId}'s policy: POST /api/policies {"run": "${runId}"} answered "${e.message}"; ` +
        "save it with zerosum solve --save and load the file here");
      return;
    }
    document.getElementById("explore-game").value = summary.name || "";
    await open(summary);
  }

  zs.views.explore = { init, show() {}, open, openRun };
})();
