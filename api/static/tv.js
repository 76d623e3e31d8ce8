/* munchlog room screen (/events/<id>/tv, issue #39; docs/events.md "The room's screen").
 *
 * No token: the screen reads what a spectator may (GET /api/events/<id>, its standings; a
 * spectator delay holds them back as every public read) and follows the event's stream as a
 * spectator (api/static/live.js): a clock change shows at once, anything else reloads, once
 * per burst; the games' results, which are not the event's events, are read every 10 s. It
 * shows the round's clock large (api/static/clock.js), the round's pairings by player name
 * with their tables and, once the round is over, the standings. A list taller than the screen
 * scrolls by itself: a pause at the top, down at SPEED pixels a second, a pause at the bottom,
 * back to the top.
 */
"use strict";
(function () {
  const EVENT = document.body.dataset.eventId;
  const API = "/api/events/" + EVENT;
  const $ = (id) => document.getElementById(id);
  const { el, status, readJSON, plural } = window.munchlogPages;
  const SPEED = 90; // px a second
  const PAUSE_MS = 3000;
  const CLOCK_TYPES = window.munchlogClock.TYPES;
  const clock = window.munchlogClock.mount($("clock"));
  const board = $("board");
  let follower = null;
  let shownKey = "";

  function byName(a, b) {
    const x = a.name.toLocaleLowerCase(), y = b.name.toLocaleLowerCase();
    return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  }

  // every player of the round: its table and whom it plays
  function pairingRows(round) {
    const rows = [];
    for (const p of round.pairings) {
      const names = Object.values(p.seats);
      for (const name of names) rows.push({ name: name, table: p.table, others: names.filter((n) => n !== name) });
    }
    for (const name of round.byes || []) rows.push({ name: name, table: null, others: [] });
    return rows.sort(byName);
  }

  function showPairings(round) {
    $("board-title").textContent = "Round " + round.round + ": pairings by name";
    const rows = pairingRows(round).map((r) => el("li", { "data-player": r.name }, [
      el("span", { class: "table", text: r.table === null ? "bye" : "table " + r.table }),
      el("span", { class: "name", text: r.name }),
      el("span", { class: "other", text: r.others.length ? "vs " + r.others.join(", ") : "" }),
    ]));
    $("rows").className = "tv-rows pairings";
    $("rows").replaceChildren(...rows);
  }

  function showStandings(number, rows) {
    $("board-title").textContent = (number ? "After round " + number : "") + ": standings";
    $("rows").className = "tv-rows standings";
    $("rows").replaceChildren(...rows.map((r) => el("li", { "data-player": r.player }, [
      el("span", { class: "table", text: String(r.rank) }),
      el("span", { class: "name", text: r.player + (r.dropped ? " (dropped)" : "") }),
      el("span", { class: "other", text: plural(r.points, "point") }),
      el("span", { class: "other", text: r.wins + "-" + r.losses + "-" + r.draws }),
    ])));
  }

  async function loadClock() {
    const shown = await readJSON(API);
    clock.show(shown.clock, {});
    return shown;
  }

  async function load() {
    const shown = await loadClock();
    const round = shown.rounds.length ? shown.rounds[shown.rounds.length - 1] : null;
    const over = shown.state === "finished" || (shown.clock && shown.clock.state === "over");
    let key;
    if (!round) {
      $("board-title").textContent = "Players";
      const names = shown.players.map((p) => ({ name: p.player })).sort(byName);
      $("rows").className = "tv-rows players";
      $("rows").replaceChildren(...names.map((p) => el("li", { "data-player": p.name }, [el("span", { class: "table" }), el("span", { class: "name", text: p.name })])));
      key = "players";
    } else if (over) {
      showStandings(round.round, await readJSON(API + "/standings"));
      key = "standings-" + round.round;
    } else {
      showPairings(round);
      key = "pairings-" + round.round;
    }
    if (key !== shownKey) { shownKey = key; board.scrollTop = 0; scroll.restart(); }
    status("");
    return shown.version;
  }

  // ------------------------------------------------------------------ scrolling by itself
  const scroll = (function () {
    let phase = "top";
    let since = performance.now();
    let last = since;
    let pos = 0;
    function restart() { phase = "top"; since = performance.now(); pos = 0; board.scrollTop = 0; }
    function step(now) {
      const room = board.scrollHeight - board.clientHeight;
      const dt = Math.min(now - last, 200);
      last = now;
      board.dataset.scrolls = room > 1 ? "yes" : "no";
      if (room <= 1) { if (board.scrollTop) board.scrollTop = 0; phase = "top"; since = now; }
      else if (phase === "top" && now - since > PAUSE_MS) { phase = "down"; pos = board.scrollTop; }
      else if (phase === "down") {
        pos = Math.min(room, pos + (SPEED * dt) / 1000);
        board.scrollTop = pos;
        if (pos >= room) { phase = "bottom"; since = now; }
      } else if (phase === "bottom" && now - since > PAUSE_MS) restart();
      board.dataset.phase = phase;
      requestAnimationFrame(step);
    }
    requestAnimationFrame(step);
    return { restart: restart };
  })();

  // ------------------------------------------------------------------ live
  async function start() {
    let after;
    try { after = await load(); } catch (e) { status(e.message); after = 0; }
    let pending = null;
    follower = window.munchlogLive.follow({
      base: API, after: after,
      onEvent: (item) => {
        if (CLOCK_TYPES.includes(item.type)) loadClock().catch((e) => status(e.message));
        if (item.type === "clock_started") return;
        clearTimeout(pending);
        pending = setTimeout(() => load().catch((e) => status(e.message)), 300);
      },
      onPoll: load,
      onStatus: (s) => { $("live").textContent = s; $("live").dataset.live = s; },
    });
  }
  // the games (their results, their turns after time) go on outside the event's stream: the
  // screen reads the event again every 10 s
  setInterval(() => { if (!document.hidden) load().catch(() => {}); }, 10000);
  start();
  window.munchlogScreen = { get follower() { return follower; } };
})();
