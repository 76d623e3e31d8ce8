/* munchlog table page: play or record a game at the table. No framework, no request outside
 * this server.
 *
 * Sign-in as in the replay viewer: the token comes from the form or the URL fragment
 * (#token=..., never sent to the server), is kept in sessionStorage (the same key as the
 * viewer's, so the link between the two pages keeps it) and is sent only as
 * "Authorization: Bearer". The page shows GET /state as this viewer may see it and the
 * commands GET /legal offers as buttons and pickers, one group per command type. Every post
 * carries the version those commands came from (expected_version) and an Idempotency-Key fixed
 * per intent (the same body at the same version), so a double click or a retry records once.
 * In a server-dealt game the page commits and reveals a random seed of its own for each seat it
 * plays, by itself, as soon as the game asks for it (docs/dealing.md).
 * In a table-dealt classic game the table (or the judge) tells each card a draw takes by its
 * name (docs/rules.md E.4): /legal marks such a draw with `draws` ({field: {deck, count?}}),
 * and the page shows one name field per card, suggesting the names of the set's sample catalog
 * (GET /api/rulesets/<ruleset>/cards, a <datalist> per deck), then posts {"name": ...} for each.
 */
"use strict";
(function () {
  const GAME = document.body.dataset.gameId;
  const API = "/api/games/" + GAME;
  const KEY = "munchlog-token:" + GAME;
  const SEED = "munchlog-seed:" + GAME + ":"; // + seat + ":" + epoch -> hex of this tab's seed
  const $ = (id) => document.getElementById(id);
  const app = {
    token: null, role: null, seats: [], players: {}, summary: null, state: null, legal: null,
    acting: "", pinned: "", names: {}, created: {}, busy: false, flash: null, drawn: "",
    follower: null, refreshing: null, again: false, intents: new Map(), seeding: false,
    typed: {}, // what was typed in a draw's name fields, by field key (kept across redraws)
    lost: {}, // the seats whose committed seed this tab does not hold, while their reveal is due
  };

  // ------------------------------------------------------------------ helpers
  const { el, status, capital } = window.munchlogPages;
  const { words, CARD_ID, collectNames } = window.munchlogBoards; // an identifier as words, card names
  // JSON with every object's keys sorted: one spelling per body (the intent's identity; the
  // tests find a control by it too)
  function canon(x) {
    if (Array.isArray(x)) return "[" + x.map(canon).join(",") + "]";
    if (x && typeof x === "object") return "{" + Object.keys(x).sort().map((k) => JSON.stringify(k) + ":" + canon(x[k])).join(",") + "}";
    return JSON.stringify(x);
  }
  function uuid() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }
  const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
  function headers() { return app.token ? { Authorization: "Bearer " + app.token } : {}; }
  function api(path) { return window.munchlogPages.readJSON(API + path, headers()); }

  // ------------------------------------------------------------------ names of things
  function seatName(seat) { return window.munchlogPages.seatName(seat, app.players); }
  function cardName(id) { return app.names[id] || "a card"; }
  // a value of a command or of the table as a short phrase: cards and seats by name
  function phrase(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "string") {
      if (app.seats.includes(v)) return seatName(v);
      if (CARD_ID.test(v)) return cardName(v);
      return words(v);
    }
    if (typeof v === "number") return String(v);
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (Array.isArray(v)) return v.map(phrase).join(", ");
    if (v.hidden) return "a face-down card";
    if (typeof v.name === "string") return v.name;
    return Object.entries(v).filter(([, x]) => x !== false)
      .map(([k, x]) => (CARD_ID.test(k) ? cardName(k) + " to " + phrase(x) : x === true ? words(k) : words(k) + " " + phrase(x))).join(", ");
  }
  // What a command's fields say, beyond its type and seat: "Sample Ogre · target B (Bob)"
  const LEAD_FIELDS = ["card", "cards", "monster"]; // named first, without their key
  function describe(body) {
    const parts = [];
    const keys = Object.keys(body).filter((k) => !["type", "seat", "ability"].includes(k));
    keys.sort((a, b) => (LEAD_FIELDS.includes(b) ? 1 : 0) - (LEAD_FIELDS.includes(a) ? 1 : 0));
    for (const k of keys) {
      const v = body[k];
      if (v === null || (Array.isArray(v) && !v.length) || (v && typeof v === "object" && !Object.keys(v).length)) continue;
      const text = phrase(v);
      parts.push(LEAD_FIELDS.includes(k) ? text : words(k) + " " + text);
    }
    return parts.join(" · ");
  }
  const TYPE_LABELS = { pass: "Pass", end_turn: "End the turn", kick_door: "Kick open the door", deal: "Deal the cards",
    look_for_trouble: "Look for trouble", loot: "Loot the room", run_away: "Run away",
    ask_help: "Ask for help", accept_help: "Accept to help", decline_help: "Decline to help",
    take_treasure: "Take the treasure", bad_stuff: "Take the Bad Stuff", charity: "Give to charity",
    draw_opening: "Draw the opening hand", roll_first: "Roll for first", choose_first: "Choose who starts",
    commit_seed: "Shuffle in my seed", reveal_seed: "Reveal my seed", concede: "Concede" };
  function typeLabel(type) { return TYPE_LABELS[type] || capital(words(type)); }
  // A move as what it does: "Play Sample Axe Brute (3 gold)", "Use Sample Gnome Thief's
  // ability: Zap: draw 2 cards…", "Attack with Sample Ogre and 2 gold"; else its type's label
  // and its other fields.
  function moveLabel(body) {
    const rest = Object.assign({}, body);
    let head = typeLabel(body.type);
    const c = typeof body.card === "string" ? body.card : null;
    if (c && body.type === "play") {
      head = "Play " + cardName(c) + (body.gold ? " (" + body.gold + " gold)" : "") + (body.target != null ? " on " + phrase(body.target) : "");
      delete rest.gold;
      delete rest.target;
    } else if (c && body.type === "attack") {
      head = "Attack with " + cardName(c) + (body.gold ? " and " + body.gold + " gold" : "");
      delete rest.gold;
    } else if (c && body.type === "activate") {
      const text = window.munchlogBoards.plain(app.texts[c] || "");
      head = "Use " + cardName(c) + "'s ability" + (text ? ": " + (text.length > 70 ? text.slice(0, 68) + "…" : text) : "");
    } else {
      const what = describe(body);
      return what ? head + " · " + what : head;
    }
    delete rest.card;
    const what = describe(rest);
    return what ? head + " · " + what : head;
  }
  // the texts of the cards this viewer was told about, by id
  function collectTexts(x, into, depth) {
    if (!x || typeof x !== "object" || depth > 12) return into;
    if (!Array.isArray(x) && typeof x.id === "string" && typeof x.text === "string") into[x.id] = x.text;
    for (const v of Object.values(x)) if (v && typeof v === "object") collectTexts(v, into, depth + 1);
    return into;
  }

  // ------------------------------------------------------------------ sign in
  function showSignin(message) {
    stopFollowing();
    $("who").textContent = "";
    $("who").dataset.viewer = "";
    window.munchlogPages.showSignin(message);
  }
  window.munchlogPages.onSignin(start);
  $("sign-out").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    app.token = null;
    showSignin("");
  });
  $("acting").addEventListener("change", () => {
    app.pinned = $("acting").value;
    app.flash = null;
    render();
  });

  async function start(token) {
    app.token = token;
    try {
      const [summary, legal, tl] = await Promise.all([api(""), api("/legal"), api("/timeline")]);
      sessionStorage.setItem(KEY, token);
      app.summary = summary;
      app.role = tl.viewer;
      app.players = summary.players || {};
      app.seats = Object.keys(app.players).sort();
      app.created = collectNames(await api("/events/1").catch(() => ({})), {}, 0);
      $("players").textContent = app.seats.map(seatName).join(" · ");
      $("who").textContent = app.seats.includes(app.role) ? "you are " + seatName(app.role) : "signed in as the " + app.role;
      $("who").dataset.viewer = app.role;
      $("signin").hidden = true;
      $("app").hidden = false;
      $("sign-out").hidden = false;
      app.legal = legal;
      await refresh();
      follow();
      startClock(tl).catch((e) => status("the round's clock: " + e.message));
    } catch (e) {
      sessionStorage.removeItem(KEY);
      showSignin(e.status === 401 ? "That token is not valid for this game: the table page needs a seat's, the table's or the judge's token." : e.message);
    }
  }

  // ------------------------------------------------------------------ live
  // munchlogLive.follow (api/static/live.js): a stream, or polling when none can be opened.
  function follow() {
    stopFollowing();
    app.follower = window.munchlogLive.follow({
      game: GAME, token: app.token, after: app.state ? app.state.version : 0,
      onEvent: (item) => {
        if (item.type === "TimeCalled") app.timeCalled = item.data;
        if (!app.state || item.version > app.state.version) refresh();
      },
      onStatus: (s) => { $("live").textContent = s; $("live").dataset.live = s; },
    });
  }
  function stopFollowing() {
    for (const f of [app.follower, app.eventFollower]) if (f) f.close();
    app.follower = app.eventFollower = null;
  }

  // ------------------------------------------------------------------ the round's clock
  // An event's game shows its table's time (api/static/clock.js), following the event's stream
  // for the clock's changes (issue #38); after time, the turns left from its TimeCalled.
  const clock = window.munchlogClock.mount($("clock"));
  const CLOCK_TYPES = ["clock_started", "clock_paused", "clock_resumed", "time_extended", "table_time_called"];
  function eventOf() {
    const labels = (app.summary && app.summary.labels) || {};
    return labels.event_id ? { id: labels.event_id, table: labels.table } : null;
  }
  async function loadClock() {
    const shown = await window.munchlogPages.readJSON("/api/events/" + eventOf().id, {});
    app.eventClock = shown.clock;
    showClock();
    return shown.version;
  }
  function showClock() {
    const t = app.timeCalled;
    const left = t && t.last_turn !== null && app.state ? t.last_turn - (app.state.turn || 0) + 1 : null;
    if (app.eventClock) clock.show(app.eventClock, { table: eventOf().table, turnsLeft: left });
  }
  async function startClock(tl) {
    if (!eventOf()) return;
    const called = (tl.timeline || []).find((e) => e.type === "TimeCalled");
    if (called) app.timeCalled = (await api("/events/" + called.version)).event.data;
    const after = await loadClock();
    app.eventFollower = window.munchlogLive.follow({
      base: "/api/events/" + eventOf().id, after: after, onPoll: loadClock,
      onEvent: (item) => { if (CLOCK_TYPES.includes(item.type)) loadClock(); },
    });
  }

  // One refresh at a time; a burst of events while one runs gives one more after it.
  function refresh() {
    if (app.refreshing) { app.again = true; return app.refreshing; }
    app.refreshing = (async () => {
      try {
        do {
          app.again = false;
          let [state, legal] = await Promise.all([api("/state"), api("/legal")]);
          if (state.version !== legal.version) [state, legal] = await Promise.all([api("/state"), api("/legal")]);
          app.state = state;
          app.legal = legal;
          app.names = collectNames(state, Object.assign({}, app.created), 0);
          app.texts = collectTexts(state, {}, 0);
          render();
          status("");
        } while (app.again);
        app.retryMs = 0;
      } catch (e) {
        status(e.status === 401 ? "the token is no longer valid" : "cannot refresh: " + e.message + " (trying again)");
        // the events that asked for this refresh are delivered once: try again until it works
        if (e.status !== 401 && app.token) {
          app.retryMs = Math.min(10000, (app.retryMs || 500) * 2);
          clearTimeout(app.retryTimer);
          app.retryTimer = setTimeout(refresh, app.retryMs);
        }
      } finally {
        app.refreshing = null;
      }
    })();
    return app.refreshing;
  }
  window.addEventListener("online", () => { if (app.token && app.state) refresh(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden && app.token && app.state) refresh(); });

  // ------------------------------------------------------------------ posting
  function setBusy(on) {
    app.busy = on;
    for (const b of document.querySelectorAll("#controls button, #controls select, #controls input")) b.disabled = on;
  }
  // Post one command, with expected_version = the version the legal moves came from and an
  // Idempotency-Key fixed for this intent (this body at this version): a double click finds
  // the buttons disabled, an automatic retry after a network failure sends the same key.
  async function send(body, type) {
    if (app.busy) return "failed";
    const version = app.legal.version;
    const sig = version + " " + canon(body);
    let key = app.intents.get(sig);
    if (!key) { key = uuid(); app.intents.set(sig, key); }
    app.flash = null;
    setBusy(true);
    note("recording: " + moveLabel(body) + "…");
    let done = "failed"; // "recorded", "stale" (409) or "failed"
    try {
      for (let attempt = 0; ; attempt++) {
        let r;
        try {
          r = await fetch(API + "/actions", {
            method: "POST", cache: "no-store",
            headers: Object.assign({ "Content-Type": "application/json", "Idempotency-Key": key }, headers()),
            body: JSON.stringify({ expected_version: version, actions: [body] }),
          });
        } catch (e) {
          if (attempt < 3) { await sleep(300 * (attempt + 1)); continue; }
          app.flash = { type: type, kind: "error", text: "the server cannot be reached; press again to retry (the same request: it records once)" };
          break;
        }
        const answer = await r.json().catch(() => null);
        app.intents.delete(sig);
        if (r.status === 201) {
          const replayed = r.headers.get("Idempotent-Replayed") === "true";
          note("done: " + moveLabel(body) + (replayed ? " (once: the server had it already)" : ""));
          done = "recorded";
          forgetTyped(body);
        } else {
          const err = (answer && answer.error) || { code: "http/" + r.status, message: "HTTP " + r.status };
          if (r.status === 409) {
            done = "stale";
            app.flash = { type: type, kind: "stale", code: err.code, text: "someone moved first: here is the table now, choose again" };
          } else {
            app.flash = { type: type, kind: "error", code: err.code, rule: err.rule, text: err.message, fields: err.fields, body: body };
          }
          note("");
        }
        break;
      }
    } finally {
      setBusy(false);
    }
    app.drawn = ""; // redraw the controls, with the flash if any
    await refresh();
    return done;
  }
  function note(text) { $("moves-note").textContent = text || ""; }

  // ------------------------------------------------------------------ server dealing: seeds
  // A contributor's seed (docs/dealing.md, "In a game" 2): 32 random bytes of this tab's own
  // (crypto.getRandomValues), kept in sessionStorage, committed as SHA-256 of
  // "munchlog-rand-v1|seat|<game>|<seat>|" + seed, revealed once every contributor has
  // committed. The page does both by itself for every seat it plays, as soon as /legal
  // offers them, so no one has to think of it before the deadline.
  function seedKey(seat) {
    const d = (app.summary && app.summary.dealing) || {};
    return SEED + seat + ":" + (d.epoch || 0);
  }
  const { hex, unhex } = window.MunchlogDealing; // dealing.js
  async function seedCommand(c) {
    const key = seedKey(c.seat);
    let seedHex = sessionStorage.getItem(key);
    if (c.type === "commit_seed") {
      if (!seedHex) { seedHex = hex(crypto.getRandomValues(new Uint8Array(32))); sessionStorage.setItem(key, seedHex); }
      const commitment = await window.MunchlogDealing.seatCommitment(GAME, c.seat, unhex(seedHex));
      return Object.assign({}, c, { commitment: commitment });
    }
    if (!seedHex) return null; // committed by another tab or device: it reveals it
    return Object.assign({}, c, { seed: seedHex });
  }
  async function autoSeeds() {
    if (app.seeding || app.busy) return;
    const todo = [];
    for (const seat of Object.keys(app.legal.commands || {})) {
      for (const c of app.legal.commands[seat]) if (c.type === "commit_seed" || c.type === "reveal_seed") todo.push(c);
    }
    if (!todo.length) return;
    app.seeding = true;
    let sent = 0, stale = 0;
    try {
      app.summary = await api("");
      for (const c of todo) {
        const body = await seedCommand(c);
        if (!body) { dealingLine(elsewhere(c.seat)); continue; }
        dealingLine((c.type === "commit_seed" ? "shuffling in this tab's seed for " : "revealing this tab's seed for ") + c.seat + "…");
        const outcome = await send(body, c.type);
        if (outcome === "stale") { stale += 1; app.flash = null; break; } // another seat's seed came first: again
        if (outcome !== "recorded") { dealingLine("the seed for " + c.seat + " was not recorded: see the moves"); break; }
        sent += 1;
        dealingLine((c.type === "commit_seed" ? "this tab's seed for " + c.seat + " is committed" : "this tab's seed for " + c.seat + " is revealed"));
      }
    } catch (e) {
      dealingLine("the seed could not be sent: " + e.message);
    } finally {
      app.seeding = false;
    }
    // the reveals once every commitment is in; after a lost race, the same seed again
    if (sent || (stale && (app.seedRaces = (app.seedRaces || 0) + 1) <= 20)) setTimeout(autoSeeds, 0);
  }
  // A seed committed by another page (another browser, a tab since closed): only that page
  // can reveal it; past the deadline the server goes on without it (docs/dealing.md).
  function elsewhere(seat) {
    app.lost[seat] = true;
    return app.role === seat ? "if the page that committed your seed is still open, it reveals it"
      : "the seed committed for " + seatName(seat) + " is not in this tab: if the page that committed it is still open, it reveals it";
  }
  // once the seed a tab did not hold is no longer due: recorded as withheld, or revealed there
  function settledLost() {
    const gone = Object.keys(app.lost).filter((seat) => !(app.legal.commands[seat] || []).some((c) => c.type === "reveal_seed"));
    if (!gone.length) return;
    for (const seat of gone) delete app.lost[seat];
    api("").then((summary) => {
      app.summary = summary;
      const withheld = (summary.dealing && summary.dealing.withheld) || [];
      dealingLine(gone.map((seat) => (app.role === seat ? "your seed" : seatName(seat) + "'s seed") +
        (withheld.includes(seat) ? " was not revealed in time: the game goes on without it (recorded as withheld)" : " is revealed")).join("; "));
    }).catch(() => {});
  }
  function holdsSeed(seat) { return !!sessionStorage.getItem(seedKey(seat)); }
  function dealingLine(text) {
    const p = $("dealing");
    p.hidden = !text;
    p.textContent = text || "";
  }

  // ------------------------------------------------------------------ controls
  function actingSeats() { return Object.keys((app.legal && app.legal.commands) || {}).sort(); }
  function chooseActing() {
    const seats = actingSeats();
    const waiting = (app.legal.waiting_for || []).filter((s) => seats.includes(s));
    if (app.pinned && seats.includes(app.pinned)) return app.pinned;
    const busy = waiting.find((s) => (app.legal.commands[s] || []).some((c) => c.type !== "concede" && c.type !== "commit_seed" && c.type !== "reveal_seed"));
    return busy || waiting[0] || seats[0] || "";
  }
  function drawActing(seats) {
    const sel = $("acting");
    const waiting = app.legal.waiting_for || [];
    const auto = chooseActing();
    $("acting-wrap").hidden = seats.length < 2;
    $("acting-one").textContent = seats.length === 1 ? "you play " + seatName(seats[0]) : "";
    $("acting-one").dataset.seat = seats.length === 1 ? seats[0] : "";
    if (seats.length < 2) return;
    const opts = [el("option", { value: "", text: "the seat waited on" + (app.pinned ? "" : " (" + auto + ")"), selected: !app.pinned })];
    for (const s of seats) opts.push(el("option", { value: s, text: seatName(s) + (waiting.includes(s) ? " · waited on" : ""), selected: app.pinned === s }));
    sel.replaceChildren(...opts);
  }
  function render() {
    if (!app.state || !app.legal) return;
    drawWhere();
    showClock();
    drawSeats();
    drawCenter();
    const seats = actingSeats();
    app.acting = chooseActing();
    drawActing(seats);
    drawHand();
    const mine = (app.legal.commands[app.acting] || []).filter((c) => c.type !== "commit_seed" && c.type !== "reveal_seed");
    const sig = app.legal.version + "|" + app.acting + "|" + canon(mine);
    if (sig !== app.drawn) { app.drawn = sig; drawControls(mine); }
    const d = app.summary && app.summary.dealing;
    const seeding = Object.values(app.legal.commands || {}).some((cs) => cs.some((c) => c.type === "commit_seed" || c.type === "reveal_seed")) || !!app.legal.deadline;
    if (!(d && d.mode === "server") || app.state.status === "finished") dealingLine("");
    else if (!seeding && !Object.keys(app.lost).length) { if (/^this tab's seed|^server dealing/.test($("dealing").textContent)) dealingLine(""); }
    else if (!$("dealing").textContent) dealingLine("the server shuffles and rolls the dice from its own secret and a seed from each seat's page, which this page sends by itself");
    settledLost();
    autoSeeds();
  }
  function groupOf(commands) {
    const groups = new Map();
    for (const c of commands) {
      if (!groups.has(c.type)) groups.set(c.type, []);
      const list = groups.get(c.type);
      if (!list.some((x) => canon(x) === canon(c))) list.push(c);
    }
    // concede last: never the first button a thumb finds
    return [...groups.entries()].sort((a, b) => (a[0] === "concede") - (b[0] === "concede"));
  }
  function flashFor(type) {
    const f = app.flash;
    if (!f || f.type !== type) return null;
    // the rule's words, the card ids they name by name where this viewer knows it, its section
    const text = window.munchlogBoards.plain(String(f.text).replace(/\b[0-9a-f]{16}\b/g, (id) => app.names[id] || "a card"));
    const refused = f.kind === "stale" ? "" : "Not allowed: ";
    return el("p", { class: "refusal " + f.kind, role: "alert", "data-refusal": f.code || "", "data-rule": f.rule || "",
      text: refused + text + (f.rule ? " (rules, section " + f.rule + ")" : "") });
  }
  // No move for the acting seat: say so, and what the game waits on until when. A seed this
  // tab cannot reveal is said in words, with its deadline (issue #43).
  function idleNote() {
    const seat = app.acting;
    const d = app.legal.deadline;
    const pages = window.munchlogPages;
    const after = d ? (d.seats.length > 1 ? "their seeds" : "it") : "";
    if (seat && d && d.step === "reveal_seed" && d.seats.includes(seat)) {
      if (holdsSeed(seat)) return el("p", { class: "note", text: "this tab reveals " + (app.role === seat ? "your" : seatName(seat) + "'s") + " seed by itself" });
      const whose = app.role === seat ? "your seed was on another device" : seatName(seat) + "'s seed is not on this device";
      return el("p", { class: "note lost-seed", "data-lost-seed": seat, role: "status" },
        [whose + ": the game goes on without it after the deadline, ", pages.until(d.at, true)]);
    }
    // a seat's phone in a table-dealt game, waited on for a draw only the table can name
    if (seat && app.role === seat && (app.legal.waiting_for || []).includes(seat) && !d) {
      return el("p", { class: "note", "data-table-draws": seat, text: "the table tells the cards you draw: the game goes on when it has" });
    }
    const head = seat ? "nothing for " + seatName(seat) + " to do now" : "nothing to do now";
    if (!d) return el("p", { class: "note", text: head });
    return el("p", { class: "note", "data-awaited": d.seats.join(",") },
      [head + ": the game waits for " + pages.awaitedWords(d, app.players), pages.until(d.at), ", then goes on without " + after]);
  }
  function drawControls(commands) {
    const box = $("controls");
    box.dataset.version = String(app.legal.version);
    box.dataset.seat = app.acting;
    const kids = [];
    if (app.state.status === "finished") { box.replaceChildren(...theEnd()); return; }
    if (!commands.some((c) => c.type !== "concede")) kids.push(idleNote());
    for (const c of commands.filter((x) => x.draws)) kids.push(drawForm(c));
    for (const [type, bodies] of groupOf(commands.filter((x) => !x.draws))) {
      const label = typeLabel(type);
      const group = el("div", { class: "group" + (type === "concede" ? " concede" : ""), "data-type": type });
      if (type === "concede") group.append(el("h3", { class: "leave", text: "Leave the game" }));
      if (bodies.length === 1) {
        const body = bodies[0];
        group.append(el("button", { type: "button", class: "act", "data-body": canon(body),
          onclick: (ev) => (secondClick(ev) ? null : confirmThen(type, ev.currentTarget, () => send(body, type))) }, [el("b", { text: type === "concede" ? label : moveLabel(body) })]));
      } else {
        const id = "pick-" + type;
        const sel = el("select", { id: id, "data-picker": type },
          bodies.map((b, i) => el("option", { value: String(i), "data-body": canon(b), text: moveLabel(b) })));
        // the chosen move in full, wrapped, under the picker (a <select> cuts a long one)
        const picked = el("span", { class: "picked-text", "data-picked-text": type, id: id + "-text", text: moveLabel(bodies[0]) });
        sel.setAttribute("aria-describedby", id + "-text");
        sel.addEventListener("change", () => { picked.textContent = moveLabel(bodies[Number(sel.value)]); });
        group.append(el("label", { for: id, class: "pick-label", text: label }), sel,
          el("button", { type: "button", class: "act", "data-picked": type,
            onclick: (ev) => (secondClick(ev) ? null : confirmThen(type, ev.currentTarget, () => send(bodies[Number(sel.value)], type))) }, [el("b", { text: label })]), picked);
      }
      const f = flashFor(type);
      if (f) group.append(f);
      kids.push(group);
    }
    if (app.flash && !commands.some((c) => c.type === app.flash.type)) {
      const f = flashFor(app.flash.type);
      if (f) kids.unshift(f);
    }
    box.replaceChildren(...kids);
    if (app.busy) setBusy(true);
  }
  // The finished game: who won, the replay and this viewer's export (a download).
  function winnerWords() { return window.munchlogBoards.winnerWords(app.state, seatName); }
  function theEnd() {
    const exp = el("a", { class: "end-link", "data-export": "", href: "#", download: "munchlog-" + GAME + ".json", text: "Download the game's record",
      onclick: async (ev) => {
        if (ev.currentTarget.dataset.ready) return;
        ev.preventDefault();
        const link = ev.currentTarget;
        try {
          const r = await fetch(API + "/export?format=json", { headers: headers(), cache: "no-store" });
          if (!r.ok) throw new Error("HTTP " + r.status);
          link.href = URL.createObjectURL(await r.blob());
          link.dataset.ready = "yes";
          link.click();
        } catch (e) { note("the record could not be downloaded: " + e.message); }
      } });
    return [el("p", { class: "the-end", "data-the-end": "", text: "The game is over: " + winnerWords() + "." }),
      el("p", { class: "end-links" }, [el("a", { class: "end-link", "data-replay": "", href: "/games/" + GAME, text: "Watch the replay" }), " ", exp])];
  }
  // ------------------------------------------------------------------ a draw told by name
  // A table-dealt draw (docs/rules.md E.4): one field per card drawn, each with the set's
  // sample card names to pick from (a <datalist> per deck, filled once from
  // GET /api/rulesets/<ruleset>/cards; the game's own cards may be others: any name is taken).
  const DECK_WORDS = { door: "Door", treasure: "Treasure" };
  // Asked once, when the first draw form is drawn: a game with no draw told by name (a CCG game,
  // a server-dealt one) never asks, so no ruleset without card names answers 404.
  async function loadCardNames(ruleset) {
    if (app.cardNamesAsked) return;
    app.cardNamesAsked = true;
    let cards = [];
    try {
      cards = (await window.munchlogPages.readJSON("/api/rulesets/" + encodeURIComponent(ruleset) + "/cards", {})).cards || [];
    } catch (e) {
      cards = []; // no names to suggest: the fields take any name
    }
    for (const deck of Object.keys(DECK_WORDS)) {
      const id = "names-" + deck;
      const list = $(id) || document.body.appendChild(el("datalist", { id: id }));
      list.replaceChildren(...cards.filter((c) => c.deck === deck).map((c) => el("option", { value: c.name })));
    }
  }
  function typedKey(body, field, i) { return body.type + "|" + body.seat + "|" + field + "|" + i; }
  function forgetTyped(body) {
    const head = body.type + "|" + body.seat + "|";
    for (const k of Object.keys(app.typed)) if (k.startsWith(head)) delete app.typed[k];
  }
  function drawForm(c) {
    loadCardNames(app.summary.ruleset);
    const type = c.type;
    const body = Object.assign({}, c);
    delete body.draws;
    const fields = Object.entries(c.draws);
    const many = fields.map(([, w]) => (w.count != null ? w.count + " " + DECK_WORDS[w.deck] + (w.count === 1 ? "" : "s") : "a " + DECK_WORDS[w.deck])).join(" and ");
    const inputs = [];
    const rows = [];
    for (const [field, w] of fields) {
      const n = w.count != null ? w.count : 1;
      for (let i = 0; i < n; i++) {
        const key = typedKey(body, field, i);
        const id = "draw-" + type + "-" + body.seat + "-" + field + "-" + i;
        const input = el("input", { id: id, type: "text", list: "names-" + w.deck, autocomplete: "off", spellcheck: "false",
          required: true, "data-field": field, "data-index": String(i), "data-deck": w.deck, placeholder: "the card's name",
          value: app.typed[key] || null, oninput: (ev) => { app.typed[key] = ev.currentTarget.value; } });
        inputs.push([field, w, input]);
        rows.push(el("label", { class: "name-field", for: id }, [el("span", { text: DECK_WORDS[w.deck] + (n > 1 ? " " + (i + 1) : "") }), input]));
      }
    }
    const flash = app.flash && app.flash.type === type ? app.flash : null;
    // a kicked Curse that asks its victim to choose (request/missing_choice): the cards to choose from
    let choice = null;
    const pool = flash && flash.code === "request/missing_choice" && flash.fields && Array.isArray(flash.fields.choices) ? flash.fields.choices : null;
    if (pool && pool.length) {
      const id = "draw-" + type + "-choice";
      choice = el("select", { id: id, "data-choice": type }, pool.map((cid) => el("option", { value: cid, text: cardName(cid) })));
      rows.push(el("label", { class: "name-field choice", for: id }, [el("span", { text: "choose what it takes" }), choice]));
    }
    const form = el("form", { class: "group draw", "data-type": type, "data-draws": type, "data-body": canon(c), "aria-label": typeLabel(type) + ": name the cards drawn",
      onsubmit: (ev) => {
        ev.preventDefault();
        const sent = Object.assign({}, body);
        for (const [field, w] of fields) if (w.count != null) sent[field] = [];
        for (const [field, w, input] of inputs) {
          const named = { name: input.value.trim() };
          if (w.count == null) sent[field] = named;
          else sent[field].push(named);
        }
        if (choice) sent.choices = ((flash.body && flash.body.choices) || []).concat([choice.value]);
        send(sent, type);
      } }, [
      el("span", { class: "pick-label", title: "name " + many + " drawn", text: typeLabel(type) + " \u00b7 by name" }),
      flashFor(type), // a refusal first, where the eye is, the names typed kept below it
      el("div", { class: "names" }, rows),
      el("button", { type: "submit", class: "act", "data-drawn": type, onclick: (ev) => { if (secondClick(ev)) ev.preventDefault(); } }, [el("b", { text: typeLabel(type) })]),
    ]);
    return form;
  }

  // a concession asks once more (the button turns into "really concede?")
  // The second click of a double click (its event's detail is 2) does nothing: while the first
  // one's post is on its way the buttons are disabled, but a quick server can answer in between
  // and the moves be drawn again, and the second click would press whatever button is now there.
  function secondClick(ev) { return ev.detail > 1; }

  function confirmThen(type, button, go) {
    if (type !== "concede" || button.dataset.armed === "yes") return go();
    button.dataset.armed = "yes";
    button.firstChild.textContent = "Really concede? Press again";
    return null;
  }

  // ------------------------------------------------------------------ the board (boards.js)
  const board = window.munchlogBoards.table({ app: app, phrase: phrase, seatName: seatName });
  const [drawSeats, drawHand, drawWhere, drawCenter] = [board.drawSeats, board.drawHand, board.drawWhere, board.drawCenter];

  // ------------------------------------------------------------------ boot
  const token = window.munchlogPages.bootToken(KEY);
  if (token) start(token);
  else showSignin("");
})();
