/* munchlog judge's page (/events/<id>/judge, issue #39; docs/events.md "The judge's page").
 *
 * Phone first. A staff token of the event (a judge's, a scorekeeper's, the head judge's) comes
 * from the URL fragment (#token=..., never sent to the server) or the sign-in form, is kept in
 * the tab's sessionStorage (the event page's key) and goes only in the Authorization header.
 * The page shows the open calls by age (GET /api/events/<id>/calls), each with its table, a
 * tap to claim, escalate or resolve it (POST …/calls/<call_id>), a link opening the replay
 * viewer at the call's version as this token sees the game (/games/<id>#token=…&v=<version>),
 * the table's clock and a form to extend its time (POST …/clock); and a grid of the round's
 * tables: in progress, time called, result in, call open. A call's "Ruling" opens its ruling
 * form (api/static/judge-ruling.js): a dispute of its game, the ruling, the call resolved with
 * it. It follows the event's stream
 * (api/static/live.js) with its token: a call's step reloads the calls at once, a clock change
 * the clock, anything else everything, once per burst; the games' results every 10 s. What a
 * judge types in a call's fields survives the re-renders.
 */
"use strict";
(function () {
  const { EVENT, API, KEY } = window.munchlogPages.eventIds();
  const $ = (id) => document.getElementById(id);
  const { el, status, readJSON } = window.munchlogPages;
  const STAFF = ["judge", "scorekeeper", "organizer"];
  const CLOCK_TYPES = window.munchlogClock.TYPES;
  const app = { token: null, role: null, calls: [], callsReadAt: 0, event: null, results: [], follower: null };
  const clock = window.munchlogClock.mount($("clock"));
  let tableClocks = [];

  function headers() { return { Authorization: "Bearer " + app.token }; }
  function read(path) { return readJSON(API + path, headers()); }
  function post(path, body) { return window.munchlogPages.postJSON(API + path, app.token, body); }
  function ageWords(s) {
    const m = Math.floor(s / 60);
    return (m ? m + " min " : "") + (s % 60) + " s";
  }

  // ------------------------------------------------------------------ sign in
  window.munchlogPages.onSignin((token) => signIn(token));
  $("sign-out").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    if (app.follower) app.follower.close();
    app.token = null;
    $("viewer-label").textContent = "";
    window.munchlogPages.showSignin("");
  });

  async function signIn(token) {
    if (!token) { window.munchlogPages.showSignin(""); return; }
    status("loading…");
    app.token = token;
    try {
      const exported = await read("/export?format=json&games=false");
      if (!STAFF.includes(exported.viewer.role)) {
        app.token = null;
        window.munchlogPages.showSignin("That token is not one of this event's staff.");
        status("");
        return;
      }
      sessionStorage.setItem(KEY, token);
      app.role = exported.viewer.role;
      app.results = exported.results || [];
      $("viewer-label").textContent = app.role;
      $("signin").hidden = true;
      $("sign-out").hidden = false;
      $("app").hidden = false;
      const version = await loadEvent();
      await loadCalls();
      status("");
      follow(version);
    } catch (e) {
      app.token = null;
      if (e.status === 401 || e.status === 403) {
        sessionStorage.removeItem(KEY);
        window.munchlogPages.showSignin("That token is not valid for this event.");
        status("");
      } else status(e.message);
    }
  }

  // ------------------------------------------------------------------ reading
  async function loadEvent() {
    app.event = await read("");
    clock.show(app.event.clock, {});
    renderTables();
    renderCalls();
    return app.event.version;
  }
  async function loadResults() {
    app.results = (await read("/export?format=json&games=false")).results || [];
  }
  async function loadCalls() {
    app.calls = await read("/calls");
    app.callsReadAt = Date.now();
    renderCalls();
    renderTables();
  }
  async function loadAll() {
    await loadResults();
    await loadEvent();
    await loadCalls();
  }

  function follow(after) {
    if (app.follower) app.follower.close();
    app.follower = window.munchlogLive.followEvent({
      base: API, token: app.token, after: after,
      handle: (item) => {
        const calls = item.type.startsWith("call_");
        const clockOnly = CLOCK_TYPES.includes(item.type);
        if (calls) loadCalls().catch((e) => status(e.message));
        else if (clockOnly) loadEvent().catch((e) => status(e.message));
        return calls || clockOnly;
      },
      reload: () => loadAll().catch((e) => status(e.message)),
      onPoll: loadAll,
    });
  }

  // ------------------------------------------------------------------ the calls
  function openCalls() { return app.calls.filter((c) => c.state !== "resolved"); }

  // the players at a call's table, by seat ({A: "ann", …}), from the round's pairings
  function playersAt(call) {
    const round = app.event && app.event.rounds.find((r) => r.round === call.round);
    const pairing = round && round.pairings.find((p) => p.table === call.table);
    return pairing ? pairing.seats : {};
  }
  const ruling = window.munchlogRuling.mount({
    api: API, token: () => app.token, role: () => app.role, me: () => app.event && app.event.staff_member,
    players: playersAt, rerender: () => renderCalls(),
    resolved: (call) => {
      $("calls-said").textContent = "The call at table " + call.table + " is resolved with the ruling.";
      $("calls-title").scrollIntoView({ block: "nearest" });
      return loadCalls().catch((e) => status(e.message));
    },
  });

  function act(call, action, note) {
    const body = { action: action };
    if (note) body.note = note;
    return post("/calls/" + encodeURIComponent(call.call_id), body)
      .then(() => loadCalls())
      .catch((e) => status("Call at table " + call.table + ": " + window.munchlogRuling.refusalWords(e) + "."));
  }

  function extendForm(table, key) {
    const minutes = el("input", { type: "number", min: "1", max: "120", value: "3", "aria-label": "minutes to add at table " + table, "data-keep": key + ":minutes" });
    const reason = el("input", { type: "text", maxlength: "500", placeholder: "why", "aria-label": "why table " + table + " gets more time", required: true, "data-keep": key + ":reason" });
    return el("form", {
      class: "extend",
      onsubmit: (ev) => {
        ev.preventDefault();
        post("/clock", { action: "extend", table: table, minutes: Number(minutes.value), reason: reason.value })
          .then(() => { reason.value = ""; return loadEvent(); })
          .catch((e) => status("Table " + table + ": " + e.message));
      },
    }, [el("span", { text: "extend" }), minutes, el("span", { text: "min" }), reason, el("button", { type: "submit", text: "Extend" })]);
  }

  function replayLink(call) {
    const frag = new URLSearchParams({ token: app.token, v: String(call.version) });
    return el("a", {
      class: "replay", href: "/games/" + encodeURIComponent(call.game_id) + "#" + frag.toString(),
      target: "_blank", rel: "noopener", "data-version": call.version,
      text: "Replay as it stood at the call (step " + call.version + ")",
    });
  }

  // What a judge is typing survives a re-render (a call or a clock change comes any time):
  // each field's value by its data-keep, and the focus.
  function kept() {
    const values = {};
    for (const e of $("calls").querySelectorAll("[data-keep]")) values[e.dataset.keep] = e.value;
    const focus = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.keep : null;
    return { values: values, focus: focus };
  }
  function restore(was) {
    for (const e of $("calls").querySelectorAll("[data-keep]")) {
      if (was.values[e.dataset.keep] !== undefined) e.value = was.values[e.dataset.keep];
      if (was.focus === e.dataset.keep) e.focus();
    }
  }

  function renderCalls() {
    const was = kept();
    const open = openCalls();
    $("calls-count").textContent = "(" + open.length + " open)";
    $("no-calls").hidden = open.length > 0;
    for (const c of tableClocks) c.stop();
    tableClocks = [];
    $("calls").replaceChildren(...open.map((call) => {
      const note = el("input", { type: "text", maxlength: "2000", placeholder: "note (optional)", "aria-label": "note on the call at table " + call.table, "data-keep": call.call_id + ":note" });
      const held = call.claimed_by ? call.claimed_by.name : null;
      const tclock = el("p", { class: "clock", "data-state": "", role: "timer", hidden: true });
      const mounted = window.munchlogClock.mount(tclock);
      if (app.event) mounted.show(app.event.clock, { table: call.table });
      tableClocks.push({ stop: () => mounted.show(null) });
      return el("li", { class: "call", "data-call-id": call.call_id, "data-state": call.state, "data-table": call.table }, [
        el("div", { class: "call-head" }, [
          el("span", { class: "call-table", text: "Table " + call.table }),
          el("span", { class: "call-age", "data-age": call.age_s, text: ageWords(call.age_s) }),
        ]),
        el("p", { class: "call-meta", text: "called by " + call.raised_by + " · " + call.state + (held ? " · " + held + " has it" : "") }),
        call.note ? el("p", { class: "call-note", text: call.note }) : null,
        replayLink(call),
        tclock,
        el("div", { class: "call-actions" }, [
          el("button", { type: "button", class: "primary", "data-action": "claim", text: "Claim", onclick: () => act(call, "claim", note.value) }),
          el("button", { type: "button", "data-action": "escalate", text: "Escalate", onclick: () => act(call, "escalate", note.value) }),
          el("button", { type: "button", "data-action": "resolve", text: "Resolve", onclick: () => act(call, "resolve", note.value) }),
          ruling.button(call),
          note,
        ]),
        ruling.panel(call, note),
        app.role === "judge" || app.role === "organizer" ? extendForm(call.table, call.call_id) : null,
      ]);
    }));
    restore(was);
  }
  // the games (their results, time called) go on outside the event's stream: read every 10 s
  setInterval(() => { if (app.token && !document.hidden) loadAll().catch(() => {}); }, 10000);
  // the calls' ages count up between reads
  setInterval(() => {
    const gone = Math.floor((Date.now() - app.callsReadAt) / 1000);
    for (const e of document.querySelectorAll(".call-age")) e.textContent = ageWords(Number(e.dataset.age) + gone);
  }, 1000);

  // ------------------------------------------------------------------ the tables
  function resultIn(number, players) {
    const want = players.slice().sort().join("\u0000");
    return app.results.some((r) => r.round === number && r.players.slice().sort().join("\u0000") === want);
  }

  function renderTables() {
    const ev = app.event;
    if (!ev || !ev.rounds.length) { $("tables").replaceChildren(el("li", { text: "No round has been paired yet." })); return; }
    const round = ev.rounds[ev.rounds.length - 1];
    $("tables-title").textContent = "Round " + round.round + "'s tables";
    const calling = new Set(openCalls().filter((c) => c.round === round.round).map((c) => c.table));
    const called = (ev.clock && ev.clock.round === round.round && ev.clock.time_called) || {};
    $("tables").replaceChildren(...round.pairings.slice().sort((a, b) => a.table - b.table).map((p) => {
      const players = Object.values(p.seats);
      let state = "play", words = "in progress";
      if (calling.has(p.table)) { state = "call"; words = "call open"; }
      else if (resultIn(round.round, players)) { state = "result"; words = "result in"; }
      else if (called[String(p.table)]) { state = "time"; words = "time called"; }
      return el("li", { "data-table": p.table, "data-status": state }, [
        el("span", { class: "t", text: "Table " + p.table }),
        el("span", { class: "s", text: words }),
        el("span", { class: "p", text: players.join(" · ") }),
      ]);
    }));
  }

  // ------------------------------------------------------------------ boot
  signIn(window.munchlogPages.bootToken(KEY));
})();
