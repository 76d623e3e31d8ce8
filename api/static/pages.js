/* What the pages share (viewer.js, table.js, event.js): a JSON read from the API that throws the
 * API's error message (with its HTTP status on the error) when it refuses, el(), which makes an
 * element from its attributes and children (no HTML strings anywhere), the status line and
 * capital(), a penalty's infraction and upgrade in words (the replay viewer's and the event
 * page's), and a server deadline in words, counted down (the table page's and the viewer's).
 * What the two game pages' boards share is in boards.js. */
(function () {
  "use strict";
  async function readJSON(url, headers) {
    const r = await fetch(url, { headers: headers || {}, cache: "no-store" });
    const body = await r.json().catch(() => null);
    if (!r.ok) throw refusal(r, body);
    return body;
  }
  // the API's refusal as an Error: its message, with the HTTP status and the body on it
  function refusal(r, body) {
    const err = new Error((body && body.error && body.error.message) || "HTTP " + r.status);
    err.status = r.status;
    err.body = body;
    return err;
  }
  function el(tag, attrs, kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = String(v);
      else if (k === "class") e.className = v;
      else if (k === "style") Object.assign(e.style, v); // CSSOM: allowed by the pages' CSP
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of [].concat(kids || [])) {
      if (kid === null || kid === undefined || kid === false) continue;
      e.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
    }
    return e;
  }
  // the page's status line (#status): a refusal's message, or nothing
  function status(text) { document.getElementById("status").textContent = text || ""; }
  function capital(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many || one + "s"); }
  // The sign-in form (#signin-form, #token-input): a token typed in goes to onToken, and the
  // field is emptied (the token is kept only where the page keeps it).
  function onSignin(onToken) {
    document.getElementById("signin-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = document.getElementById("token-input");
      const token = input.value.trim();
      input.value = "";
      if (token) onToken(token);
    });
  }
  // The sign-in form (#signin) shown instead of the page (#app), with ``message`` (why, or
  // nothing) in #signin-error; the page clears what it shows of the viewer itself.
  function showSignin(message) {
    document.getElementById("app").hidden = true;
    document.getElementById("signin").hidden = false;
    document.getElementById("sign-out").hidden = true;
    document.getElementById("signin-error").textContent = message || "";
    document.getElementById("token-input").focus();
  }
  // A ruling's penalty in words (docs/rules.md F.5), from what the API gives with it (a game's
  // disputes, an event's penalties): the penalty guide's infraction by its name and IPG section
  // ("Slow Play (IPG 3.3)"; the key in words for one the guide does not have), and for a
  // penalty the guide upgraded the one the judge gave and the guide's count. The ruling does
  // not record the count itself, so it reads "at least the 2nd".
  function spaced(key) { return String(key).replace(/[._]/g, " "); }
  function infractionText(p) {
    if (!p.infraction) return "";
    if (!p.infraction_name) return spaced(p.infraction);
    return p.infraction_name + (p.ipg_section ? " (IPG " + p.ipg_section + ")" : "");
  }
  // the whole penalty, "warning for A (ann) · Slow Play (IPG 3.3) · upgraded from …", the
  // seat in the page's words (seatWords)
  function penaltyText(p, seatWords) {
    return [spaced(p.kind) + (p.seat ? " for " + seatWords(p.seat) : ""), infractionText(p), upgradeText(p)].filter(Boolean).join(" · ");
  }
  function upgradeText(p) {
    if (!p.escalated_from) return "";
    const given = spaced(p.escalated_from);
    return "upgraded from " + given + (p.repeat_at_least
      ? " as a repeat: at least the " + ordinal(p.repeat_at_least) + " " + given + " for this infraction in the event" : "");
  }
  // A server deadline (docs/dealing.md, "When a seed is lost") as people read it: the time on
  // this device's clock and how long is left, "until 14:05:12 (in 42 s)"; once it has passed,
  // that the server is recording it. An element with data-until="<ISO time>" is kept up to
  // date every second (until(at) makes one).
  function untilWords(at, bare) {
    const when = new Date(at);
    if (isNaN(when.getTime())) return "";
    const clock = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    const left = Math.ceil((when.getTime() - Date.now()) / 1000);
    const head = (bare ? "" : "until ") + clock;
    if (left <= 0) return head + " (passed: the server goes on now)";
    const mins = Math.floor(left / 60);
    return head + " (in " + (mins ? mins + " min " : "") + (left % 60) + " s)";
  }
  // bare: the time alone, "14:05:12 (in 42 s)"
  function until(at, bare) { return el("span", { class: "until", "data-until": at, "data-bare": bare ? "yes" : null, text: untilWords(at, bare) }); }
  setInterval(() => {
    for (const e of document.querySelectorAll("[data-until]")) {
      const text = untilWords(e.dataset.until, e.dataset.bare === "yes");
      if (e.textContent !== text) e.textContent = text;
    }
  }, 1000);
  // "A (ann)": a seat with its player's name, when it is known; seatList: "A (ann), B (bob)"
  function seatName(seat, players) { return seat + (players && players[seat] ? " (" + players[seat] + ")" : ""); }
  function seatList(seats, players) { return seats.map((s) => seatName(s, players)).join(", "); }
  // What a server-dealt game waits on, from a deadline {at, seats, step} (GET /legal's
  // `deadline`, GET /api/games/<id>'s `dealing.deadline`): "A (ann) to reveal a seed", then
  // until(at) and what happens after it.
  function awaitedWords(d, players) {
    return seatList(d.seats, players) + (d.step === "commit_seed" ? " to commit a seed " : " to reveal a seed ");
  }
  // A page's token at boot: the one in the URL fragment (#token=..., which never reaches the
  // server), taken out of the address bar, else the one kept in this tab under ``key``.
  function bootToken(key) {
    const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
    const fromUrl = frag.get("token");
    if (fromUrl) {
      frag.delete("token");
      history.replaceState(null, "", location.pathname + location.search + (frag.toString() ? "#" + frag.toString() : ""));
    }
    return fromUrl || sessionStorage.getItem(key);
  }
  // POST a JSON body with a bearer token: the answer, or an Error saying the API's refusal
  // in its own words, with its HTTP status (the event page's actions, the organizer's console,
  // the home page, the judge's page).
  async function postJSON(url, token, body) {
    const r = await fetch(url, {
      method: "POST",
      headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    const found = await r.json().catch(() => null);
    if (!r.ok) throw refusal(r, found);
    return found;
  }
  // A place as a player says it: 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd, 111th
  function ordinal(n) {
    const teen = Math.floor(n / 10) % 10 === 1;
    return n + ((!teen && { 1: "st", 2: "nd", 3: "rd" }[n % 10]) || "th");
  }
  // When a player dropped, as a player says it (after round 0 is before round 1)
  function droppedWhen(after) { return after ? "dropped after round " + after : "dropped before round 1"; }
  // An event page's ids: the event (its <body data-event-id>), its API path, the tab's key for
  // its token (the event page, the judge's page)
  function eventIds() {
    const event = document.body.dataset.eventId;
    return { EVENT: event, API: "/api/events/" + event, KEY: "munchlog-event-token:" + event };
  }
  window.munchlogPages = { eventIds: eventIds, ordinal: ordinal, droppedWhen: droppedWhen, readJSON: readJSON, postJSON: postJSON, bootToken: bootToken, el: el, status: status, capital: capital, plural: plural,
    onSignin: onSignin, showSignin: showSignin, infractionText: infractionText, upgradeText: upgradeText, penaltyText: penaltyText,
    untilWords: untilWords, until: until, seatName: seatName, seatList: seatList, awaitedWords: awaitedWords };
})();
