// The hold'em spot builder (in the solve view): a form for everything a --spot file holds (board,
// pot, stack, rake, both ranges on 13x13 grids, bet and raise sizes per street and player, donk
// sizes, thresholds, name and notes), a live estimate of the tree's size (POST /api/spots/estimate),
// load and save of spot files, and a solve of the spot (POST /api/runs {"game": "holdem", "spot"}).
// The range texts are the spot's: a loaded file keeps its text as written; painting the grid
// rewrites the text from the grid (class by class), typing the text redraws the grid (read by the
// library's parser: POST /api/spots/range).
"use strict";

(function () {
  const el = zs.el;
  const RANKS = "AKQJT98765432";  // grid order
  const SUITS = "shdc";
  const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const STREETS = ["flop", "turn", "river"];
  const FIELDS = ["name", "board", "pot", "stack", "ranges", "betting", "streets", "add_allin_threshold",
    "force_allin_threshold", "merging_threshold", "rake", "same_sizes_for_both_players", "notes"];
  // per player: weights[p][i][j] (0..1); the text box is the spot's range
  const weights = [blank(), blank()];
  let notes = {};           // the spot's *_note fields, kept as loaded (and editable)
  let streetValues = {};    // street name -> {same, oop: {bet, raise}, ip: {bet, raise}, donk} as typed
  let estimateTimer = null, estimateSeq = 0;
  const rangeTimers = [null, null], rangeSeq = [0, 0];
  let painting = null;      // {player, weight} while the pointer is down on a grid

  function blank() { return RANKS.split("").map(() => new Array(13).fill(0)); }
  function $(id) { return document.getElementById(id); }

  function cellName(i, j) {
    if (i === j) return RANKS[i] + RANKS[j];
    return i < j ? RANKS[i] + RANKS[j] + "s" : RANKS[j] + RANKS[i] + "o";
  }

  // the board's cards ("Td9d6hQc" -> ["Td", "9d", "6h", "Qc"]), or null where it does not read
  function boardCards(text) {
    const t = String(text || "").replace(/[\s,]/g, "");
    if (t.length % 2) return null;
    const out = [];
    for (let k = 0; k < t.length; k += 2) {
      const card = t[k].toUpperCase() + t[k + 1].toLowerCase();
      if (!"AKQJT98765432".includes(card[0]) || !SUITS.includes(card[1]) || out.includes(card)) return null;
      out.push(card);
    }
    return out;
  }

  // live combos of a grid cell with the board's cards dead
  function liveCombos(i, j, dead) {
    const hi = RANKS[Math.min(i, j)], lo = RANKS[Math.max(i, j)];
    let n = 0;
    for (let a = 0; a < 4; a++) {
      for (let b = 0; b < 4; b++) {
        if (i === j ? b <= a : (i < j ? a !== b : a === b)) continue;
        if (dead.has(hi + SUITS[a]) || dead.has(lo + SUITS[b])) continue;
        n++;
      }
    }
    return n;
  }

  function deadSet() { return new Set(boardCards($("builder-board").value) || []); }

  function combos(p) {
    const dead = deadSet();
    let total = 0;
    for (let i = 0; i < 13; i++) for (let j = 0; j < 13; j++) total += weights[p][i][j] * liveCombos(i, j, dead);
    return total;
  }

  function fmtWeight(w) { return String(Number(w.toFixed(4))); }

  // the grid as range text: pairs, then each top card's suited and offsuit hands, runs of one
  // weight written as spans (QQ+, JJ-88, KTs+, A5s-A2s), a weight below 1 as ":w"
  function gridText(p) {
    const g = weights[p], parts = [];
    const emit = (first, last, weight, plus) => {
      const w = weight < 1 ? ":" + fmtWeight(weight) : "";
      if (first === last) parts.push(first + w);
      else if (plus) parts.push(last + "+" + w);
      else parts.push(first + "-" + last + w);
    };
    // pairs, from AA down
    for (let i = 0; i < 13;) {
      const w = g[i][i];
      if (!w) { i++; continue; }
      let k = i;
      while (k + 1 < 13 && g[k + 1][k + 1] === w) k++;
      emit(cellName(i, i), cellName(k, k), w, i === 0 && k > i);
      i = k + 1;
    }
    for (const suited of [true, false]) {
      for (let top = 0; top < 13; top++) {
        const at = (kick) => (suited ? g[top][kick] : g[kick][top]);
        for (let kick = top + 1; kick < 13;) {
          const w = at(kick);
          if (!w) { kick++; continue; }
          let end = kick;
          while (end + 1 < 13 && at(end + 1) === w) end++;
          const name = (x) => RANKS[top] + RANKS[x] + (suited ? "s" : "o");
          // "KTs+": from the kicker up to one below the top card
          emit(name(kick), name(end), w, kick === top + 1 && end > kick);
          kick = end + 1;
        }
      }
    }
    return parts.join(",");
  }

  function combosText(x) { return `${Number(x.toFixed(2))} combos`; }

  function drawGrid(p) {
    const dead = deadSet();
    const grid = $(`builder-grid-${p}`);
    for (const cell of grid.children) {
      const i = Number(cell.dataset.i), j = Number(cell.dataset.j), w = weights[p][i][j];
      const live = liveCombos(i, j, dead);
      cell.style.setProperty("--w", String(w));
      cell.classList.toggle("on", w > 0);
      cell.classList.toggle("dead", live === 0);
      cell.dataset.weight = String(w);
      cell.title = `${cell.dataset.hand}: ${Math.round(100 * w)} % of ${live} combos`;
    }
    $(`builder-combos-${p}`).textContent = combosText(combos(p));
  }

  // painting: the weight of the slider on each cell the pointer passes (a first cell already at
  // that weight erases instead)
  function paintAt(p, target) {
    const cell = target && target.closest ? target.closest(".bgrid-cell") : null;
    if (!cell || !painting || cell.parentElement.id !== `builder-grid-${p}`) return;
    const i = Number(cell.dataset.i), j = Number(cell.dataset.j);
    if (weights[p][i][j] === painting.weight) return;
    weights[p][i][j] = painting.weight;
    drawGrid(p);
    $(`builder-range-${p}`).value = gridText(p);
    scheduleEstimate();
  }

  function makeGrid(p) {
    const grid = el("div", { id: `builder-grid-${p}`, class: "bgrid" });
    for (let i = 0; i < 13; i++) {
      for (let j = 0; j < 13; j++) {
        const name = cellName(i, j);
        grid.append(el("div", { class: "bgrid-cell" + (i === j ? " pair" : i < j ? " suited" : " offsuit"),
          "data-i": i, "data-j": j, "data-hand": name }, name));
      }
    }
    grid.addEventListener("pointerdown", (e) => {
      const cell = e.target.closest(".bgrid-cell");
      if (!cell) return;
      e.preventDefault();
      const w = Number($("builder-weight").value) / 100;
      const here = weights[p][Number(cell.dataset.i)][Number(cell.dataset.j)];
      painting = { player: p, weight: here === w ? 0 : w };
      paintAt(p, cell);
    });
    grid.addEventListener("pointermove", (e) => {
      if (!painting || painting.player !== p) return;
      paintAt(p, document.elementFromPoint(e.clientX, e.clientY));
    });
    grid.addEventListener("pointerover", (e) => { if (painting && painting.player === p) paintAt(p, e.target); });
    return grid;
  }

  // the text typed (or loaded) -> the grid, as the library reads it
  function scheduleRange(p, now = false) {
    clearTimeout(rangeTimers[p]);
    rangeTimers[p] = setTimeout(() => readRange(p), now ? 0 : 300);
  }

  async function readRange(p) {
    const seq = ++rangeSeq[p];
    const cards = boardCards($("builder-board").value);
    const board = cards && cards.length >= 3 && cards.length <= 5 ? cards.join("") : "";
    const box = $(`builder-range-error-${p}`);
    let answer;
    try {
      answer = await zs.api("/api/spots/range", { method: "POST", quiet: true,
        body: { text: $(`builder-range-${p}`).value, board } });
    } catch (e) {
      if (seq === rangeSeq[p]) { box.textContent = e.message; box.hidden = false; }
      return;
    }
    if (seq !== rangeSeq[p]) return;
    box.hidden = true;
    for (let i = 0; i < 13; i++) for (let j = 0; j < 13; j++) weights[p][i][j] = answer.weights[i][j] || 0;
    drawGrid(p);
    $(`builder-combos-${p}`).textContent = combosText(answer.combos);
    $(`builder-combos-${p}`).dataset.server = String(answer.combos);
  }

  // --- the board's card picker ------------------------------------------------------------------
  function makePicker() {
    const box = el("div", { id: "builder-cards", class: "bcards" });
    for (const s of SUITS) {
      const row = el("div", { class: "bcards-row" });
      for (const r of RANKS) {
        row.append(el("button", { type: "button", class: `bcard suit-${s}`, "data-card": r + s,
          title: r + s, onclick: () => toggleCard(r + s) }, r, el("span", {}, SUIT_SYMBOL[s])));
      }
      box.append(row);
    }
    return box;
  }

  function toggleCard(card) {
    const input = $("builder-board");
    const cards = boardCards(input.value) || [];
    const k = cards.indexOf(card);
    if (k >= 0) cards.splice(k, 1);
    else if (cards.length >= 5) { zs.showError("a board has 3, 4 or 5 cards: take one off first"); return; }
    else cards.push(card);
    input.value = cards.join("");
    boardChanged();
  }

  function boardChanged() {
    const cards = boardCards($("builder-board").value);
    const on = new Set(cards || []);
    for (const b of document.querySelectorAll("#builder-cards .bcard")) b.classList.toggle("on", on.has(b.dataset.card));
    $("builder-board-note").textContent = !cards ? "unreadable board (cards like Td9d6h, each once)" :
      (cards.length < 3 ? `${cards.length} of 3-5 cards` : ["flop", "turn", "river"][cards.length - 3] + " spot");
    drawStreets();
    drawGrid(0); drawGrid(1);
    scheduleRange(0); scheduleRange(1);
    scheduleEstimate();
  }

  // --- sizes per street -------------------------------------------------------------------------
  function streetNames() {
    const cards = boardCards($("builder-board").value);
    const n = cards && cards.length >= 3 && cards.length <= 5 ? cards.length : 4;
    return STREETS.slice(n - 3);
  }

  function sizesText(v) { return v === undefined || v === null ? "" : (Array.isArray(v) ? v.join(",") : String(v)); }
  function sizesList(text) { return String(text).split(/[\s,]+/).map((t) => t.trim()).filter((t) => t); }

  function saveStreetInputs() {
    for (const tr of document.querySelectorAll("#builder-streets tbody tr")) {
      const v = {};
      for (const input of tr.querySelectorAll("input")) v[input.dataset.key] = input.type === "checkbox" ? input.checked : input.value;
      streetValues[tr.dataset.street] = v;
    }
  }

  function drawStreets() {
    saveStreetInputs();
    const body = $("builder-streets").querySelector("tbody");
    body.replaceChildren();
    streetNames().forEach((name, k) => {
      const v = streetValues[name] || { same: true, oop_bet: "50%", oop_raise: "2.5x", ip_bet: "50%", ip_raise: "2.5x", donk: "" };
      const input = (key, attrs = {}) => el("input", Object.assign({ "data-key": key, id: `builder-${name}-${key.replace("_", "-")}`,
        size: "12", value: v[key] || "", oninput: () => { syncSame(name); scheduleEstimate(); } }, attrs));
      const same = el("input", { type: "checkbox", "data-key": "same", id: `builder-${name}-same`,
        onchange: () => { syncSame(name); scheduleEstimate(); } });
      same.checked = v.same !== false;
      body.append(el("tr", { "data-street": name }, el("td", {}, name),
        el("td", {}, input("oop_bet")), el("td", {}, input("oop_raise")),
        el("td", {}, same),
        el("td", {}, input("ip_bet")), el("td", {}, input("ip_raise")),
        el("td", {}, input("donk", k === 0 ? { disabled: true, placeholder: "(first street)" } :
          { placeholder: "bet sizes", title: "out of position's sizes when it leads after calling; empty: its bet sizes; none: no donk bets" }))));
      syncSame(name);
    });
  }

  // "same sizes for both": in position's fields show out of position's, read-only
  function syncSame(name) {
    const same = $(`builder-${name}-same`);
    if (!same) return;
    for (const key of ["bet", "raise"]) {
      const ip = $(`builder-${name}-ip-${key}`);
      ip.disabled = same.checked;
      if (same.checked) ip.value = $(`builder-${name}-oop-${key}`).value;
    }
  }

  // --- the spot <-> the form --------------------------------------------------------------------
  function numberOrAbsent(id) {
    const t = $(id).value.trim();
    return t === "" ? undefined : Number(t);
  }

  function spot() {
    const out = {};
    const name = $("builder-name").value.trim();
    if (name) out.name = name;
    out.board = $("builder-board").value.trim();
    out.pot = numberOrAbsent("builder-pot");
    out.stack = numberOrAbsent("builder-stack");
    out.ranges = [$("builder-range-0").value.trim(), $("builder-range-1").value.trim()];
    const betting = $("builder-betting").value;
    if (betting) out.betting = betting;
    saveStreetInputs();
    out.streets = {};
    for (const s of streetNames()) {
      const v = streetValues[s] || {};
      const street = v.same !== false ? { bet: sizesList(v.oop_bet || ""), raise: sizesList(v.oop_raise || "") } :
        { oop: { bet: sizesList(v.oop_bet || ""), raise: sizesList(v.oop_raise || "") },
          ip: { bet: sizesList(v.ip_bet || ""), raise: sizesList(v.ip_raise || "") } };
      const donk = String(v.donk || "").trim();
      if (donk && s !== streetNames()[0]) street.donk = donk.toLowerCase() === "none" ? [] : sizesList(donk);
      out.streets[s] = street;
    }
    const same = $("builder-same").value;
    if (same) out.same_sizes_for_both_players = same === "true";
    for (const key of ["add_allin_threshold", "force_allin_threshold", "merging_threshold"]) {
      const x = numberOrAbsent(`builder-${key.replace(/_/g, "-")}`);
      if (x !== undefined) out[key] = x;
    }
    const rate = numberOrAbsent("builder-rake-rate"), cap = numberOrAbsent("builder-rake-cap");
    // no cap given: none (a cap of 0 with a rate is refused: postflop-solver reads it as no rake)
    if (rate !== undefined || cap !== undefined) out.rake = cap === undefined ? { rate: rate === undefined ? 0 : rate }
      : { rate: rate === undefined ? 0 : rate, cap };
    const text = $("builder-notes").value;
    if (text.trim()) out.notes = text;
    for (const input of document.querySelectorAll("#builder-note-fields input")) {
      if (input.value.trim()) out[input.dataset.key] = input.value;
    }
    for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
    return out;
  }

  function load(data) {
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("a spot file is one JSON object");
    const unknown = Object.keys(data).filter((k) => !FIELDS.includes(k) && !k.endsWith("_note"));
    if (unknown.length) throw new Error(`the spot has an unknown field ${JSON.stringify(unknown[0])}; known: ${FIELDS.join(", ")}`);
    const set = (id, v) => { $(id).value = v === undefined || v === null ? "" : String(v); };
    set("builder-name", data.name);
    set("builder-board", data.board);
    set("builder-pot", data.pot);
    set("builder-stack", data.stack);
    const ranges = Array.isArray(data.ranges) ? data.ranges : ["", ""];
    set("builder-range-0", ranges[0]);
    set("builder-range-1", ranges[1]);
    set("builder-betting", data.betting || "");
    set("builder-same", data.same_sizes_for_both_players === undefined ? "" : String(Boolean(data.same_sizes_for_both_players)));
    for (const key of ["add_allin_threshold", "force_allin_threshold", "merging_threshold"]) set(`builder-${key.replace(/_/g, "-")}`, data[key]);
    const rake = data.rake;
    set("builder-rake-rate", rake === undefined ? "" : (typeof rake === "object" && rake ? rake.rate : rake));
    set("builder-rake-cap", rake && typeof rake === "object" ? rake.cap : "");
    set("builder-notes", data.notes);
    notes = {};
    for (const [k, v] of Object.entries(data)) if (k.endsWith("_note")) notes[k] = v;
    drawNotes();
    streetValues = {};
    for (const [name, st] of Object.entries(data.streets || {})) {
      if (!st || typeof st !== "object") continue;
      const split = "oop" in st || "ip" in st;
      const oop = split ? st.oop || {} : st, ip = split ? st.ip || {} : st;
      streetValues[name] = { same: !split, oop_bet: sizesText(oop.bet), oop_raise: sizesText(oop.raise),
        ip_bet: sizesText(ip.bet), ip_raise: sizesText(ip.raise),
        donk: st.donk === undefined || st.donk === null ? "" : (Array.isArray(st.donk) && !st.donk.length ? "none" : sizesText(st.donk)) };
    }
    $("builder-streets").querySelector("tbody").replaceChildren();  // (not saved over the loaded values)
    boardChanged();
    scheduleRange(0, true);
    scheduleRange(1, true);
  }

  function drawNotes() {
    const box = $("builder-note-fields");
    box.replaceChildren(...Object.entries(notes).map(([k, v]) => el("label", {}, k,
      el("input", { "data-key": k, value: String(v), size: "60" }))));
  }

  function readFile(event) {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      try { load(JSON.parse(String(reader.result))); zs.showInfo(`loaded ${file.name}`); } catch (e) {
        zs.showError(`${file.name}: ${e.message}`);
      }
      event.target.value = "";
    };
    reader.onerror = () => zs.showError(`cannot read ${file.name}`);
    reader.readAsText(file);
  }

  function save() {
    const data = spot();
    const text = JSON.stringify(data, null, 2) + "\n";
    const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
      download: `${(data.name || "spot").replace(/[^\w.-]+/g, "_")}.json` });
    document.body.append(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  // --- the estimate (debounced; an answer older than the last request is dropped) ----------------
  function scheduleEstimate() {
    $("builder-json").value = JSON.stringify(spot(), null, 2);
    clearTimeout(estimateTimer);
    estimateTimer = setTimeout(estimate, 400);
  }

  function bytes(n) { return n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(2)} GiB` : `${(n / 2 ** 20).toFixed(1)} MiB`; }

  async function estimate() {
    const seq = ++estimateSeq, box = $("builder-estimate");
    box.classList.add("busy");
    let e;
    try {
      e = await zs.api("/api/spots/estimate", { method: "POST", quiet: true, body: { spot: spot() } });
    } catch (err) {
      if (seq !== estimateSeq) return;
      // the server counts one tree at a time (429 while a deep one counts): ask again in a moment
      if (/still counting/.test(err.message)) { box.textContent = err.message; estimateTimer = setTimeout(estimate, 1500); return; }
      box.className = "bad";
      box.textContent = err.message;
      return;
    }
    if (seq !== estimateSeq) return;
    box.className = e.fits ? "" : "bad";
    box.dataset.publicNodes = String(e.public_nodes);
    box.dataset.infosetActions = String(e.infoset_actions);
    box.dataset.publicBytes = String(e.public_bytes);
    box.textContent = `${e.public_nodes.toLocaleString("en")} public nodes, ${e.infoset_actions.toLocaleString("en")} ` +
      `information-set actions, about ${bytes(e.public_bytes)} to solve (whole tree, before suit isomorphism); ` +
      `${e.combos.map((c) => Number(c.toFixed(2))).join(" vs ")} combos` +
      (e.fits ? "" : `: more than the ${bytes(e.memory_limit)} available, a run is refused`);
  }

  // --- solve --------------------------------------------------------------------------------------
  async function solve() {
    const body = { game: "holdem", spot: spot() };
    const algorithm = $("solve-algorithm"), holdem = $("solve-game") && $("solve-game").value === "holdem";
    if (holdem && algorithm && algorithm.value) body.algorithm = algorithm.value;
    const iterations = Number($("solve-iterations") && $("solve-iterations").value);
    if (iterations > 0) body.iterations = iterations;
    const target = $("solve-target") ? $("solve-target").value.trim() : "0.5";
    if (target !== "") body.target_pot_fraction = Number(target) / 100;
    const threads = Number($("solve-threads") && $("solve-threads").value);
    if (threads >= 1) body.threads = threads;
    try { await zs.api("/api/runs", { method: "POST", body }); } catch (e) { return; }
    if (zs.views.solve && zs.views.solve.refresh) zs.views.solve.refresh();
  }

  function init() {
    const root = $("view-solve");
    const num = (id, label, attrs = {}) => el("label", {}, label, el("input", Object.assign({ id, type: "number", step: "any",
      min: "0", size: "7", oninput: scheduleEstimate }, attrs)));
    const rangeBox = (p) => el("div", { class: "brange" },
      el("h4", {}, p === 0 ? "out of position (player 0)" : "in position (player 1)",
        " ", el("span", { id: `builder-combos-${p}`, class: "bcombos" }, "")),
      makeGrid(p),
      el("label", {}, "range (empty: every hand)", el("textarea", { id: `builder-range-${p}`, rows: "3", cols: "44",
        spellcheck: "false", oninput: () => { scheduleRange(p); scheduleEstimate(); } })),
      el("div", { id: `builder-range-error-${p}`, class: "bad", hidden: true }));
    const panel = el("details", { id: "builder", class: "panel" },
      el("summary", {}, "Hold'em spot builder (board, ranges, sizes; load and save a --spot file)"),
      el("div", { class: "row" },
        el("label", {}, "spot file", el("input", { id: "builder-file", type: "file", accept: ".json,application/json", onchange: readFile })),
        el("button", { id: "builder-save", type: "button", onclick: save }, "Save spot file"),
        el("button", { id: "builder-use", type: "button", title: "copy the spot into the spot JSON box of the form above",
          onclick: () => { const box = $("solve-spot"); if (box) box.value = JSON.stringify(spot(), null, 2); } }, "To the spot box"),
        el("button", { id: "builder-solve", type: "button", class: "primary", onclick: solve }, "Solve this spot")),
      el("div", { class: "row" },
        el("label", {}, "name", el("input", { id: "builder-name", size: "24", oninput: scheduleEstimate })),
        el("label", {}, "board", el("input", { id: "builder-board", size: "12", placeholder: "Td9d6hQc",
          oninput: boardChanged })),
        el("span", { id: "builder-board-note", class: "muted" }),
        num("builder-pot", "pot"), num("builder-stack", "effective stack"),
        el("label", {}, "betting", el("select", { id: "builder-betting", onchange: scheduleEstimate },
          el("option", { value: "" }, "(default: no-limit)"), el("option", { value: "no-limit" }, "no-limit"),
          el("option", { value: "fixed-limit" }, "fixed-limit"))),
        num("builder-rake-rate", "rake rate"), num("builder-rake-cap", "rake cap")),
      makePicker(),
      el("table", { id: "builder-streets", class: "bstreets" },
        el("thead", {}, el("tr", {}, ["street", "OOP bet", "OOP raise", "same for IP", "IP bet", "IP raise", "OOP donk"]
          .map((h) => el("th", {}, h)))), el("tbody", {})),
      el("div", { class: "row" },
        num("builder-add-allin-threshold", "add all-in threshold"), num("builder-force-allin-threshold", "force all-in threshold"),
        num("builder-merging-threshold", "merging threshold"),
        el("label", {}, "same_sizes_for_both_players", el("select", { id: "builder-same", onchange: scheduleEstimate },
          el("option", { value: "" }, "(absent)"), el("option", { value: "true" }, "true"), el("option", { value: "false" }, "false")))),
      el("p", { class: "muted" }, "Sizes: 60% of the pot, 2.5x the previous bet (raises), 4c chips, 4c2r chips while at most 2 ",
        "bets stand, e geometric, a all-in; comma-separated. Donk: empty = out of position's bet sizes, none = no donk bets."),
      el("div", { class: "row" }, el("label", {}, "paint weight (%)",
        el("input", { id: "builder-weight", type: "range", min: "0", max: "100", step: "1", value: "100",
          oninput: () => { $("builder-weight-value").textContent = `${$("builder-weight").value} %`; } })),
        el("span", { id: "builder-weight-value" }, "100 %"),
        el("span", { class: "muted" }, "click or drag over the grid to paint; a first cell already at that weight erases")),
      el("div", { class: "branges" }, rangeBox(0), rangeBox(1)),
      el("div", {}, el("strong", {}, "estimate: "), el("span", { id: "builder-estimate" }, "")),
      el("label", {}, "notes", el("textarea", { id: "builder-notes", rows: "2", cols: "70", oninput: scheduleEstimate })),
      el("div", { id: "builder-note-fields" }),
      el("details", {}, el("summary", {}, "the spot's JSON"), el("textarea", { id: "builder-json", rows: "10", cols: "80",
        readonly: true, spellcheck: "false" })));
    const after = $("solve-spot-box");
    if (after && after.parentElement === root) after.after(panel); else root.append(panel);
    window.addEventListener("pointerup", () => { painting = null; });
    window.addEventListener("pointercancel", () => { painting = null; });
    load({ board: "Td9d6hQc", pot: 200, stack: 900, ranges: ["", ""],
      streets: { turn: { bet: ["60%", "a"], raise: ["2.5x"] }, river: { bet: ["60%", "a"], raise: ["2.5x"] } } });
  }

  zs.views.builder = { init, spot, load };
})();
