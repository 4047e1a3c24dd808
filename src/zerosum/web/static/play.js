// The play view: hands of Kuhn or Leduc poker against a solved policy (the bot's action and the
// probability its policy gave it, the running score with its standard error), and Connect Four
// against the exact solver (click a column; "show scores" puts each column's exact score above it).
"use strict";

(function () {
  const el = zs.el;
  let root, pokerBox, c4Box;
  let hand = null;     // the poker session's last state
  let game = null;     // the Connect Four game's last state
  let shownScores = null;  // the scores above the columns, for the board shown
  let busy = false;

  function style() {
    return el("style", {}, `
#view-play [hidden] { display: none !important; }
#view-play .play-form { display: flex; flex-wrap: wrap; gap: .8em; align-items: end; margin-bottom: .8em; }
#view-play .card { display: inline-block; min-width: 1.6em; padding: .25em .35em; margin-right: .3em; border: 1px solid #98a2b3;
  border-radius: 4px; background: #fff; font: 600 1.4rem ui-monospace, monospace; text-align: center; }
#view-play .card.red { color: #c01c28; }
#view-play .card.hidden { background: repeating-linear-gradient(45deg, #c7d7fe, #c7d7fe 4px, #eef4ff 4px, #eef4ff 8px); color: transparent; }
#view-play .hands { display: flex; gap: 2.5em; margin: .5em 0 .8em; }
#view-play .hands h3 { font-size: .85rem; color: var(--muted); font-weight: normal; margin: 0 0 .3em; }
#play-log { list-style: none; padding: 0; margin: .4em 0; font-size: .95rem; }
#play-log li { padding: 1px 0; }
#play-log li.bot { color: #a3202a; }
#play-log li.you { color: #2f6fde; }
#play-log li.chance { color: var(--muted); }
#play-actions button { margin-right: .5em; min-width: 5em; }
#play-score, #play-result, #play-c4-status, #play-c4-result { margin: .5em 0; }
#play-result, #play-c4-result { font-weight: 600; }
#play-c4-board { display: inline-flex; gap: 4px; padding: 6px; background: #2f55b4; border-radius: 8px; }
#play-c4-board .column { display: flex; flex-direction: column; gap: 4px; cursor: pointer; border-radius: 6px; padding: 2px; }
#play-c4-board .column:hover { background: #4770d0; }
#play-c4-board .column.full, #play-c4-board.over .column { cursor: default; background: none; }
#play-c4-board .cell { width: 44px; height: 44px; border-radius: 50%; background: #fff; box-sizing: border-box; }
#view-play .cell.X { background: #e5484d; }
#view-play .cell.O { background: #f5c518; }
#play-c4-board .cell.last { border: 3px solid #1d2330; }
#play-c4-scores { display: inline-flex; gap: 4px; padding: 0 6px; }
#play-c4-scores span { width: 48px; text-align: center; font: 600 .95rem ui-monospace, monospace; }
#play-c4-scores span.best { color: var(--good); }
#play-c4-scores span.bad { color: var(--bad); }
#view-play .busy::before { content: ""; display: inline-block; width: .8em; height: .8em; margin: 0 .4em 0 .6em;
  border: 2px solid var(--line); border-top-color: var(--accent); border-radius: 50%; vertical-align: middle;
  animation: play-spin .8s linear infinite; }
@keyframes play-spin { to { transform: rotate(360deg); } }
#view-play .legend .cell { display: inline-block; width: 1em; height: 1em; border-radius: 50%; vertical-align: middle; }
`);
  }

  function init() {
    root = document.getElementById("view-play");
    const gameSelect = el("select", { id: "play-game", onchange: showForm },
      el("option", { value: "kuhn" }, "Kuhn poker"), el("option", { value: "leduc" }, "Leduc hold'em"),
      el("option", { value: "holdem" }, "Hold'em river"),
      el("option", { value: "connect4" }, "Connect Four"));
    const seat = el("select", { id: "play-seat" }, el("option", { value: "0" }, "you act first"),
      el("option", { value: "1" }, "the bot acts first"));
    const policy = el("input", { type: "text", id: "play-policy", size: 14,
      placeholder: "e.g. p1 (optional)",
      title: "the id the explore view shows beside a loaded policy (\"policy id p1\"); a Kuhn or Leduc policy, of the game chosen" });
    const board = el("select", { id: "play-board" }, el("option", { value: "7x6" }, "7 x 6"),
      el("option", { value: "6x5" }, "6 x 5"), el("option", { value: "5x4" }, "5 x 4"));
    const first = el("select", { id: "play-first" }, el("option", { value: "you" }, "you"),
      el("option", { value: "solver" }, "the solver"));
    const moves = el("input", { type: "text", id: "play-moves", size: 12, placeholder: "e.g. 4453 (optional)" });
    root.append(style(),
      el("p", {}, "Play poker against a solved policy (or one loaded in the explore view), ",
        "or Connect Four against the exact solver."),
      el("p", { id: "play-bot", class: "muted" }),
      el("div", { class: "play-form" },
        el("label", {}, "game", gameSelect),
        el("label", { class: "poker-only" }, "seat of the first hand", seat),
        el("label", { class: "poker-only" }, "bot: loaded policy id", policy),
        el("label", { class: "c4-only" }, "board", board),
        el("label", { class: "c4-only" }, "moves first", first),
        el("label", { class: "c4-only" }, "start after moves", moves),
        el("button", { id: "play-start", class: "primary", onclick: start }, "New game")));
    pokerBox = el("div", { id: "play-poker", class: "panel", hidden: true });
    c4Box = el("div", { id: "play-c4", class: "panel", hidden: true });
    root.append(pokerBox, c4Box);
    showForm();
  }

  // what the server's bot of each game is (play.py's _solve: CFR+ on the history tree for Kuhn and
  // Leduc, DCFR on the public tree for hold'em); a hand's header repeats the server's own words
  const BOTS = {
    kuhn: "the bot: CFR+'s average policy, 1,000 iterations on the history tree",
    leduc: "the bot: CFR+'s average policy, 1,000 iterations on the history tree",
    holdem: "the bot: DCFR's average policy, 1,000 iterations on the public tree",
    connect4: "the opponent: the exact solver (iterative-deepening alpha-beta when an early move takes too long)",
  };

  function showForm() {
    const name = document.getElementById("play-game").value;
    document.getElementById("play-bot").textContent = BOTS[name] || "";
    const c4 = name === "connect4";
    for (const node of root.querySelectorAll(".poker-only")) node.hidden = c4;
    for (const node of root.querySelectorAll(".c4-only")) node.hidden = !c4;
  }

  async function call(path, options) {
    if (busy) return null;
    busy = true;
    try {
      return await zs.api(path, options);
    } catch (e) {
      return null;  // the message line shows the error
    } finally {
      busy = false;
    }
  }

  async function start() {
    const name = document.getElementById("play-game").value;
    if (name === "connect4") return startConnect4();
    const body = { game: name, seat: Number(document.getElementById("play-seat").value) };
    const pid = document.getElementById("play-policy").value.trim();
    if (pid) body.policy = pid;
    c4Box.hidden = true;
    pokerBox.hidden = false;
    pokerBox.replaceChildren(el("p", { class: "muted" }, "solving the bot's policy..."));
    const data = await call("/api/play/new", { method: "POST", body });
    if (data) showHand(data);
    else pokerBox.replaceChildren();
  }

  // --- poker ----------------------------------------------------------------------------------
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };

  function cards(text, hidden) {
    if (!text) return [el("span", { class: "muted" }, "none yet")];
    // hold'em cards come as rank + suit pairs ("AsKh"); the rank-only games as ranks ("K")
    const list = /^([2-9TJQKA][cdhs])+$/.test(text) ? text.match(/../g) : Array.from(text);
    return list.map((c) => el("span", { class: "card" + (hidden ? " hidden" : "") + (c[1] === "d" || c[1] === "h" ? " red" : "") },
      hidden ? "?" : (c.length === 2 ? c[0] + SUITS[c[1]] : c)));
  }

  // hold'em's actions come with their words in chips ("bet 4 (40 % pot)", "call 4")
  function eventText(e) {
    if (e.by === "chance") return e.text;
    if (e.by === "you") return e.words ? `you: ${e.words}` : `you ${e.name} (${e.action})`;
    const p = `with probability ${zs.fmt(e.probability, 3)}`;
    return e.words ? `the bot: ${e.words}, ${p}` : `the bot ${e.name}s (${e.action}), ${p}`;
  }

  const chips = (x) => String(Math.round(x * 100) / 100);

  // hold'em: the pot and both stacks, in chips, and what is to call
  function tableText(t) {
    return `${t.street}: pot ${chips(t.pot)}; your stack ${chips(t.your_stack)}, the bot's ${chips(t.bot_stack)}` +
      (t.to_call ? `; ${chips(t.to_call)} to call` : "");
  }

  function scoreText(s) {
    if (!s.hands) return "score: no hand played yet";
    const sign = (x) => (x >= 0 ? "+" : "") + zs.fmt(x, 3);
    let text = `score: ${sign(s.total)} over ${s.hands} hand${s.hands > 1 ? "s" : ""}, mean ${sign(s.mean)}`;
    if (s.stderr !== null) text += ` ± ${zs.fmt(s.stderr, 3)} per hand (standard error)`;
    return text;
  }

  function showHand(data) {
    hand = data;
    const seatText = data.seat === 0 ? "you are player 1 (you act first)" : "you are player 2 (the bot acts first)";
    const actions = el("div", { id: "play-actions" },
      data.legal_actions.map((a) => el("button", { "data-action": a.action, onclick: () => act(a.action) },
        a.words || a.name)));
    const holdem = data.game.startsWith("holdem");
    const botCards = data.over ? cards(data.bot_cards, false) : cards(holdem ? "??" : "?", true);
    const botInfo = data.bot.nash_conv === null || data.bot.nash_conv === undefined ? data.bot.source
      : `${data.bot.source}, NashConv ${zs.fmt(data.bot.nash_conv, 3)}`;
    const children = [
      el("div", {}, el("strong", {}, `${data.name}, hand ${data.hand}: `), seatText,
        el("span", { class: "muted" }, ` — the bot: ${botInfo}`)),
      el("div", { class: "hands" },
        el("div", {}, el("h3", {}, holdem ? "your hand" : "your card"), el("div", { id: "play-your-cards" }, cards(data.your_cards))),
        data.game === "kuhn" ? null
          : el("div", {}, el("h3", {}, holdem ? "board" : "public card"), el("div", { id: "play-public-cards" }, cards(data.public_cards))),
        el("div", {}, el("h3", {}, holdem ? "the bot's hand" : "the bot's card"), el("div", { id: "play-bot-cards" }, botCards))),
      data.table ? el("div", { id: "play-pot", "data-pot": data.table.pot }, tableText(data.table)) : "",
      el("ol", { id: "play-log" }, data.log.map((e) => el("li", { class: e.by }, eventText(e)))),
    ];
    if (data.over) {
      const p = data.payoff;
      const verdict = p > 0 ? `you win ${zs.fmt(p, 2)}` : p < 0 ? `you lose ${zs.fmt(-p, 2)}` : "a split pot (0)";
      const pot = data.table ? ` (the pot: ${chips(data.table.pot)})` : "";
      children.push(el("div", { id: "play-result" }, `Hand over: ${verdict}${pot}. The bot held ${data.bot_cards}.`));
      children.push(el("button", { id: "play-next", class: "primary", onclick: nextHand }, "Next hand (seats swap)"));
    } else {
      children.push(el("div", {}, "your move: "), actions);
    }
    children.push(el("div", { id: "play-score" }, scoreText(data.score)));
    pokerBox.replaceChildren(...children);
  }

  async function act(action) {
    const data = await call(`/api/play/${hand.id}/act`, { method: "POST", body: { action } });
    if (data) showHand(data);
  }

  async function nextHand() {
    const data = await call(`/api/play/${hand.id}/next`, { method: "POST", body: {} });
    if (data) showHand(data);
  }

  // --- Connect Four ---------------------------------------------------------------------------
  async function startConnect4() {
    const [width, height] = document.getElementById("play-board").value.split("x").map(Number);
    const body = { first: document.getElementById("play-first").value, width, height,
      moves: document.getElementById("play-moves").value.trim() };
    pokerBox.hidden = true;
    c4Box.hidden = false;
    c4Box.replaceChildren(el("p", { class: "muted" }, body.first === "solver" ? "the solver is thinking..." : ""));
    const data = await call("/api/connect4/new", { method: "POST", body });
    if (data) showBoard(data);
    else c4Box.replaceChildren();
  }

  function replyText(reply) {
    if (!reply) return "";
    let text = `The solver played column ${reply.column}`;
    if (reply.exact) text += ` (its exact score ${reply.score > 0 ? "+" : ""}${reply.score} for the solver, ${zs.fmt(reply.seconds, 2)} s).`;
    else text += ` (${reply.how} it).`;
    return text;
  }

  function showBoard(data, scores) {
    game = data;
    shownScores = scores;
    const lastColumn = data.moves ? Number(data.moves[data.moves.length - 1]) - 1 : -1;
    const lastRow = lastColumn >= 0 ? data.board.findIndex((row) => row[lastColumn] !== ".") : -1;
    const board = el("div", { id: "play-c4-board", class: data.over ? "over" : "" });
    for (let c = 0; c < data.width; c++) {
      const full = data.board[0][c] !== ".";
      const column = el("div", { class: "column" + (full ? " full" : ""), "data-column": c + 1,
        title: `column ${c + 1}`, onclick: () => move(c + 1) });
      for (let r = 0; r < data.height; r++) {
        const mark = data.board[r][c];
        column.append(el("div", { class: "cell" + (mark !== "." ? " " + mark : "") + (c === lastColumn && r === lastRow ? " last" : "") }));
      }
      board.append(column);
    }
    const scoreRow = el("div", { id: "play-c4-scores" });
    if (scores) {
      const best = Math.max(...scores.filter((s) => s !== null));
      scores.forEach((s, c) => scoreRow.append(el("span", { "data-column": c + 1,
        class: s === null ? "" : s === best ? "best" : s < 0 ? "bad" : "" }, s === null ? "" : (s > 0 ? "+" : "") + s)));
    }
    let status = "";
    if (!data.over) status = data.to_move === "you" ? "Your move: click a column." : "The solver is to move.";
    const children = [
      el("div", { class: "legend" }, "you: ", el("span", { class: "cell " + data.you }), ` (${data.you}),  the solver: `,
        el("span", { class: "cell " + data.solver }), ` (${data.solver}); moves so far: `,
        el("code", { id: "play-c4-moves" }, data.moves || "none")),
      el("div", { id: "play-c4-status" }, replyText(data.reply), " ", status),
      scoreRow, el("div", {}, board),
      el("div", {}, el("button", { id: "play-c4-show-scores", onclick: showScores, disabled: data.over },
        "Show scores"),
      el("span", { class: "muted" }, " the exact score of each column for you: positive wins (the larger, the sooner), 0 draws, negative loses")),
    ];
    if (data.over) {
      const text = data.result === "draw" ? "Draw: the board is full." : data.winner === "you" ? "You win!" : "The solver wins.";
      children.push(el("div", { id: "play-c4-result" }, text));
    }
    c4Box.replaceChildren(...children);
    if (data.over) zs.showInfo("Game over: " + data.result + ".");
  }

  async function move(column) {
    if (!game || game.over || busy) return;
    document.getElementById("play-c4-status").textContent = "the solver is thinking...";
    const data = await call(`/api/connect4/${game.id}/move`, { method: "POST", body: { column } });
    if (data) showBoard(data);
    else showBoard(game, shownScores);  // the error is in the message line; the board is unchanged
  }

  async function showScores() {
    if (!game || busy) return;
    // the exact solver may think up to 20 s early in a 7x6 game: say so while it does
    const button = document.getElementById("play-c4-show-scores");
    button.disabled = true;
    button.textContent = "Scoring...";
    c4Box.setAttribute("aria-busy", "true");
    button.after(el("span", { id: "play-c4-busy", class: "busy", role: "status" },
      " the exact solver is scoring every column (up to 20 s early in a game)..."));
    const data = await call(`/api/connect4/${game.id}/scores`);
    c4Box.removeAttribute("aria-busy");
    showBoard(game, data ? data.scores : shownScores);  // on an error the message line says why
  }

  zs.views.play = { init, show() {} };
})();
