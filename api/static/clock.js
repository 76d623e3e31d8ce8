/* munchlog clock: a round's clock counting down on a page (issue #38, docs/rules.md F.6).
 *
 *   const clock = munchlogClock.mount(element);
 *   clock.show(eventClock, { table: 3, turnsLeft: null });  // GET /api/events/<id>'s `clock`
 *
 * The clock is read from the server (`remaining_s`, each table's deadline) and counted down
 * here from the moment it was read, so a device whose own clock is wrong still shows the right
 * time left. With `table` it shows that table's time (its extension included); after time is
 * called there, the turns left (`turnsLeft`, from the game's `TimeCalled`). The server calls
 * time itself: this only shows it.
 */
(function () {
  "use strict";

  function two(n) { return String(n).padStart(2, "0"); }
  function mmss(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(s % 60);
  }
  function turnsWords(n) {
    if (n === null || n === undefined) return "";
    if (n <= 0) return "the last extra turn is over";
    return n === 1 ? "this is the last turn" : n + " turns left, this one included";
  }

  function mount(elem) {
    let clock = null;
    let opts = {};
    let readAt = 0;
    let timer = null;

    function left() {
      if (!clock || clock.remaining_s === null || clock.remaining_s === undefined) return null;
      let seconds = clock.remaining_s;
      if (clock.state === "running" || clock.state === "time") seconds -= (Date.now() - readAt) / 1000;
      const table = opts.table ? String(opts.table) : null;
      if (table && clock.ends_at && clock.deadlines && clock.deadlines[table]) {
        seconds += (Date.parse(clock.deadlines[table]) - Date.parse(clock.ends_at)) / 1000;
      } else if (table && clock.extensions && clock.extensions[table]) {
        seconds += clock.extensions[table] * 60;
      }
      return seconds;
    }

    function render() {
      if (!clock) { elem.hidden = true; return; }
      elem.hidden = false;
      const table = opts.table ? String(opts.table) : null;
      const called = table && clock.time_called && clock.time_called[table];
      const seconds = left();
      let state = clock.state;
      let main;
      if (!clock.round) main = "no round yet";
      else if (state === "over") main = "round " + clock.round + " is over";
      else if (called || (seconds !== null && seconds <= 0 && state !== "paused" && state !== "not_started")) {
        state = "time";
        main = "time" + (opts.turnsLeft !== null && opts.turnsLeft !== undefined ? ": " + turnsWords(opts.turnsLeft) : "");
      } else if (state === "not_started") main = "round " + clock.round + ": " + mmss(seconds) + " when the clock starts";
      else if (state === "paused") main = "paused: " + mmss(seconds) + " left";
      else { state = "running"; main = mmss(seconds) + " left"; } // a table's extension runs on
      elem.dataset.state = state;
      elem.replaceChildren();
      const big = document.createElement("strong");
      big.className = "clock-time";
      big.textContent = main;
      elem.append(big);
      const notes = [];
      if (clock.round && table) notes.push("round " + clock.round + ", table " + table);
      else if (clock.round && state !== "not_started" && state !== "over") notes.push("round " + clock.round);
      const ext = clock.extensions || {};
      const mine = table ? (ext[table] ? [table] : []) : Object.keys(ext).sort((a, b) => a - b);
      for (const t of mine) {
        const runs = !table && clock.ends_at && clock.deadlines && clock.deadlines[t] && !(clock.time_called || {})[t];
        const until = runs ? (Date.parse(clock.deadlines[t]) - Date.parse(clock.ends_at)) / 1000 + seconds : 0;
        notes.push("table " + t + ": +" + ext[t] + " min" + (until > 0 ? " (" + mmss(until) + " left)" : ""));
      }
      const calls = Object.keys(clock.time_called || {}).sort((a, b) => a - b);
      const turns = clock.turns_left || {};
      const turnsAt = (t) => (turns[t] === undefined ? "" : " (" + (turns[t] ? turnsWords(turns[t]).replace(", this one included", "") : "over") + ")");
      if (!table && calls.length) notes.push("time called at table" + (calls.length > 1 ? "s " : " ") + calls.map((t) => t + turnsAt(t)).join(", "));
      if (notes.length) {
        const small = document.createElement("span");
        small.className = "clock-note";
        small.textContent = notes.join(" · ");
        elem.append(" ", small);
      }
    }

    function show(next, options) {
      clock = next;
      opts = options || {};
      readAt = Date.now();
      render();
      clearInterval(timer);
      if (clock && (clock.state === "running" || clock.state === "time")) timer = setInterval(render, 1000);
    }

    return { show: show, render: render, get left() { return left(); } };
  }

  // The seconds the game waited on each seat (GET /timeline's `seat_time`, and per turn), as
  // a small table: a seat per row, its total and its longest turn.
  function seatTime(elem, tl, players) {
    const total = tl.seat_time || {};
    const seats = Object.keys(total).sort();
    elem.replaceChildren();
    if (!seats.length) { elem.textContent = "nothing yet"; return; }
    const table = document.createElement("table");
    table.className = "seat-time";
    const head = table.insertRow();
    for (const h of ["seat", "time", "longest turn"]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      head.append(th);
    }
    for (const seat of seats) {
      let longest = null;
      for (const [turn, r] of Object.entries(tl.turns || {})) {
        const s = (r.seat_time || {})[seat];
        if (s !== undefined && (!longest || s > longest[1])) longest = [turn, s];
      }
      const row = table.insertRow();
      row.dataset.seat = seat;
      row.insertCell().textContent = seat + (players && players[seat] ? " (" + players[seat] + ")" : "");
      row.insertCell().textContent = mmss(total[seat]);
      row.insertCell().textContent = longest ? "turn " + longest[0] + ": " + mmss(longest[1]) : "";
    }
    elem.append(table);
  }

  // the event stream's messages that change the clock (GET /api/events/<id>/stream's `type`)
  const TYPES = ["clock_started", "clock_paused", "clock_resumed", "time_extended", "table_time_called"];

  window.munchlogClock = { TYPES: TYPES, mount: mount, mmss: mmss, turnsWords: turnsWords, seatTime: seatTime };
})();
