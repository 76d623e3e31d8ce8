/* munchlog replay viewer. No framework, no request outside this server.
 *
 * The token comes from the sign-in form or the URL fragment (#token=...; fragments never reach
 * the server). It is kept in sessionStorage and removed from the address bar at once, so a
 * copied link (#v=123) never carries it. Every call goes to the JSON API with
 * "Authorization: Bearer <token>"; the API decides what this viewer may see.
 */
"use strict";
(function () {
  const GAME = document.body.dataset.gameId;
  const API = "/api/games/" + GAME;
  const KEY = "munchlog-token:" + GAME;
  const WATCH = "munchlog-spectator:" + GAME; // this tab follows the game as a spectator
  const $ = (id) => document.getElementById(id);
  const app = { token: null, role: null, as: null, tl: null, version: 0, seq: 0, detail: null, seats: [],
    players: {}, focus: null, runs: [], names: {} };
  // Whom each viewer may look as (?as=), for a game with these seats (the API checks it too).
  function asAllowed(role, seats) {
    if (role === "judge") return ["judge", ...seats, "table", "spectator"];
    if (role === "table") return ["table", ...seats];
    return [role];
  }
  const SEAT_COLORS = ["#1565c0", "#c62828", "#2e7d32", "#6d4c41", "#00838f", "#ad1457"];
  function seatColor(seat) { const i = app.seats.indexOf(seat); return SEAT_COLORS[(i < 0 ? 0 : i) % SEAT_COLORS.length]; }

  // ------------------------------------------------------------------ helpers
  const { el, status, capital, plural } = window.munchlogPages;
  const { words, CARD_ID, collectNames } = window.munchlogBoards; // an identifier as words, card names
  // a key as words, a seat ("A") as it is
  function label(k) { return /^[A-Z]$/.test(k) || app.seats.includes(k) ? k : words(k); }
  const IDENT = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;
  const NOT_SHOWN = /^([0-9a-f]{32,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/; // hashes, salts, uuids
  // Any value of an event as a short phrase: cards by name, lists counted, nothing raw.
  function human(v, depth) {
    depth = depth || 0;
    if (v === null || v === undefined) return "none";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v === "number") return String(v);
    if (typeof v === "string") {
      if (CARD_ID.test(v)) return (app.known && app.known[v]) || "a card";
      if (NOT_SHOWN.test(v)) return "(a code)";
      if (IDENT.test(v)) return words(v);
      return v;
    }
    if (Array.isArray(v)) {
      if (!v.length) return "none";
      const cards = v.every((x) => x === null || (x && typeof x === "object" && ("hidden" in x || ("id" in x && "name" in x))) || (typeof x === "string" && CARD_ID.test(x)));
      if (cards) {
        const names = v.map((x) => (x === null || x.hidden ? null : typeof x === "string" ? human(x) : x.name));
        const hidden = names.filter((x) => x === null).length;
        const shown = names.filter((x) => x !== null);
        const counted = [];
        for (const n of shown) { const c = counted.find((x) => x[0] === n); if (c) c[1] += 1; else counted.push([n, 1]); }
        const MAX = 6;
        const parts = counted.slice(0, MAX).map(([n, k]) => (k > 1 ? n + " ×" + k : n));
        if (counted.length > MAX) parts.push("and " + plural(counted.length - MAX, "other name") );
        if (hidden) parts.push(plural(hidden, "face-down card"));
        if (!shown.length) return parts.join(", "); // "40 face-down cards"
        return v.length > MAX ? plural(v.length, "card") + ": " + parts.join(", ") : parts.join(", ");
      }
      if (depth > 2) return plural(v.length, "entry", "entries");
      const parts = v.slice(0, 8).map((x) => human(x, depth + 1));
      const flat = v.every((x) => x === null || typeof x !== "object");
      return parts.join(depth || flat ? ", " : "; ") + (v.length > 8 ? " and " + (v.length - 8) + " more" : "");
    }
    if (typeof v === "object") {
      if (v.hidden) return "a face-down card";
      if (typeof v.name === "string" && ("id" in v || "kind" in v || "type" in v)) return v.name;
      if (depth > 2) return "…";
      const parts = Object.entries(v).filter(([k, x]) => x !== null && x !== undefined && !(typeof x === "string" && NOT_SHOWN.test(x)))
        .map(([k, x]) => label(k) + " " + human(x, depth + 1));
      return parts.length ? parts.join(depth ? ", " : " · ") : "none";
    }
    return String(v);
  }
  function fragment() { return new URLSearchParams(location.hash.replace(/^#/, "")); }
  function setFragment(v) {
    const p = new URLSearchParams();
    p.set("v", String(v));
    if (app.as && app.as !== app.role) p.set("as", app.as);
    history.replaceState(null, "", location.pathname + location.search + "#" + p.toString());
    $("event-link").href = "#v=" + v;
    $("event-link").textContent = "step " + v;
  }
  async function api(path, params) {
    const q = new URLSearchParams(params || {});
    if (app.as && app.as !== app.role) q.set("as", app.as);
    const url = API + path + (q.toString() ? "?" + q.toString() : "");
    // a spectator has no token and sends no Authorization header (the API's "spectator")
    const headers = app.token ? { Authorization: "Bearer " + app.token } : {};
    return window.munchlogPages.readJSON(url, headers);
  }

  // ------------------------------------------------------------------ sign in
  function showSignin(message) {
    $("viewer-label").textContent = "";
    $("viewer-label").dataset.viewer = "";
    $("as-wrap").hidden = true;
    window.munchlogPages.showSignin(message);
  }
  window.munchlogPages.onSignin((token) => start(token, null));
  $("watch").addEventListener("click", () => start(null, fragment().get("v")));
  $("sign-out").addEventListener("click", () => {
    if (app.live) { app.live.close(); app.live = null; $("follow").setAttribute("aria-pressed", "false"); }
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(WATCH);
    app.token = null;
    app.tl = null;
    showSignin("");
  });
  $("as-select").addEventListener("change", () => {
    app.as = $("as-select").value;
    loadTimeline(app.version);
  });

  async function start(token, wantedV) {
    app.token = token;
    try {
      app.as = null;
      const own = await api("/timeline");
      if (token) { sessionStorage.setItem(KEY, token); sessionStorage.removeItem(WATCH); }
      else { sessionStorage.removeItem(KEY); sessionStorage.setItem(WATCH, "1"); }
      app.names = {};
      app.role = own.viewer;
      const summary = await api("");
      app.seats = Object.keys(summary.players || {}).sort();
      app.players = summary.players || {};
      $("players").textContent = app.seats.map((s) => s + " " + summary.players[s]).join(" · ");
      drawSeedWait(summary);
      const wanted = fragment().get("as");
      const opts = asAllowed(app.role, app.seats);
      app.as = wanted && opts.includes(wanted) ? wanted : app.role;
      $("signin").hidden = true;
      $("app").hidden = false;
      $("sign-out").hidden = false;
      $("sign-out").textContent = token ? "sign out" : "sign in";
      $("as-select").replaceChildren(...opts.map((v) => el("option", { value: v, text: v, selected: v === app.as })));
      $("as-wrap").hidden = opts.length < 2;
      if (app.as === app.role) useTimeline(own, wantedV);
      else await loadTimeline(wantedV);
    } catch (e) {
      sessionStorage.removeItem(KEY);
      sessionStorage.removeItem(WATCH);
      showSignin(e.status === 401 ? (token ? "That token is not valid for this game." : "This game needs a token.") : e.message);
    }
  }

  // ------------------------------------------------------------------ seeds awaited
  // A server-dealt game waiting on its seeds (docs/dealing.md, "When a seed is lost"): whom it
  // waits on and until when (GET /api/games/<id>'s dealing.deadline), counted down; past the
  // deadline the server records the withholding by itself and the line goes with the next event.
  function drawSeedWait(summary) {
    const d = summary && summary.dealing;
    const box = $("seed-wait");
    const pages = window.munchlogPages;
    app.serverDealt = !!(d && d.mode === "server");
    if (!app.serverDealt || summary.status === "finished" || d.ready) {
      box.hidden = true;
      box.dataset.seats = "";
      box.replaceChildren();
      return;
    }
    box.hidden = false;
    const w = d.deadline;
    if (w) {
      box.dataset.seats = w.seats.join(",");
      box.dataset.deadline = w.at;
      box.replaceChildren("The game waits for " + pages.awaitedWords(w, app.players), pages.until(w.at),
        ": then it goes on without " + (w.seats.length > 1 ? "their seeds" : "it") + ".");
      return;
    }
    const due = d.contributors.filter((c) => !(d.committed || []).includes(c) && !d.withheld.includes(c));
    box.dataset.seats = due.join(",");
    box.dataset.deadline = "";
    box.textContent = "The game waits for " + pages.seatList(due, app.players) + " to commit a seed (each page does it when it opens; the first one starts the deadline).";
  }
  async function refreshSeedWait() {
    if (!app.serverDealt) return;
    const headers = app.token ? { Authorization: "Bearer " + app.token } : {};
    try { drawSeedWait(await window.munchlogPages.readJSON(API, headers)); } catch (e) { status(e.message); }
  }

  async function loadTimeline(v) {
    try {
      useTimeline(await api("/timeline"), v);
    } catch (e) { status(e.message); }
  }

  function useTimeline(tl, wantedV) {
    app.tl = tl;
    $("viewer-label").textContent = "viewing as " + tl.viewer;
    $("viewer-label").dataset.viewer = tl.viewer;
    $("last-version").textContent = tl.version;
    const s = $("scrubber");
    s.max = String(tl.version);
    drawTurnbar();
    drawPins();
    drawChart();
    drawDisputes();
    window.munchlogClock.seatTime($("seat-time"), tl, app.players); // evidence for Slow Play
    let v = Number(wantedV || fragment().get("v") || tl.version);
    if (!(v >= 1 && v <= tl.version)) v = tl.version;
    select(v);
  }

  // ------------------------------------------------------------------ timeline
  function turnOf(v) { const e = app.tl.timeline[v - 1]; return e ? e.turn : 0; }

  // The bar shows stretches of one turn in version order; after a backup a turn shows again
  // (its undo stretch is marked), so turns are drawn as runs of the timeline, not as ranges.
  // Every run gets the same width (at least --turn-w, the track scrolls when they do not fit),
  // so a 90-turn game keeps every turn's number; a version sits inside its run's box.
  function runs() {
    const out = [];
    for (const e of app.tl.timeline) {
      const last = out[out.length - 1];
      const undo = e.undoes != null;
      if (last && last.turn === e.turn && last.undo === undo) last.last = e.version;
      else out.push({ turn: e.turn, first: e.version, last: e.version, undo: undo });
    }
    return out;
  }
  // where version v sits on the track, in % of its width
  function pct(v) {
    const rs = app.runs;
    if (!rs || !rs.length) return 0;
    let i = rs.findIndex((r) => v <= r.last);
    if (i < 0) i = rs.length - 1;
    const r = rs[i];
    const within = (Math.min(r.last, Math.max(r.first, v)) - r.first + 0.5) / (r.last - r.first + 1);
    return ((i + within) / rs.length) * 100;
  }
  function drawTurnbar() {
    const bar = $("turnbar");
    bar.replaceChildren();
    app.runs = runs();
    const n = app.runs.length;
    $("track").style.width = "calc(max(100%, " + n + " * var(--turn-w)))";
    app.runs.forEach((r, i) => {
      bar.append(el("div", {
        class: "tb-turn" + (r.undo ? " undo" : ""), "data-turn": r.turn,
        "data-active": r.undo ? "" : activeSeatOfTurn(r.turn), tabindex: 0, role: "button",
        title: (r.undo ? "judge's backup through turn " : "turn ") + r.turn + " (events " + r.first + " to " + r.last + ")",
        style: { left: (i * 100) / n + "%", width: 100 / n + "%" }, text: String(r.turn),
        onclick: () => select(r.first),
        onkeydown: (ev) => { if (ev.key === "Enter") select(r.first); },
      }));
    });
  }
  // keep the current turn in sight in a track that scrolls (never scrolls the page itself)
  function scrollTrackTo(v) {
    const wrap = $("track-wrap");
    if (wrap.scrollWidth <= wrap.clientWidth) return;
    const bar = $("turnbar");
    const x = bar.offsetLeft + (pct(v) / 100) * bar.offsetWidth;
    if (x < wrap.scrollLeft + 24 || x > wrap.scrollLeft + wrap.clientWidth - 24) wrap.scrollLeft = Math.max(0, x - wrap.clientWidth / 2);
  }
  function activeSeatOfTurn(t) {
    const p = app.tl.series.find((pt) => pt.turn === t);
    return t > 0 && p && p.active ? p.active : "";
  }

  // A dispute's pin sits on what it contests (its turn, or its range of events), with the range
  // marked under it; a ruling's pin on the ruling itself. A dispute with no range: on its opening.
  function contested(d) {
    const from = d.from_version != null ? d.from_version : d.to_version;
    const to = d.to_version != null ? d.to_version : d.from_version;
    return from != null ? { from: from, to: to } : { from: d.opened_at, to: d.opened_at };
  }
  function drawPins() {
    const box = $("pins");
    box.replaceChildren();
    for (const d of app.tl.disputes) {
      const c = contested(d);
      const what = d.turn != null ? "turn " + d.turn : c.from === c.to ? "event " + c.from : "events " + c.from + " to " + c.to;
      const left = pct(c.from), right = pct(c.to);
      box.append(el("div", { class: "range", "data-range": d.dispute_id, style: { left: Math.min(left, right) + "%", width: Math.max(0.3, Math.abs(right - left)) + "%" } }));
      box.append(el("button", {
        type: "button", class: "pin open", "data-dispute": d.dispute_id, "data-version": c.from,
        "data-turn": d.turn != null ? d.turn : turnOf(c.from),
        title: "dispute " + d.dispute_id + " by " + d.raised_by + " about " + what + ": " + d.statement,
        "aria-label": "dispute " + d.dispute_id + " about " + what,
        style: { left: (left + right) / 2 + "%" }, text: "!", onclick: () => select(c.from),
      }));
      for (const r of d.rulings) {
        box.append(el("button", {
          type: "button", class: "pin ruling" + (r.penalty ? " penalty" : ""), "data-ruling": d.dispute_id, "data-version": r.version,
          title: "ruling on " + d.dispute_id + ": " + r.ruling + (r.penalty ? " — " + penaltyText(r.penalty) : ""),
          style: { left: pct(r.version) + "%" }, text: "J", onclick: () => select(r.version),
        }));
      }
    }
  }

  // A ruling's penalty in words, from the game's own disputes (GET …/disputes' `penalty`, the
  // same for every viewer of the game: docs/rules.md A.14): the kind and the seat, the penalty
  // guide's infraction (its name and IPG section when the API gives them) and, for a penalty
  // the guide upgraded (docs/rules.md F.5), the one the judge gave and the guide's count
  // (pages.js: the event page's words too); nothing here is read from the event's other games.
  const infractionText = window.munchlogPages.infractionText;
  const upgradeText = window.munchlogPages.upgradeText;
  function penaltyText(p) { return window.munchlogPages.penaltyText(p, seatWords); }
  function penaltyLine(p) {
    return el("div", { class: "penalty", "data-penalty": p.kind, "data-seat": p.seat }, [
      el("b", { class: "pen-kind", text: capital(words(p.kind)) }), p.seat ? " for " + seatWords(p.seat) : "",
      p.infraction ? el("span", { class: "pen-infraction", "data-infraction": p.infraction, text: infractionText(p) }) : null,
      p.escalated_from ? el("span", { class: "pen-upgrade", "data-escalated-from": p.escalated_from, text: upgradeText(p) }) : null,
    ]);
  }
  // the ruling recorded at version v, as the game's disputes list it
  function rulingAt(v) {
    for (const d of (app.tl && app.tl.disputes) || []) for (const r of d.rulings) if (r.version === v) return r;
    return null;
  }

  function drawDisputes() {
    const list = $("disputes");
    list.replaceChildren();
    if (!app.tl.disputes.length) list.append(el("li", { text: "none" }));
    for (const d of app.tl.disputes) {
      const c = contested(d);
      const what = d.turn != null ? "turn " + d.turn : c.from === c.to ? "event " + c.from : "events " + c.from + " to " + c.to;
      const kids = [
        el("button", { type: "button", class: "evlink", title: "the dispute's own event", text: "dispute " + d.dispute_id, onclick: () => select(d.opened_at) }),
        " by " + d.raised_by + " about ",
        el("button", { type: "button", class: "evlink", "data-contested": d.dispute_id, text: what, onclick: () => select(c.from) }),
        d.turn != null && d.from_version != null ? " (events " + c.from + " to " + c.to + ")" : "",
        ": " + d.statement + " ",
        el("b", { text: words(d.status) }),
      ];
      for (const r of d.rulings) {
        const bk = r.backup_to ? " — backed up to " + r.backup_to + " (" + r.undone.length + " undone)" : "";
        kids.push(el("div", { class: "judge-mark" }, [
          el("button", { type: "button", class: "evlink", "data-ruling-link": d.dispute_id, text: "ruling at step " + r.version, onclick: () => select(r.version) }),
          ": " + r.ruling + bk,
          r.penalty ? penaltyLine(r.penalty) : null,
        ]));
      }
      list.append(el("li", { "data-dispute": d.dispute_id }, kids));
    }
  }

  // ------------------------------------------------------------------ chart (inline SVG)
  // One small chart per counter, a line per seat; a legend names the seats in their colours and
  // picks one seat out (the others fade), so six lines stay readable. Lines of equal values are
  // drawn a pixel apart, seat by seat, so none hides another.
  const CHART = { W: 300, H: 62, PAD: 18 };
  function chartX(i, n) { return CHART.PAD + (n < 2 ? 0 : (i * (CHART.W - CHART.PAD - 4)) / (n - 1)); }
  function drawChart() {
    const pts = app.tl.series;
    const box = $("chart");
    box.replaceChildren();
    if (!pts.length) return;
    const NS = "http://www.w3.org/2000/svg";
    const { W, H } = CHART;
    const mk = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v)); return e; };
    const seats = app.seats.filter((s) => pts.some((p) => p[s]));
    const keys = [];
    for (const p of pts) for (const s of seats) for (const k of Object.keys(p[s] || {})) if (!keys.includes(k)) keys.push(k);
    const order = ["level", "damage", "gold"];
    keys.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b));
    const val = (p, seat, key) => (p[seat] && p[seat][key]) || 0;
    if (seats.length > 1) {
      const legend = el("div", { class: "legend", role: "group", "aria-label": "pick a seat out" });
      for (const seat of seats) {
        const b = el("button", {
          type: "button", "data-legend": seat, "aria-pressed": app.focus === seat ? "true" : "false",
          title: "pick " + seat + " out (again: every seat)", text: seat + (app.players[seat] ? " " + app.players[seat] : ""),
          onclick: () => { app.focus = app.focus === seat ? null : seat; focusChart(); },
        });
        b.style.setProperty("--seat", seatColor(seat));
        legend.append(b);
      }
      box.append(legend);
    }
    for (const key of keys) {
      const max = Math.max(1, ...pts.map((p) => Math.max(...seats.map((s) => val(p, s, key)))));
      const y = (v) => H - 10 - (v * (H - 20)) / max;
      const svg = mk("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": words(key) + " of each seat over the turns", "data-chart": key });
      svg.append(mk("line", { x1: CHART.PAD, y1: H - 10, x2: W - 4, y2: H - 10, stroke: "#ccc" }));
      const t = mk("text", { x: 2, y: 10, class: "lbl" }); t.textContent = words(key) + " (up to " + max + ")"; svg.append(t);
      seats.forEach((seat, si) => {
        const off = seats.length > 1 ? (si - (seats.length - 1) / 2) * 1.1 : 0;
        const d = pts.map((p, i) => (i ? "L" : "M") + chartX(i, pts.length).toFixed(1) + " " + (y(val(p, seat, key)) + off).toFixed(1)).join(" ");
        const path = mk("path", { d: d, fill: "none", stroke: seatColor(seat), "stroke-width": 1.6, "data-seat": seat });
        const tip = mk("title", {}); tip.textContent = seat + " " + words(key); path.append(tip);
        svg.append(path);
      });
      const cur = mk("line", { class: "cursor", x1: 0, x2: 0, y1: 4, y2: H - 10, stroke: "#ffb300", "stroke-width": 2 });
      svg.append(cur);
      svg.addEventListener("click", (ev) => {
        const r = svg.getBoundingClientRect();
        const i = Math.round((((ev.clientX - r.left) / r.width) * W - CHART.PAD) / ((W - CHART.PAD - 4) / Math.max(1, pts.length - 1)));
        const p = pts[Math.min(pts.length - 1, Math.max(0, i))];
        if (p) select(p.version);
      });
      box.append(svg);
    }
    focusChart();
  }
  function focusChart() {
    for (const b of document.querySelectorAll("#chart [data-legend]")) b.setAttribute("aria-pressed", b.dataset.legend === app.focus ? "true" : "false");
    for (const p of document.querySelectorAll("#chart path[data-seat]")) {
      const picked = app.focus && p.dataset.seat === app.focus;
      p.toggleAttribute("data-dim", !!app.focus && !picked);
      p.toggleAttribute("data-focus", !!picked);
      if (picked) p.parentNode.insertBefore(p, p.parentNode.querySelector(".cursor")); // on top
    }
  }
  function moveChartCursor(v) {
    const pts = app.tl.series;
    let i = pts.findIndex((p) => p.version >= v);
    if (i < 0) i = pts.length - 1;
    const x = chartX(i, pts.length);
    for (const c of document.querySelectorAll("#chart .cursor")) { c.setAttribute("x1", x); c.setAttribute("x2", x); }
  }

  // ------------------------------------------------------------------ card names
  // The names of the cards this view was told about, by id: from the game's first event as
  // this view sees it (every deck, for a judge; what a seat may see, for a seat) and from the
  // event shown (its data, the table after it and what moved): collectNames (boards.js).
  function knownNames() {
    const key = app.as || "";
    if (!app.names[key]) app.names[key] = api("/events/1").then((d) => collectNames(d, {}, 0)).catch(() => ({}));
    return app.names[key];
  }

  // ------------------------------------------------------------------ selecting a point
  async function select(v) {
    if (!app.tl) return;
    v = Math.max(1, Math.min(app.tl.version, v));
    app.version = v;
    $("scrubber").value = String(v);
    $("version").textContent = v;
    $("turn").textContent = turnOf(v);
    for (const t of document.querySelectorAll(".tb-turn")) t.classList.toggle("current", Number(t.dataset.turn) === turnOf(v));
    moveChartCursor(v);
    scrollTrackTo(v);
    setFragment(v);
    const seq = ++app.seq;
    try {
      const [detail, known] = await Promise.all([api("/events/" + v), knownNames()]);
      if (seq !== app.seq) return; // a newer selection won
      app.detail = detail;
      app.known = collectNames([detail.event, detail.diff, detail.state], Object.assign({}, known), 0);
      drawBoard(detail.state);
      drawEvent(detail);
      $("version").dataset.version = String(v);
      status("");
    } catch (e) {
      if (seq === app.seq) status(e.message);
    }
  }

  // ------------------------------------------------------------------ board (boards.js)
  const drawBoard = window.munchlogBoards.viewer({ app: app, human: human, seatColor: seatColor }).drawBoard;

  // ------------------------------------------------------------------ event detail
  // An event as lines for people: its type in words, who did it, the table talk, then its
  // facts (cards by name, lists counted; codes and empty facts left out). The raw event is
  // behind a "details" disclosure for whoever wants it.
  function seatWords(seat) {
    if (seat === "rules") return "the rules";
    if (seat === "judge") return "the judge";
    return window.munchlogPages.seatName(seat, app.players);
  }
  function evButton(e) {
    return el("button", { type: "button", class: "evlink", "data-type": e.type, text: "step " + e.version + ": " + words(e.type), onclick: () => select(e.version) });
  }
  const EVENT_HIDDEN_KEYS = ["game_id", "salt", "commitment"];
  function facts(data) {
    const out = [];
    for (const [k, v] of Object.entries(data || {})) {
      if (EVENT_HIDDEN_KEYS.includes(k) || v === null || v === undefined) continue;
      if (typeof v === "string" && NOT_SHOWN.test(v)) continue;
      if (k === "corrects" || k === "undoes") continue; // shown in the head line
      // a short list of records (the seats of a new game, say): one line each
      const lines = Array.isArray(v) && v.length > 1 && v.length <= 8 && v.every((x) => x && typeof x === "object" && !Array.isArray(x) && !("hidden" in x) && !("id" in x && "name" in x));
      out.push(el("dt", { "data-key": k, text: words(k) }),
        lines ? el("dd", {}, v.map((x) => el("div", { text: human(x, 1) }))) : el("dd", { text: human(v) }));
    }
    return out;
  }
  // table talk with any identifier in it as words ("(shared_victory)" -> "(shared victory)")
  function talk(line) { return String(line).replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (m) => words(m)); }
  // a ruling's facts: the note, its penalty in words (the penalised seat with it, the
  // infraction by its name, the upgrade with the guide's count), then the others as they are
  function rulingFacts(data, p) {
    const out = { ruling: data.ruling, penalty: words(p.kind) + (p.seat ? " for " + seatWords(p.seat) : ""),
      infraction: infractionText(p) || null, upgraded: upgradeText(p).replace(/^upgraded /, "") || null };
    for (const [k, v] of Object.entries(data)) {
      if (!(k in out) && !["player", "escalated_from"].includes(k)) out[k] = v;
    }
    return out;
  }
  function drawEvent(d) {
    const e = d.event;
    const ruled = e.type === "RulingRecorded" ? rulingAt(e.version) : null;
    const judgeBits = [];
    if (e.data && e.data.corrects != null) judgeBits.push("corrects step " + e.data.corrects);
    if (e.data && e.data.undoes != null) judgeBits.push("undoes step " + e.data.undoes);
    const list = (title, items) => items.length ? [el("div", { text: title }), el("ul", {}, items.map((x) => el("li", {}, [x])))] : [];
    const ref = (v) => el("button", { type: "button", class: "evlink", text: "step " + v, onclick: () => select(v) });
    // The API shows the mark only to a viewer who may see the unchecked card (docs/rules.md A.4).
    const unchecked = e.unchecked === true
      ? el("span", { class: "badge unchecked", "data-badge": "unchecked", title: "recorded from a card whose text is not encoded: the rules did not check it", text: "unchecked" })
      : null;
    const raw = el("details", { class: "raw" }, [el("summary", { text: "the raw event" }), el("pre", { text: JSON.stringify(e, null, 1) })]);
    $("event").replaceChildren(...[
      el("div", { class: "ev-head" }, [el("b", { class: "ev-type", "data-type": e.type, text: capital(words(e.type)) }),
        " by " + seatWords(e.seat) + " · turn " + d.turn, unchecked ? " " : "", unchecked,
        e.violation ? el("span", { class: "badge violation", "data-badge": "violation", text: human(e.violation) }) : null,
        judgeBits.length ? el("span", { class: "judge-mark", text: " · " + judgeBits.join(", ") }) : ""]),
      (d.narration || []).length ? el("p", { class: "narration", "data-narration": "", text: d.narration.map(talk).join(" · ") }) : null,
      el("dl", {}, facts(ruled && ruled.penalty ? rulingFacts(e.data, ruled.penalty) : e.data)),
      ...list("caused by (nearest first)", d.causes.map(evButton)),
      ...list("caused", d.effects.map(evButton)),
      ...list("corrected by", d.corrected_by.map(ref)),
      ...list("undone by", d.undone_by.map(ref)),
      raw,
    ].filter(Boolean));
  }

  // ------------------------------------------------------------------ the log checked here
  // The hash chain and the dealing of an export, recomputed in this browser (chain.js and
  // dealing.js, on WebCrypto): this game's export as this viewer may have it, or a file.
  async function exportText() {
    const headers = app.token ? { Authorization: "Bearer " + app.token } : {};
    const r = await fetch(API + "/export?format=json", { headers: headers, cache: "no-store" });
    if (!r.ok) throw new Error("the server gave no export (HTTP " + r.status + ")");
    return r.text();
  }
  async function runCheck(what, text) {
    const box = $("check-result");
    box.dataset.state = "running";
    $("check-export").disabled = true;
    box.replaceChildren(el("p", { text: "checking " + what + "…" }));
    try {
      showCheck(await window.MunchlogChain.verifyExport(await text()), what);
    } catch (e) {
      box.dataset.state = "error";
      box.replaceChildren(el("p", { class: "error", text: "cannot check " + what + ": " + e.message }));
    } finally {
      $("check-export").disabled = false;
    }
  }
  function checkLine(kind, result, mark, kids) {
    return el("p", { class: "check " + result, "data-check": kind, "data-result": result }, [el("b", { class: "mark", text: mark }), " ", ...kids]);
  }
  function showCheck(r, what) {
    const ours = r.game_id === GAME;
    const at = (version, type) => ours
      ? el("button", { type: "button", class: "evlink", "data-version": version, "data-type": type, text: "step " + version + ": " + capital(words(type)), onclick: () => select(version) })
      : el("b", { "data-version": version, "data-type": type, text: "step " + version + ": " + capital(words(type)) });
    const lines = [el("p", { class: "note", "data-check": "source", text: capital(what) + ": " + plural(r.events, "event") + " as " + r.viewer + " sees them" +
      (ours ? "" : ", of another game (" + r.game_id + ")") })];
    const c = r.chain;
    let upTo = "";
    if (!c) lines.push(checkLine("chain", "absent", "–", ["hash chain not checked: only the judge's and the table's exports carry the hashes"]));
    else if (c.ok) lines.push(checkLine("chain", "verified", "✓", ["hash chain verified: " + plural(c.checked, "event") + ", each hash recomputed"]));
    else {
      const more = c.problems.length > 1 ? " (and " + plural(c.problems.length - 1, "more problem") + ")" : "";
      lines.push(checkLine("chain", "broken", "✗", ["hash chain broken at ", at(c.first_broken.version, c.first_broken.type), ": " + c.problems[0].detail + " (" + words(c.first_broken.reason) + ")" + more]));
      upTo = " before the break";
    }
    const d = r.dealing;
    if (d.mode === "table") lines.push(checkLine("dealing", "table", "–", ["dealt by the table: no random operation to re-derive"]));
    else if (!d.ok) {
      const m = d.first_mismatch;
      lines.push(checkLine("dealing", "mismatch", "✗", ["dealing does not verify at ", at(m.version, m.type), ": " + m.reason]));
    } else if (d.complete) {
      lines.push(checkLine("dealing", "verified", "✓", ["dealing verified: " + plural(d.checked, "random operation") + upTo + " re-derived (" + d.scheme + "), commitments opened, counters gapless"]));
    } else if (d.hidden) {
      lines.push(checkLine("dealing", "partial", "…", ["dealing checks as far as this export shows: " + d.checked + " of " + plural(d.operations, "random operation") + " re-derived, " + d.hidden + " not shown to " + r.viewer]));
    } else {
      lines.push(checkLine("dealing", "pending", "…", ["dealing checks so far" + upTo + ": commitments and reveals open, counters gapless; the cards and dice are re-derived once the game ends and the server reveals its secret"]));
    }
    lines.push(el("p", { class: "note", text: "Checked by this browser's Web Crypto; the server's /verify was not asked." }));
    const box = $("check-result");
    box.dataset.state = "done";
    box.replaceChildren(...lines);
  }
  $("check-export").addEventListener("click", () => runCheck("this game's export", exportText));
  $("check-file").addEventListener("change", () => {
    const file = $("check-file").files[0];
    if (file) runCheck("the file " + file.name, () => file.text());
    $("check-file").value = "";
  });

  // ------------------------------------------------------------------ controls
  function stepTurn(dir) {
    const t = turnOf(app.version) + dir;
    const r = app.tl.turns[String(t)];
    if (r) select(r.first);
  }
  $("first").addEventListener("click", () => select(1));
  $("last").addEventListener("click", () => select(app.tl.version));
  $("prev").addEventListener("click", () => select(app.version - 1));
  $("next").addEventListener("click", () => select(app.version + 1));
  $("prev-turn").addEventListener("click", () => stepTurn(-1));
  $("next-turn").addEventListener("click", () => stepTurn(1));
  $("scrubber").addEventListener("input", () => select(Number($("scrubber").value)));
  document.addEventListener("keydown", (ev) => {
    if (!app.tl || $("app").hidden) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" && ev.target.type !== "range") return;
    if (tag === "SELECT") return;
    const keys = { ArrowLeft: () => select(app.version - 1), ArrowRight: () => select(app.version + 1),
      ArrowUp: () => stepTurn(-1), ArrowDown: () => stepTurn(1), Home: () => select(1), End: () => select(app.tl.version) };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  });
  window.addEventListener("hashchange", () => {
    const v = Number(fragment().get("v"));
    if (app.tl && v && v !== app.version) select(v);
  });
  $("self-link").href = location.pathname;

  // ------------------------------------------------------------------ follow live
  // New events arrive on the game's stream (live.js); the timeline is read again, and a
  // viewer standing on the last event moves to the new last one (one elsewhere stays put).
  const LIVE_WORDS = { connecting: "connecting…", live: "live", polling: "live (polling)", offline: "reconnecting…" };
  function setFollowing(on) {
    if (app.live) { app.live.close(); app.live = null; }
    $("follow").setAttribute("aria-pressed", on ? "true" : "false");
    $("live-status").textContent = "";
    $("live-status").dataset.state = "";
    if (!on || !app.tl) return;
    let pending = null;
    app.live = window.munchlogLive.follow({
      game: GAME,
      token: app.token,
      after: app.tl.version,
      onStatus: (s) => { $("live-status").textContent = LIVE_WORDS[s] || s; $("live-status").dataset.state = s; },
      onEvent: () => {
        if (pending) return; // a burst of events: one reading of the timeline
        pending = setTimeout(async () => {
          pending = null;
          const atEnd = app.version === app.tl.version;
          try {
            const tl = await api("/timeline");
            useTimeline(tl, atEnd ? tl.version : app.version);
            refreshSeedWait();
          } catch (e) { status(e.message); }
        }, 150);
      },
    });
  }
  $("follow").addEventListener("click", () => setFollowing(!app.live));

  // ------------------------------------------------------------------ boot
  const frag = fragment();
  const fromUrl = frag.get("token");
  if (fromUrl) {
    frag.delete("token");
    history.replaceState(null, "", location.pathname + location.search + (frag.toString() ? "#" + frag.toString() : ""));
  }
  const token = fromUrl || sessionStorage.getItem(KEY);
  const followNow = () => { if (frag.get("live") === "1" && app.tl) setFollowing(true); };
  if (token) start(token, frag.get("v")).then(followNow);
  else if (sessionStorage.getItem(WATCH)) start(null, frag.get("v")).then(followNow);
  else showSignin("");
})();
